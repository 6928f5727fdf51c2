import type { RateDecision, RateLimit } from '../../../server/ports/rate-limiter.ts';

/**
 * What the process asks of the shared bucket: decide `n` takes in arrival order as single checks
 * would, then reserve up to `extra` more passes for later takes while the bucket stays at least
 * half full. Answers the takes that passed, the wait for the rest, and the passes reserved.
 */
export type Reserve = (key: string, n: number, extra: number) => Promise<{ passed: number; waitMs: number; reserved: number }>;
/** Returns `k` reserved passes nobody used to the shared bucket. */
export type GiveBack = (key: string, k: number) => Promise<void>;

/** Requests of one key decided in one call at most: a bound on the script's loop and the batch's wait. */
const MAX_BATCH = 256;
/** A reserved pass unused for this long goes back to the shared bucket. */
const HOLD_MS = 100;
// The rate of a key is counted over windows of this length; a lease covers half a window of it.
const WINDOW_MS = 100;
// A lease is at most this share of the burst (a client's whole burst is never parked in one
// process) and never more than MAX_LEASE passes.
const BURST_SHARE = 16;
const MAX_LEASE = 1000;
// Keys unused for this long are forgotten (with their rate).
const IDLE_MS = 1000;

const ALLOWED: RateDecision = Object.freeze({ allowed: true });

interface KeyState {
  /** Passes reserved in the shared bucket and not used yet. */
  stock: number;
  /** When unused `stock` goes back. */
  stockUntil: number;
  /** Takes waiting for the call out, in arrival order. */
  waiting: Array<(d: RateDecision) => void>;
  calling: boolean;
  windowStart: number;
  seen: number;
  /** Takes in the last full window. */
  rate: number;
  lastUsed: number;
}

/**
 * The per-process side of the Redis limiter. Every pass is a pass the shared bucket counted, so
 * all processes together never let a client through more than its limit. A busy key reserves a
 * few passes ahead (a lease: half a window of its own recent rate, at most 1/16 of the burst, and
 * only while the shared bucket stays at least half full), so its requests cost a Redis call per
 * lease instead of one per batch; a quiet key, a small burst (under 16) and a client near its
 * limit reserve nothing and are decided exactly as single checks in Redis. The bound this buys:
 * another process may hold up to a lease of a key's passes unused, so a client can be refused
 * up to (processes − 1) × burst/16 passes early, for at most HOLD_MS (then they go back).
 */
export function createLeases(limit: RateLimit, reserve: Reserve, giveBack: GiveBack, onError: (err: unknown) => void) {
  const cap = Math.min(MAX_LEASE, Math.floor(limit.burst / BURST_SHARE));
  const states = new Map<string, KeyState>();
  let sweeps = 0;

  // Half a window of the key's own rate: a key with fewer than two takes in a window reserves nothing.
  const leaseOf = (st: KeyState) => (cap === 0 ? 0 : Math.min(cap, Math.floor(Math.max(st.rate, st.seen) / 2)));

  const send = (key: string, st: KeyState) => {
    const batch = st.waiting.splice(0, MAX_BATCH);
    st.calling = true;
    reserve(key, batch.length, leaseOf(st))
      .then(
        ({ passed, waitMs, reserved }) => {
          batch.forEach((decide, i) => decide(i < passed ? ALLOWED : { allowed: false, retryAfterMs: waitMs }));
          if (reserved > 0) {
            st.stock += reserved;
            st.stockUntil = performance.now() + HOLD_MS;
          }
        },
        (err: unknown) => {
          onError(err);
          for (const decide of batch) decide(ALLOWED);
        },
      )
      .finally(() => {
        // Takes made meanwhile use the lease first, in the order they were made.
        while (st.stock > 0 && st.waiting.length > 0) {
          st.stock--;
          st.waiting.shift()!(ALLOWED);
        }
        if (st.waiting.length > 0) return send(key, st);
        st.calling = false;
        // Without leases a key's state is worth nothing once its call is back (no sweep runs).
        if (cap === 0) states.delete(key);
      });
  };

  const sweep = () => {
    const now = performance.now();
    const forgetIdle = ++sweeps % (IDLE_MS / (HOLD_MS / 2)) === 0;
    for (const [key, st] of states) {
      if (st.calling) continue;
      if (st.stock > 0 && now >= st.stockUntil) {
        giveBack(key, st.stock).catch(onError);
        st.stock = 0;
      }
      if (forgetIdle && st.stock === 0 && now - st.lastUsed > IDLE_MS) states.delete(key);
    }
  };
  const timer = cap > 0 ? setInterval(sweep, HOLD_MS / 2).unref() : undefined;

  return {
    take(key: string): Promise<RateDecision> {
      const now = performance.now();
      let st = states.get(key);
      if (!st) {
        st = { stock: 0, stockUntil: 0, waiting: [], calling: false, windowStart: now, seen: 0, rate: 0, lastUsed: now };
        states.set(key, st);
      }
      if (now - st.windowStart >= WINDOW_MS) {
        st.rate = now - st.windowStart < 2 * WINDOW_MS ? st.seen : 0;
        st.seen = 0;
        st.windowStart = now;
      }
      st.seen++;
      st.lastUsed = now;
      if (!st.calling && st.stock > 0) {
        st.stock--;
        return Promise.resolve(ALLOWED);
      }
      const state = st;
      return new Promise((decide) => {
        state.waiting.push(decide);
        if (!state.calling) send(key, state);
      });
    },
    /** Passes held right now, over all keys (tests and metrics). */
    held(): number {
      let n = 0;
      for (const st of states.values()) n += st.stock;
      return n;
    },
    /** Gives every unused pass back and stops the sweep. */
    async close(): Promise<void> {
      if (timer) clearInterval(timer);
      const back: Array<Promise<void>> = [];
      for (const [key, st] of states) if (st.stock > 0) back.push(giveBack(key, st.stock).catch(onError));
      states.clear();
      await Promise.all(back);
    },
  };
}

import { LRUCache } from 'lru-cache';

/**
 * Webhook attempts in flight in this process, per endpoint and per partner: the caps that keep
 * delivery fair. An endpoint has at most `perEndpoint` attempts in flight (one once it is slow:
 * an attempt of its timed out, until one answers in time again); a partner at most `perPartner`
 * over all its endpoints. So a partner whose receivers hang holds at most `perPartner` of the
 * webhook pool's slots, and the rest keep flowing for everyone else.
 */
export interface InFlightLimits {
  perEndpoint: number;
  perPartner: number;
}

/** An attempt's hold on its endpoint's and partner's slots; `release` once its answer (or failure) came. */
export interface AttemptSlot {
  release(outcome: { durationMs: number; timedOut: boolean }): void;
}

/** The wait before a put-back job comes again: at least this, so a busy fast endpoint is retried soon. */
const WAIT_MIN_MS = 20;
/** At most this for an endpoint answering in time: about when one of its slots frees. */
const WAIT_MAX_MS = 1000;
/** At most this for a slow endpoint (it timed out): its backlog costs a put-back every few seconds. */
const SLOW_WAIT_MAX_MS = 5000;
/** At least this when the endpoint has room but its partner has none: the partner's other endpoints free it, not this one. */
const PARTNER_WAIT_MIN_MS = 250;
/** Weight of the newest attempt in an endpoint's running average of attempt durations. */
const DURATION_WEIGHT = 0.2;

export function createInFlightSlots(limits: InFlightLimits) {
  for (const [k, v] of Object.entries(limits)) if (!Number.isInteger(v) || v < 1) throw new Error(`webhook in-flight limits: ${k} must be a positive integer`);
  /** Per endpoint: start times (performance.now()) of its attempts in flight. */
  const endpoints = new Map<string, Set<number>>();
  const partners = new Map<string, number>();
  /** Per endpoint: running average of its attempts' durations, ms; endpoints not tried lately are forgotten. */
  const typicalMs = new LRUCache<string, number>({ max: 10_000 });
  /** Endpoints whose last attempt timed out: one attempt at a time, longer put-backs. */
  const slow = new LRUCache<string, true>({ max: 10_000 });
  /** Who waits for a slot of an endpoint or a partner to free, first come first. */
  const waiters = new Map<string, Set<() => void>>();

  /**
   * Wakes the longest waiter of `key`, if any: one attempt ended, so one new attempt may start.
   * Why not all: a busy endpoint has up to a job pool's worth of batches waiting on it, and waking
   * each at every release made all but one find the slot taken and wait again, a promise and a
   * timer each per delivery: the largest cost of the worker's own code at one endpoint's pace.
   */
  const wakeOne = (key: string): boolean => {
    const first = waiters.get(key)?.values().next().value;
    first?.(); // it takes itself off every key it waits on
    return first !== undefined;
  };
  const capOf = (endpointId: string) => (slow.has(endpointId) ? 1 : limits.perEndpoint);

  return {
    /** A slot for one attempt to `endpoint`, or null when the endpoint or its partner is at its cap. */
    tryAcquire(endpoint: { id: string; partnerId: string }): AttemptSlot | null {
      const mine = endpoints.get(endpoint.id) ?? new Set<number>();
      if (mine.size >= capOf(endpoint.id) || (partners.get(endpoint.partnerId) ?? 0) >= limits.perPartner) return null;
      endpoints.set(endpoint.id, mine);
      partners.set(endpoint.partnerId, (partners.get(endpoint.partnerId) ?? 0) + 1);
      // Unique within the set: two attempts starting in the same tick must not share an entry.
      let startedAt = performance.now();
      while (mine.has(startedAt)) startedAt += 1e-6;
      mine.add(startedAt);
      let released = false;
      return {
        release({ durationMs, timedOut }) {
          if (released) return;
          released = true;
          mine.delete(startedAt);
          if (mine.size === 0) endpoints.delete(endpoint.id);
          const left = (partners.get(endpoint.partnerId) ?? 1) - 1;
          if (left > 0) partners.set(endpoint.partnerId, left);
          else partners.delete(endpoint.partnerId);
          const avg = typicalMs.get(endpoint.id);
          typicalMs.set(endpoint.id, avg === undefined ? durationMs : avg + DURATION_WEIGHT * (durationMs - avg));
          if (timedOut) slow.set(endpoint.id, true);
          else slow.delete(endpoint.id);
          // The endpoint's own waiter takes the partner's freed slot too; else one of the partner's others may.
          if (!wakeOne(`e:${endpoint.id}`)) wakeOne(`p:${endpoint.partnerId}`);
        },
      };
    },
    /** Whether the endpoint has no free slot of its own (its partner's cap aside): known before anything is read. */
    endpointFull: (endpointId: string) => (endpoints.get(endpointId)?.size ?? 0) >= capOf(endpointId),
    /** Whether the endpoint's last attempt timed out (it then gets one attempt at a time). */
    isSlow: (endpointId: string) => slow.has(endpointId),
    /** Attempts in flight to the endpoint and to its partner. */
    inFlight: (endpoint: { id: string; partnerId: string }) => ({ endpoint: endpoints.get(endpoint.id)?.size ?? 0, partner: partners.get(endpoint.partnerId) ?? 0 }),
    /**
     * How long until a slot of the endpoint is likely free: about as long as its attempts take
     * (the recent average, or the age of its oldest in flight if longer), within bounds that are
     * wider for a slow endpoint; longer when its partner, not the endpoint, is at its cap.
     */
    waitMs(endpointId: string, partnerId?: string): number {
      const mine = endpoints.get(endpointId);
      const oldest = Math.min(...(mine ?? []));
      const age = Number.isFinite(oldest) ? performance.now() - oldest : 0;
      const max = slow.has(endpointId) ? SLOW_WAIT_MAX_MS : WAIT_MAX_MS;
      const partnerBound = partnerId !== undefined && (mine?.size ?? 0) < capOf(endpointId) && (partners.get(partnerId) ?? 0) >= limits.perPartner;
      return Math.min(max, Math.max(WAIT_MIN_MS, partnerBound ? PARTNER_WAIT_MIN_MS : 0, typicalMs.get(endpointId) ?? 0, age));
    },
    /**
     * Resolves when an attempt of the endpoint (or of its partner) ends and this is the longest
     * waiter for it, or after `maxMs`. A waiter woken takes the slot or waits again: one release
     * wakes one waiter.
     */
    nextRelease(endpoint: { id: string; partnerId: string }, maxMs: number): Promise<void> {
      return new Promise<void>((resolve) => {
        const keys = [`e:${endpoint.id}`, `p:${endpoint.partnerId}`];
        const done = () => {
          clearTimeout(timer);
          for (const k of keys) {
            const set = waiters.get(k);
            set?.delete(done);
            if (set?.size === 0) waiters.delete(k);
          }
          resolve();
        };
        const timer = setTimeout(done, maxMs);
        for (const k of keys) {
          const set = waiters.get(k) ?? new Set();
          set.add(done);
          waiters.set(k, set);
        }
      });
    },
  };
}

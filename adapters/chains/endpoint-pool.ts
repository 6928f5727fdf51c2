// Several JSON-RPC endpoints of one chain behind one call: reads fail over, broadcasts go to all,
// every attempt is bounded by a timeout, a 429's Retry-After is honoured (seconds or HTTP-date,
// capped), and an endpoint that keeps failing, or hangs once, is skipped for a while (a circuit breaker).
//
// Why our own and not a library's: the service's EVM client is ethers v6 and its Solana client
// web3.js; viem is not a dependency (its `fallback` transport would add a second EVM library
// for this alone, and it reads neither Retry-After nor has a breaker). ethers' FallbackProvider
// reads by quorum and does broadcast to all, but has no Retry-After, no breaker, and its stall
// timeout starts another node without ending the hung request. The ethers (evm/multi-provider.ts)
// and web3.js (solana/multi-fetch.ts) clients both send their JSON-RPC bodies through this pool,
// so the rules are one code for both chains. Freshness (a node behind the head) is judged by the
// caller, which knows its chain: a `stale` verdict moves the read to the next endpoint.
import { retryAfterMs } from './retry-after.ts';

export interface EndpointPoolOptions {
  /** Bound on one HTTP attempt, answer read included (RPC_TIMEOUT_MS). */
  timeoutMs: number;
  /** The longest Retry-After honoured; a longer one is cut to this (RPC_RETRY_AFTER_CAP_MS). */
  retryAfterCapMs: number;
  /** Passes over the endpoints before a read gives up (each pass tries every usable endpoint). */
  passes: number;
  /** Consecutive failures that open an endpoint's breaker (RPC_BREAKER_FAILURES). */
  breakerFailures: number;
  /** How long an open breaker skips its endpoint before one trial request (RPC_BREAKER_COOLDOWN_MS). */
  breakerCooldownMs: number;
  fetch?: typeof fetch;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Each failure, throttle and stale answer, for logs and metrics. */
  onEvent?: (event: EndpointEvent) => void;
}

export type EndpointEvent = { url: string; kind: 'failed' | 'throttled' | 'stale' | 'breaker-open'; detail: string };

/** What the caller makes of an answer: usable, or from a node behind what was already seen. */
export type Verdict = 'ok' | 'stale';

/** No endpoint gave a usable answer: the caller treats the read as unknown, never as "not found". */
export class RpcUnavailableError extends Error {
  override name = 'RpcUnavailableError';
}

interface Endpoint {
  url: string;
  failures: number;
  openUntil: number;
  coolUntil: number;
}

type Attempt = { kind: 'answer'; json: unknown } | { kind: 'throttled'; waitMs: number } | { kind: 'failed'; detail: string };

export const defaultPoolOptions: EndpointPoolOptions = { timeoutMs: 8_000, retryAfterCapMs: 10_000, passes: 2, breakerFailures: 3, breakerCooldownMs: 30_000 };

export class EndpointPool {
  private readonly endpoints: Endpoint[];
  private readonly opts: EndpointPoolOptions;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly fetchFn: typeof fetch;

  constructor(urls: readonly string[], opts: Partial<EndpointPoolOptions> = {}) {
    if (!urls.length) throw new Error('an endpoint pool needs at least one URL');
    this.endpoints = urls.map((url) => ({ url, failures: 0, openUntil: 0, coolUntil: 0 }));
    this.opts = { ...defaultPoolOptions, ...opts };
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.fetchFn = opts.fetch ?? fetch;
  }

  get urls(): string[] {
    return this.endpoints.map((e) => e.url);
  }

  /**
   * One read: the endpoints in order (closed breakers first), each answer judged; the first usable
   * one is returned. Throttled endpoints are waited for (Retry-After, capped) only when no other
   * endpoint can answer. Throws RpcUnavailableError when none could. `opts.timeoutMs` bounds each
   * attempt of this read more tightly than the pool's (a read with a deadline of its own).
   */
  async read(body: unknown, judge: (json: unknown, url: string) => Verdict = () => 'ok', opts: { timeoutMs?: number } = {}): Promise<unknown> {
    const text = JSON.stringify(body);
    let last = 'no endpoint tried';
    for (let pass = 0; pass < this.opts.passes; pass++) {
      let soonest = Infinity;
      for (const ep of this.order()) {
        const wait = ep.coolUntil - this.now();
        if (wait > 0) {
          soonest = Math.min(soonest, wait);
          continue;
        }
        const got = await this.attempt(ep, text, opts.timeoutMs);
        if (got.kind === 'answer') {
          if (judge(got.json, ep.url) === 'ok') return got.json;
          last = `${ep.url} answered from behind the highest head seen`;
          this.emit(ep, 'stale', last);
        } else if (got.kind === 'throttled') {
          soonest = Math.min(soonest, got.waitMs);
          last = `${ep.url} throttled (429)`;
        } else last = got.detail;
      }
      if (pass + 1 < this.opts.passes && soonest !== Infinity) await this.sleep(Math.min(soonest, this.opts.retryAfterCapMs));
    }
    throw new RpcUnavailableError(`no RPC endpoint answered usably (${this.endpoints.length} tried): ${last}`);
  }

  /**
   * A broadcast: sent to every endpoint at once (breakers ignored: one more node that knows the
   * transaction only helps). Answers the first accepted answer; when none accepted, the first
   * endpoint's answer in configured order (its refusal is what the caller classifies).
   */
  async broadcast(body: unknown, accepted: (json: unknown) => boolean): Promise<unknown> {
    const text = JSON.stringify(body);
    const answers: Array<unknown> = new Array(this.endpoints.length).fill(undefined);
    let problems: string[] = [];
    const tries = this.endpoints.map(async (ep, i) => {
      let got = await this.attempt(ep, text);
      // One retry after a throttle that asks for no longer than the cap.
      if (got.kind === 'throttled') {
        await this.sleep(got.waitMs);
        got = await this.attempt(ep, text);
      }
      if (got.kind === 'answer') {
        answers[i] = got.json;
        if (accepted(got.json)) return got.json;
      } else problems = [...problems, got.kind === 'failed' ? got.detail : `${ep.url} throttled (429)`];
      throw new Error('not accepted');
    });
    try {
      return await Promise.any(tries);
    } catch {
      const first = answers.find((a) => a !== undefined);
      if (first !== undefined) return first;
      throw new RpcUnavailableError(`no RPC endpoint took the broadcast: ${problems.join('; ')}`);
    }
  }

  /** Closed (or half-open) breakers in configured order; with every breaker open, the one to close soonest. */
  private order(): Endpoint[] {
    const now = this.now();
    const usable = this.endpoints.filter((e) => e.openUntil <= now);
    if (usable.length) return usable;
    return [...this.endpoints].sort((a, b) => a.openUntil - b.openUntil).slice(0, 1);
  }

  private async attempt(ep: Endpoint, text: string, timeoutMs = this.opts.timeoutMs): Promise<Attempt> {
    try {
      const res = await this.fetchFn(ep.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: text,
        signal: AbortSignal.timeout(Math.min(timeoutMs, this.opts.timeoutMs)),
      });
      if (res.status === 429) {
        const waitMs = retryAfterMs(res.headers.get('retry-after'), this.opts.retryAfterCapMs, this.now());
        ep.coolUntil = this.now() + waitMs;
        await res.body?.cancel().catch(() => {});
        this.emit(ep, 'throttled', `retry after ${waitMs} ms`);
        return { kind: 'throttled', waitMs };
      }
      if (!res.ok) {
        await res.body?.cancel().catch(() => {});
        return this.failed(ep, `${ep.url} answered HTTP ${res.status}`);
      }
      const json = (await res.json()) as unknown;
      ep.failures = 0;
      return { kind: 'answer', json };
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      // Silent for the pool's whole timeout: a hung node, skipped from now on rather than after
      // three more timeouts (each one a job, or a relayer section, held for that long).
      const hung = timedOut && timeoutMs >= this.opts.timeoutMs;
      return this.failed(
        ep,
        timedOut ? `${ep.url} gave no answer within ${Math.min(timeoutMs, this.opts.timeoutMs)} ms` : `${ep.url}: ${err instanceof Error ? err.message : String(err)}`,
        hung,
      );
    }
  }

  private failed(ep: Endpoint, detail: string, hung = false): Attempt {
    ep.failures++;
    this.emit(ep, 'failed', detail);
    if (ep.failures >= this.opts.breakerFailures || hung) {
      ep.openUntil = this.now() + this.opts.breakerCooldownMs;
      // A trial after the cooldown that fails re-opens at once.
      ep.failures = this.opts.breakerFailures - 1;
      this.emit(ep, 'breaker-open', `skipped for ${this.opts.breakerCooldownMs} ms`);
    }
    return { kind: 'failed', detail };
  }

  private emit(ep: Endpoint, kind: EndpointEvent['kind'], detail: string): void {
    this.opts.onEvent?.({ url: ep.url, kind, detail });
  }
}

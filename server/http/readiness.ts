// GET /readyz: whether this process can serve, per dependency. Every check runs in parallel under
// its own timeout, and one report is shared by every request within a short cache period, so a
// flood of probes (or an attacker polling it) costs the dependencies one round of reads per period.
import type { Request, RequestHandler } from 'express';
import type { AccountCheck, ServiceAccountChecks } from '../domain/service-accounts.ts';
import { nodeServesChain, type ChainPort, type NodeHealth } from '../ports/chains.ts';
import type { Clock } from '../ports/clock.ts';
import type { Logger } from '../ports/logger.ts';
import type { QueuePort } from '../ports/queue.ts';
import type { StoragePort } from '../ports/storage/index.ts';

/**
 * One dependency's line. `error` says why it is not ready in words safe to publish: /readyz
 * answers anyone, so never an RPC URL (which may carry a provider's key) or a driver's message;
 * those go to the logs.
 */
export type DependencyCheck = { ok: boolean; error?: string; served?: string };

export type ReadinessCheck = DependencyCheck | AccountCheck;

export interface ReadinessReport {
  /** `unavailable` answers 503: storage is down and nothing can be served. */
  status: 'ready' | 'degraded' | 'unavailable';
  /** Keyed `storage`, `queue`, `rpc <CAIP-2>`, `relayer <CAIP-2>`, `fee-payer <CAIP-2>`. */
  checks: Record<string, ReadinessCheck>;
  /** The keys of `checks` that are not ok, sorted. */
  notReady: string[];
}

export interface Readiness {
  report(): Promise<ReadinessReport>;
}

export interface ReadinessOptions {
  storage: Pick<StoragePort, 'ping'>;
  /** Absent: no queue line (a bare test app). The inline queue answers ok: it is this process. */
  queue?: Pick<QueuePort, 'ping'>;
  /** Their `health` is asked; ports without one add no line. */
  chains?: ChainPort[];
  /** The fee accounts' balances (cached longer by themselves). */
  serviceAccounts?: ServiceAccountChecks;
  clock: Clock;
  /** Where a dependency going down is logged once, with the reason /readyz does not publish. */
  logger?: Logger;
  /** Each check's bound (default 2 s): a hung dependency reads as down, /readyz never hangs. */
  timeoutMs?: number;
  /** How long one report answers every request (default 1.5 s). */
  cacheMs?: number;
}

class TimedOut extends Error {}

function bounded<T>(work: () => Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new TimedOut(`no answer within ${ms} ms`)), ms)));
  return Promise.race([Promise.resolve().then(work), late]).finally(() => clearTimeout(timer));
}

const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** One line per chain node: unreachable, or serving another chain than configured. */
function rpcLine(h: NodeHealth): DependencyCheck {
  if (h.served === null) return { ok: false, error: h.error?.includes('timed out after') ? 'rpc timed out' : 'rpc unreachable' };
  if (!nodeServesChain(h)) return { ok: false, served: h.served, error: `wrong chain: the node serves ${h.served}` };
  return { ok: true, served: h.served };
}

export function createReadiness(opts: ReadinessOptions): Readiness {
  const timeoutMs = opts.timeoutMs ?? 2_000;
  const cacheMs = opts.cacheMs ?? 1_500;
  const chains = (opts.chains ?? []).filter((p) => p.health !== undefined);
  /** What each key was last time, so a dependency going down is logged once, not per probe. */
  const wasOk = new Map<string, boolean>();
  let last: { at: number; report: Promise<ReadinessReport> } | undefined;

  /** A line, and the reason behind a failed one: logged, never published. */
  type Line = { key: string; check: DependencyCheck; reason?: string };
  const ping = (key: 'storage' | 'queue', work: () => Promise<void>): Promise<Line> =>
    bounded(work, timeoutMs).then(
      () => ({ key, check: { ok: true } }),
      (err) => ({ key, check: { ok: false, error: `${key} ${err instanceof TimedOut ? 'timed out' : 'unreachable'}` }, reason: reasonOf(err) }),
    );
  /** A port whose health cannot answer at all still names the chains it serves: learnt from its last answer. */
  const knownChains = new Map<ChainPort, string[]>();
  const chainLines = async (port: ChainPort): Promise<Line[]> => {
    try {
      // The adapter bounds each node by the check's timeout; the margin only catches an adapter that does not.
      const nodes = await bounded(() => port.health!({ timeoutMs }), timeoutMs + 500);
      knownChains.set(
        port,
        nodes.map((n) => n.chain),
      );
      return nodes.map((n) => ({ key: `rpc ${n.chain}`, check: rpcLine(n), ...(n.error ? { reason: n.error } : {}) }));
    } catch (err) {
      const error = err instanceof TimedOut ? 'rpc timed out' : 'rpc unreachable';
      return (knownChains.get(port) ?? [port.namespace]).map((chain) => ({ key: `rpc ${chain}`, check: { ok: false, error }, reason: reasonOf(err) }));
    }
  };

  /** Logs a dependency going down once, with the reason /readyz does not publish (fee accounts warn by themselves). */
  function note({ key, check, reason }: Line) {
    const before = wasOk.get(key);
    wasOk.set(key, check.ok);
    if (check.ok || before === false) return;
    opts.logger?.warn({ dependency: key, error: check.error, reason }, 'readiness: a dependency is not ready');
  }

  async function measure(): Promise<ReadinessReport> {
    const [lines, accounts] = await Promise.all([
      Promise.all([ping('storage', () => opts.storage.ping()), ...(opts.queue ? [ping('queue', () => opts.queue!.ping())] : []), ...chains.map(chainLines)]).then((l) => l.flat()),
      opts.serviceAccounts ? opts.serviceAccounts.checks() : {},
    ]);
    const checks: Record<string, ReadinessCheck> = {};
    for (const line of lines) {
      checks[line.key] = line.check;
      note(line);
    }
    Object.assign(checks, accounts);
    const notReady = Object.keys(checks)
      .filter((k) => !checks[k]!.ok)
      .sort();
    // Only storage takes the process out of its load balancer. Every other dependency failing
    // leaves creates, reads, pages and direct transfers working (jobs wait in the outbox, a chain's
    // payments wait for its node), and all processes share it, so 503 would only turn a partial
    // outage into a total one: those answer 200 "degraded", naming what is not ready.
    const status = !checks.storage!.ok ? 'unavailable' : notReady.length ? 'degraded' : 'ready';
    return { status, checks, notReady };
  }

  return {
    report() {
      const now = opts.clock.now();
      if (!last || now - last.at >= cacheMs) {
        const current = { at: now, report: measure() };
        // A round that failed outright (not a dependency down: a bug) is not served from the cache.
        current.report.catch(() => {
          if (last === current) last = undefined;
        });
        last = current;
      }
      return last.report;
    },
  };
}

/**
 * What a caller without the operator's token sees of a line: whether it is ok and why not, never a
 * fee account's address, balance or minimum (they told anyone which addresses to watch and when
 * the service runs dry, issue 30 item 7): "relayer eip155:8453": { ok: false, error: "balance low" }.
 */
export function publicCheck(check: ReadinessCheck): DependencyCheck {
  if (!('account' in check)) return check;
  if (check.ok) return { ok: true };
  return { ok: false, error: 'error' in check ? check.error : 'balance low' };
}

/**
 * The route: 503 in the error shape when storage is down, else 200 `ready` or `degraded`. Fee
 * accounts' details only to callers `reveal` lets see them (the operator's token, or sandbox).
 */
export function readinessHandler(readiness: Readiness, reveal: (req: Request) => boolean = () => true): RequestHandler {
  return (req, res, next) => {
    readiness.report().then((full) => {
      const r = reveal(req) ? full : { ...full, checks: Object.fromEntries(Object.entries(full.checks).map(([k, c]) => [k, publicCheck(c)])) };
      res.set('Cache-Control', 'no-store');
      if (r.status === 'unavailable')
        return void res.status(503).json({ message: 'Storage is not reachable', code: 'service_unavailable', checks: r.checks, not_ready: r.notReady });
      res.json({ status: r.status, checks: r.checks, not_ready: r.notReady });
    }, next);
  };
}

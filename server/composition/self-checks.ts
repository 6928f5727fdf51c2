import type { Logger } from 'pino';
import type { AssetInfo } from '../domain/assets.ts';
import type { ChainPort, SelfCheck } from '../ports/chains.ts';

/** How often checks that could not be read are asked again, until each has an answer. */
const RETRY_MS = 60_000;
const TIMEOUT_MS = 10_000;

/**
 * The chains' self-checks at start (API and worker processes alike), in the background: a start
 * never waits on a node, and an unreachable one blocks nothing. Each disagreement is logged as an
 * error naming what is no longer offered (the adapter refuses it from then on; it would also check
 * before the asset's first option); an endpoint behind (it refuses nothing) or a check that could
 * not be read is a warning, and what could not be read is asked again every minute until it has an answer.
 * Decided: a wrong token or Permit2 setting refuses that asset or flow rather than the start, in
 * production too: the other chains and assets keep being paid, and the log and `npm run doctor` say why.
 */
export function startSelfChecks(ports: ChainPort[], assets: AssetInfo[], logger: Logger, opts: { retryMs?: number; timeoutMs?: number } = {}): { stop(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const reported = new Set<string>();
  const run = async (pending: ChainPort[]) => {
    const answers = await Promise.all(pending.map((p) => p.selfCheck!(assets, { timeoutMs: opts.timeoutMs ?? TIMEOUT_MS }).catch(() => [] as SelfCheck[])));
    if (stopped) return;
    const again: ChainPort[] = [];
    answers.forEach((checks, i) => {
      if (checks.some((c) => c.outcome === 'unknown')) again.push(pending[i]!);
      for (const c of checks) log(c);
    });
    if (again.length) {
      timer = setTimeout(() => void run(again), opts.retryMs ?? RETRY_MS);
      timer.unref();
    }
  };
  const log = (c: SelfCheck) => {
    const key = `${c.chain} ${c.subject} ${c.outcome}`;
    // A failure is told once per process; unreadable checks each time they are tried.
    if (c.outcome !== 'unknown' && reported.has(key)) return;
    reported.add(key);
    const fields = { chain: c.chain, check: c.subject, outcome: c.outcome, detail: c.detail };
    // An endpoint behind refuses nothing (the pool reads elsewhere): a warning, not an error.
    if (c.outcome === 'fail' && c.refuses) logger.error(fields, `self-check failed: ${c.chain} ${c.subject}: ${c.detail}`);
    else if (c.outcome === 'fail') logger.warn(fields, `self-check failed: ${c.chain} ${c.subject}: ${c.detail}`);
    else if (c.outcome === 'unknown') logger.warn(fields, `self-check could not run: ${c.chain} ${c.subject} (asked again in ${(opts.retryMs ?? RETRY_MS) / 1000} s)`);
    else logger.info(fields, `self-check passed: ${c.chain} ${c.subject}`);
  };
  void run(ports.filter((p) => p.selfCheck !== undefined));
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

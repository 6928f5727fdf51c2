// Each RPC endpoint's head against the chain's freshness bound (the self-checks at start and in
// `npm run doctor`): a node whose latest block is old has stopped following the chain, one far
// behind the others of the same chain answers as of the past. The endpoint pool already moves a
// read away from a node behind; this says so to the operator before the first payment.
import type { SelfCheck } from '../../server/ports/chains.ts';

/** How stale a head may be: its latest block's age (null: not checked) and its lag behind the freshest endpoint. */
export interface HeadFreshnessBound {
  maxAgeMs: number | null;
  maxLagBlocks: number;
}

/** Used when a chain is configured without a bound: no age (it may mine on demand), 10 blocks of lag. */
export const DEFAULT_HEAD_FRESHNESS: HeadFreshnessBound = { maxAgeMs: null, maxLagBlocks: 10 };

/** One endpoint's head, or why it could not be read. */
export interface EndpointHead {
  /** What the operator recognises it by: its position and origin (never its path, where API keys sit). */
  endpoint: string;
  /** Block number (Solana: slot); null when unreadable. */
  head: number | null;
  /** Unix ms of that block, when read. */
  timeMs?: number;
  error?: string;
}

/** `endpoint 2 of 3 (https://host)`: a URL's origin only. */
export function endpointLabel(url: string, index: number, count: number): string {
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    origin = 'unparsable URL';
  }
  return count === 1 ? origin : `${origin} #${index + 1}`;
}

/** One JSON-RPC call to one URL, bounded: the pool is bypassed on purpose, each endpoint is asked itself. */
export async function rpcCall(url: string, method: string, params: unknown[], timeoutMs: number): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    throw new Error(`HTTP ${res.status}`);
  }
  const answer = (await res.json()) as { result?: unknown; error?: { message?: string } };
  if (answer.error || !('result' in answer)) throw new Error(answer.error?.message ?? 'no result');
  return answer.result;
}

export const errorText = (err: unknown): string => {
  const text = err instanceof Error ? (err.name === 'TimeoutError' ? 'no answer in time' : err.message) : String(err);
  return text.split('\n')[0]!.slice(0, 160);
};

/** The verdict on each endpoint's head: unreadable (unknown), older than the bound, or too far behind the freshest. */
export function judgeHeads(chain: string, heads: EndpointHead[], bound: HeadFreshnessBound, nowMs: number, unit = 'blocks'): SelfCheck[] {
  const best = Math.max(-1, ...heads.map((h) => h.head ?? -1));
  return heads.map((h): SelfCheck => {
    const subject = `head ${h.endpoint}`;
    if (h.head === null) return { chain, subject, outcome: 'unknown', detail: `could not be read: ${h.error ?? 'no answer'}`, refuses: false };
    const age = h.timeMs === undefined ? null : Math.max(0, nowMs - h.timeMs);
    const ageText = age === null ? '' : `, ${Math.round(age / 1000)} s old`;
    const lag = best - h.head;
    if (bound.maxAgeMs !== null && age !== null && age > bound.maxAgeMs)
      return {
        chain,
        subject,
        outcome: 'fail',
        detail: `head ${h.head}${ageText}, older than ${bound.maxAgeMs / 1000} s: the node has stopped following the chain`,
        refuses: false,
      };
    if (lag > bound.maxLagBlocks)
      return {
        chain,
        subject,
        outcome: 'fail',
        detail: `head ${h.head}, ${lag} ${unit} behind another endpoint of the chain (bound ${bound.maxLagBlocks}): it answers as of the past`,
        refuses: false,
      };
    return { chain, subject, outcome: 'pass', detail: `head ${h.head}${ageText}${lag ? `, ${lag} ${unit} behind the freshest` : ''}`, refuses: false };
  });
}

/** `work`, failed with "no answer in time" after `ms`: no self-check may hang a start or the doctor. */
export function bounded<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

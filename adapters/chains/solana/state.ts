// The Solana adapter's stored state, checked where it comes back in: quote state and submissions
// are JSON read from the database, so a damaged or foreign row answers a typed refusal, never a crash.
import type { SplQuoteState, SplSubmission, WalletBuild } from '../../../server/ports/chain-state-solana.ts';

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isHeight = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** Reads a stored SPL quote state (prepared, or prepared then fetched). */
export function parseSplQuoteState(raw: unknown): Parsed<SplQuoteState> {
  if (!isObject(raw) || raw.flow !== 'spl') return { ok: false, problem: `the stored quote state is not a Solana flow (${isObject(raw) ? String(raw.flow) : typeof raw})` };
  const { mint, decimals, destinationOwner, amount, messageBase64, signature, lastValidBlockHeight, walletBuilds } = raw;
  if (typeof mint !== 'string' || typeof destinationOwner !== 'string' || typeof amount !== 'string' || !/^[0-9]+$/.test(amount))
    return { ok: false, problem: 'the stored spl quote state is malformed' };
  if (typeof decimals !== 'number' || !Number.isInteger(decimals)) return { ok: false, problem: 'the stored spl quote state is malformed' };
  const builds = parseWalletBuilds(walletBuilds);
  if (builds === null) return { ok: false, problem: 'the stored Solana Pay builds are malformed' };
  const state: SplQuoteState = { flow: 'spl', mint, decimals, destinationOwner, amount, ...(builds.length ? { walletBuilds: builds } : {}) };
  if (messageBase64 === undefined && lastValidBlockHeight === undefined) return { ok: true, value: state };
  // A fetched state carries message and height (and, built before the fee payer signed last, a signature).
  if (typeof messageBase64 !== 'string' || !isHeight(lastValidBlockHeight) || (signature !== undefined && typeof signature !== 'string'))
    return { ok: false, problem: 'the stored spl build is malformed' };
  return { ok: true, value: { ...state, messageBase64, ...(typeof signature === 'string' ? { signature } : {}), lastValidBlockHeight } };
}

/** The Solana Pay builds of a quote state ([] when none), or null when they are not builds. */
function parseWalletBuilds(raw: unknown): WalletBuild[] | null {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) return null;
  const builds: WalletBuild[] = [];
  for (const b of raw) {
    if (!isObject(b) || typeof b.messageBase64 !== 'string' || !isHeight(b.lastValidBlockHeight)) return null;
    builds.push({ messageBase64: b.messageBase64, lastValidBlockHeight: b.lastValidBlockHeight });
  }
  return builds;
}

/** Reads a submission handed to the job. */
export function parseSplSubmission(raw: unknown): Parsed<SplSubmission> {
  if (!isObject(raw) || raw.flow !== 'spl') return { ok: false, problem: 'the submission is not a Solana flow' };
  const { transaction, signature, lastValidBlockHeight } = raw;
  if (typeof transaction !== 'string' || typeof signature !== 'string' || !isHeight(lastValidBlockHeight)) return { ok: false, problem: 'the spl submission is malformed' };
  return { ok: true, value: { flow: 'spl', transaction, signature, lastValidBlockHeight } };
}

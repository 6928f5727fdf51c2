// The EVM adapter's stored state, checked where it comes back in. Quote state and submissions are
// JSON read from the database (and job payloads): a row written by an older version, or damaged,
// must answer a typed refusal, never a crash deep inside a signature check.
import type { Eip712TypedData, EvmQuoteState, EvmSubmission } from '../../../server/ports/chain-state-eip155.ts';

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const fail = (problem: string): { ok: false; problem: string } => ({ ok: false, problem });

function typedDataOf(v: unknown): Eip712TypedData | null {
  if (!isObject(v) || typeof v.primaryType !== 'string' || !isObject(v.domain) || !isObject(v.message) || !isObject(v.types)) return null;
  const types: Eip712TypedData['types'] = {};
  for (const [name, fields] of Object.entries(v.types)) {
    if (!Array.isArray(fields)) return null;
    const checked = fields.map((f: unknown) => (isObject(f) && typeof f.name === 'string' && typeof f.type === 'string' ? { name: f.name, type: f.type } : null));
    if (checked.some((f) => f === null)) return null;
    types[name] = checked.filter((f) => f !== null);
  }
  const d = v.domain;
  const domain: Eip712TypedData['domain'] = {};
  if (d.name !== undefined) {
    if (typeof d.name !== 'string') return null;
    domain.name = d.name;
  }
  if (d.version !== undefined) {
    if (typeof d.version !== 'string') return null;
    domain.version = d.version;
  }
  if (d.chainId !== undefined) {
    if (typeof d.chainId !== 'string' && typeof d.chainId !== 'number') return null;
    domain.chainId = d.chainId;
  }
  if (d.verifyingContract !== undefined) {
    if (typeof d.verifyingContract !== 'string') return null;
    domain.verifyingContract = d.verifyingContract;
  }
  return { types, primaryType: v.primaryType, domain, message: v.message };
}

/** The quote block when present and sane; absent is allowed (older quotes), anything else is not. */
function quoteBlockOf(v: Record<string, unknown>): { quoteBlock?: number } | null {
  if (v.quoteBlock === undefined) return {};
  return typeof v.quoteBlock === 'number' && Number.isSafeInteger(v.quoteBlock) && v.quoteBlock >= 0 ? { quoteBlock: v.quoteBlock } : null;
}

/** Reads a stored EVM quote state, one parser per flow. */
export function parseEvmQuoteState(raw: unknown): Parsed<EvmQuoteState> {
  if (!isObject(raw)) return fail('the stored quote state is not an object');
  if (raw.flow === 'transfer') return { ok: true, value: { flow: 'transfer' } };
  if (raw.flow !== 'eip3009' && raw.flow !== 'permit2') return fail(`the stored quote state has an unknown EVM flow (${String(raw.flow)})`);
  const typedData = typedDataOf(raw.typedData);
  const block = quoteBlockOf(raw);
  if (!typedData || !block) return fail(`the stored ${raw.flow} quote state is malformed`);
  if (raw.flow === 'eip3009') return { ok: true, value: { flow: 'eip3009', typedData, ...block } };
  if (typeof raw.approve !== 'boolean' || (raw.resetApproval !== undefined && typeof raw.resetApproval !== 'boolean')) return fail('the stored permit2 quote state is malformed');
  return { ok: true, value: { flow: 'permit2', typedData, approve: raw.approve, ...(raw.resetApproval === true ? { resetApproval: true } : {}), ...block } };
}

/** Reads a submission handed to the job, one parser per flow. */
export function parseEvmSubmission(raw: unknown): Parsed<EvmSubmission> {
  if (!isObject(raw)) return fail('the submission is not an object');
  if (raw.flow === 'transfer') return { ok: true, value: { flow: 'transfer' } };
  if (raw.flow !== 'eip3009' && raw.flow !== 'permit2') return fail(`the submission has an unknown EVM flow (${String(raw.flow)})`);
  const typedData = typedDataOf(raw.typedData);
  const block = quoteBlockOf(raw);
  if (!typedData || !block || typeof raw.signature !== 'string') return fail(`the ${raw.flow} submission is malformed`);
  if (raw.flow === 'eip3009') return { ok: true, value: { flow: 'eip3009', typedData, signature: raw.signature, ...block } };
  const approvals = raw.approvals;
  if (approvals !== undefined && (!Array.isArray(approvals) || approvals.some((a) => typeof a !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(a))))
    return fail('the permit2 submission is malformed');
  return { ok: true, value: { flow: 'permit2', typedData, signature: raw.signature, ...(approvals?.length ? { approvals: approvals as string[] } : {}), ...block } };
}

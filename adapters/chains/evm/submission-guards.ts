// What is checked before the relayer spends anything on a submission: that a transaction sent now
// can still mine before the buyer's authorization lapses, that the buyer's account runs no code
// in the signature check at the relayer's expense, and that a first-time Permit2 payer's approval
// is mined (geth-family nodes estimate against the latest block, where a pending one is not yet).
import type { Provider } from 'ethers';
import type { RelayerSubmission, TransferState } from '../../../server/ports/chains.ts';
import { mayStillMine } from './gas-policy.ts';
import { awaitApprovals } from './permit2-approval.ts';
import { messageUint } from './typed-data.ts';

/** When the buyer's authorization lapses: EIP-3009 `validBefore`, Permit2 `deadline` (Unix seconds). */
export function authorizationDeadline(sub: RelayerSubmission): bigint {
  return messageUint(sub.typedData.message, sub.flow === 'eip3009' ? 'validBefore' : 'deadline');
}

/** Where the buyer's authorization of an option lapses, Unix seconds: the quote deadline and the chain's heal window past it. */
export const authorizationEnd = (c: { healWindowMs?: number }, req: { deadline: Date }): bigint => BigInt(Math.floor((req.deadline.getTime() + (c.healWindowMs ?? 0)) / 1000));

/** The blocks a relayer submission's signature can be used in end at its authorization's end, past the quote deadline by the heal window. */
export const authorizationDeadlineOf = (req: { deadline: Date }, sub: RelayerSubmission): Date =>
  new Date(Math.max(req.deadline.getTime(), Number(authorizationDeadline(sub)) * 1000));

/**
 * `send` while a transaction sent now can still mine before the authorization lapses (with a
 * margin of blocks); `wait` within the margin (a transaction already out, or the buyer's own, may
 * still land); `lapsed` once the deadline is past by the margin: nothing can pay with it any more.
 * `sooner` (the quote deadline, for a first transaction) replaces the authorization's when earlier.
 */
export function deadlineState(sub: RelayerSubmission, nowMs: number, blockTimeMs: number, sooner?: Date): 'send' | 'wait' | 'lapsed' {
  const own = authorizationDeadline(sub);
  const deadline = sooner && BigInt(Math.floor(sooner.getTime() / 1000)) < own ? BigInt(Math.floor(sooner.getTime() / 1000)) : own;
  if (mayStillMine(deadline, nowMs, blockTimeMs)) return 'send';
  return mayStillMine(deadline, nowMs - 2 * Math.max(3 * blockTimeMs, 5_000), blockTimeMs) ? 'wait' : 'lapsed';
}

/**
 * Null when the relayer may submit now. A buyer account with code (a contract, or an EOA with an
 * EIP-7702 delegation `0xef0100…`) runs it when the token or Permit2 checks its signature, at the
 * relayer's expense: it pays its own gas (the direct transfer), never through the relayer; checked
 * at options and here again. An approval still unmined is waited for; one that reverted fails.
 */
export async function submissionBlocked(provider: Provider, sub: RelayerSubmission, check: { token: string; from: string; minValue: bigint }): Promise<TransferState | null> {
  try {
    if ((await provider.getCode(check.from)) !== '0x')
      return { state: 'failed', reason: 'the buyer account has code (a contract or an EIP-7702 delegation): it pays its own gas, by direct transfer' };
    if (sub.flow !== 'permit2' || !sub.approvals?.length) return null;
    const permit2 = String(sub.typedData.domain.verifyingContract);
    const wait = await awaitApprovals(provider, { token: check.token, owner: check.from, permit2, amount: check.minValue, approvals: sub.approvals });
    if ('failed' in wait) return { state: 'failed', reason: wait.failed };
    return wait.ready ? null : { state: 'pending', reason: wait.reason };
  } catch {
    return { state: 'pending', reason: 'rpc error' };
  }
}

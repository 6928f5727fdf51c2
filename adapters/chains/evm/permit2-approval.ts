// A first-time Permit2 payer approves Permit2 on the token before signing. Confirm checks that each
// approval hash is what the option asked (from the buyer, to the token, approve(Permit2, …) with
// the amount covered, or 0 for a USDT-style reset); the first submission waits until they are
// mined, because geth-family nodes estimate against the latest block: while the approval is
// pending the relayer's estimate reverts, and that revert means "not yet", never "released".
import { MaxUint256, type Provider } from 'ethers';
import { checksummed } from './address.ts';
import { buildApproveTransaction, readErc20Allowance } from './permit2.ts';
import { erc20Interface, type EthSendTransactionParams } from './transfer.ts';

/**
 * The approvals a buyer with `allowance` must send before signing for `amount`: none when it
 * covers it; else approve(Permit2, max), preceded by approve(Permit2, 0) when the token refuses to
 * change a non-zero allowance (`approveFromZero`, USDT) and one is left over.
 */
export function approvalsNeeded(input: { token: string; permit2: string; owner: string; allowance: bigint; amount: bigint; approveFromZero: boolean }): EthSendTransactionParams[] {
  if (input.allowance >= input.amount) return [];
  const approve = (amount: bigint) => buildApproveTransaction({ token: input.token, spender: input.permit2, amount, from: input.owner });
  return [...(input.approveFromZero && input.allowance > 0n ? [approve(0n)] : []), approve(MaxUint256)];
}

/** What one approval hash must be: the reset to 0, or an approval covering at least `min`. */
export type ApprovalExpectation = { owner: string; token: string; spender: string } & ({ reset: true } | { reset: false; min: bigint });

/**
 * Why the transaction `hash` is not the approval expected (null when it is, or when the node does
 * not know it yet: the job then waits for it, and an approval that never lands leaves the
 * allowance short, which the chain refuses).
 */
export async function approvalProblem(provider: Provider, hash: string, expected: ApprovalExpectation): Promise<string | null> {
  const tx = await provider.getTransaction(hash);
  if (!tx) return null;
  if (checksummed(tx.from) !== checksummed(expected.owner)) return 'the approval was sent by another account';
  if (!tx.to || checksummed(tx.to) !== checksummed(expected.token)) return 'the approval is not a call to the token';
  let args: readonly unknown[];
  try {
    const parsed = erc20Interface.parseTransaction({ data: tx.data });
    if (parsed?.name !== 'approve') return 'the transaction is not an approve call';
    args = parsed.args;
  } catch {
    return 'the transaction is not an approve call';
  }
  if (checksummed(String(args[0])) !== checksummed(expected.spender)) return 'the approval names another spender than Permit2';
  const value = args[1] as bigint;
  if (expected.reset) return value === 0n ? null : 'the first approval must set the allowance to 0';
  return value >= expected.min ? null : 'the approval is for less than the amount';
}

export type ApprovalWait = { ready: true } | { ready: false; reason: string } | { failed: string };

/**
 * Whether the permit can be submitted now: the owner's allowance to Permit2 at the latest block
 * covers the amount, or no approval is still on its way (then the chain decides). An approval the
 * node holds unmined, or does not know yet, is waited for; one that reverted fails the attempt.
 */
export async function awaitApprovals(provider: Provider, input: { token: string; owner: string; permit2: string; amount: bigint; approvals: string[] }): Promise<ApprovalWait> {
  if ((await readErc20Allowance(provider, input.token, input.owner, input.permit2)) >= input.amount) return { ready: true };
  for (const hash of input.approvals) {
    const receipt = await provider.getTransactionReceipt(hash);
    if (receipt && receipt.status !== 1) return { failed: `the buyer's approval ${hash} reverted` };
    if (!receipt) return { ready: false, reason: `waiting for the buyer's approval ${hash} to be mined` };
  }
  return { ready: true };
}

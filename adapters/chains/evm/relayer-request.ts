// The relayer's transaction for a buyer's signed submission: what it must be to pay this
// payment's destination as the buyer signed it, and the call that carries it (EIP-3009's
// transferWithAuthorization; for Permit2 the spender contract's pay, or permitWitnessTransferFrom
// from the relayer key a permit names), before nonce, gas and fees.
import { Contract, Signature, type TransactionRequest, type Wallet } from 'ethers';
import type { RelayerSubmission } from '../../../server/ports/chains.ts';
import { checksummed } from './address.ts';
import { EIP3009_ABI } from './abis.ts';
import { permitWitnessTransferRequest, witnessDestination } from './permit2-witness.ts';
import { namesSpenderContract, spenderPayCall } from './permit2-spender.ts';
import { messageAddress, messageUint } from './typed-data.ts';

/** What the payment needs to see on chain: `minValue` of `token` moved from `from` to `to`. */
export type PaymentCheck = { token: string; from: string; to: string; minValue: bigint };

/** Why this submission cannot pay `check` as signed (null when it can): checked before any gas is spent. */
export function submissionProblem(sub: RelayerSubmission, check: PaymentCheck): string | null {
  try {
    const m = sub.typedData.message;
    if (sub.flow === 'eip3009') {
      if (checksummed(String(sub.typedData.domain.verifyingContract)) !== checksummed(check.token)) return 'the authorization is for another token';
      if (messageAddress(m, 'from') !== checksummed(check.from) || messageAddress(m, 'to') !== checksummed(check.to)) return 'the authorization names another payer or destination';
      return messageUint(m, 'value') < check.minValue ? 'the authorization is for less than the amount' : null;
    }
    // A permit quoted before the witness existed: the destination was not signed, so it is not sent.
    if (sub.typedData.primaryType !== 'PermitWitnessTransferFrom') return 'the permit does not name the destination; sign the new options';
    const permitted = m.permitted as Record<string, unknown>;
    if (messageAddress(permitted, 'token') !== checksummed(check.token)) return 'the permit is for another token';
    if (witnessDestination(sub.typedData) !== checksummed(check.to)) return 'the permit names another destination';
    // The spender contract pays the whole signed amount: a permit for more would pay more than asked.
    if (namesSpenderContract(sub.typedData) && messageUint(permitted, 'amount') !== check.minValue) return 'the permit is not for the amount';
    return messageUint(permitted, 'amount') < check.minValue ? 'the permit is for less than the amount' : null;
  } catch (err) {
    return `the submission is malformed: ${(err as Error).message}`;
  }
}

/** The relayer's transaction for a submission, not yet populated (nonce, gas) nor signed. */
export async function relayerRequest(relayer: Wallet, sub: RelayerSubmission, check: PaymentCheck): Promise<TransactionRequest> {
  if (sub.flow === 'permit2' && namesSpenderContract(sub.typedData)) {
    const call = spenderPayCall(sub.typedData, sub.signature, check.from);
    return { to: call.target, data: call.callData };
  }
  if (sub.flow === 'permit2') return permitWitnessTransferRequest(relayer, sub.typedData, sub.signature, { owner: check.from, requestedAmount: check.minValue });
  const m = sub.typedData.message;
  const args = [messageAddress(m, 'from'), messageAddress(m, 'to'), messageUint(m, 'value'), messageUint(m, 'validAfter'), messageUint(m, 'validBefore'), String(m.nonce)] as const;
  const token = new Contract(checksummed(check.token), EIP3009_ABI, relayer);
  // 65 bytes: the (v, r, s) overload every FiatToken has; longer (ERC-1271 wallets): V2.2's bytes one.
  if ((sub.signature.length - 2) / 2 === 65) {
    const s = Signature.from(sub.signature);
    return token.getFunction('transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)').populateTransaction(...args, s.v, s.r, s.s);
  }
  return token.getFunction('transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)').populateTransaction(...args, sub.signature);
}

// The direct-transfer flow of the EVM gateway adapter: the wallet broadcasts a tagged ERC-20
// `transfer` itself and confirms with its hash; the service checks the hash against the option
// and follows it until it pays the merchant or shows it cannot. Kept apart from the relayer
// flows (EIP-3009, Permit2), which share nothing with it but the chain.
import type { Provider } from 'ethers';
import type { OptionRequest, PreparedOption, TransferState, VerifyOutcome } from '../../../server/ports/chains.ts';
import { systemClock, type Clock } from '../../../server/ports/clock.ts';
import { checksummed } from './address.ts';
import { transferReference } from './transfer-reference.ts';
import { buildTransferTransaction, minedAfterQuote, signedFieldsProblem, verifyTransferTransaction, type TransferCheck } from './transfer.ts';
import { sendTransactionParams } from './wallet-rpc.ts';

/**
 * How long past the quote's deadline a hash the node has never seen is still waited for. The
 * wallet confirms after broadcasting, before the deadline; an honest transaction reaches the
 * node's pool within seconds, so five minutes covers slow propagation and a node restart. Past
 * it the payment is released: a made-up hash, or one never broadcast, cannot pin it.
 */
export const NEVER_SEEN_GRACE_MS = 5 * 60_000;

/** What the flow needs of its chain. `clock` is the service's time (default the system's). */
export interface DirectTransferChain {
  caip2: string;
  provider: Provider;
  confirmations: number;
  clock?: Clock;
}

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const addressOf = (caip10: string) => checksummed(caip10.split(':')[2]!);

/** What a transaction must satisfy to pay this option. */
export function directTransferCheck(req: OptionRequest, confirmations: number): TransferCheck {
  return {
    token: checksummed(req.asset.parsed.assetReference),
    from: addressOf(req.account),
    to: addressOf(req.destination),
    minValue: req.amount,
    confirmations,
    reference: transferReference(req.paymentId, req.optionId),
    quotedAt: req.quotedAt,
  };
}

/** The option's one action: `eth_sendTransaction` of `transfer(destination, amount)` + the tag. */
export function prepareDirectTransfer(chain: DirectTransferChain, req: OptionRequest): Omit<PreparedOption, 'etaS'> {
  const check = directTransferCheck(req, chain.confirmations);
  const tx = buildTransferTransaction({ token: check.token, from: check.from, to: check.to, value: check.minValue, reference: check.reference });
  return { state: { flow: 'transfer' }, actions: [{ type: 'walletRpc', data: { chain_id: chain.caip2, method: 'eth_sendTransaction', params: sendTransactionParams(tx) } }] };
}

/**
 * Confirm's check of the hash. What the node already knows and can never change is checked now
 * (sender, tag, and a block older than the quote), so a hash that cannot pay this option is
 * refused before it is recorded against the payment: an attacker confirming someone else's
 * transfer for his own payment gets a 400 and the hash stays free for its own payment. A hash
 * the node does not know yet (still propagating), or an RPC error, is accepted and checked by
 * the job.
 */
export async function checkDirectTransferResult(chain: DirectTransferChain, req: OptionRequest, txHash: string): Promise<VerifyOutcome> {
  if (!TX_HASH.test(txHash)) return { ok: false, code: 'invalid_results', message: 'the result of eth_sendTransaction must be a transaction hash' };
  const check = directTransferCheck(req, chain.confirmations);
  const refuse = (why: string): VerifyOutcome => ({ ok: false, code: 'invalid_results', message: `this transaction cannot pay this option: ${why}` });
  try {
    const tx = await chain.provider.getTransaction(txHash);
    if (tx) {
      const problem = signedFieldsProblem(tx, check);
      if (problem) return refuse(problem);
      const block = tx.blockHash ? await chain.provider.getBlock(tx.blockHash) : null;
      if (block && !minedAfterQuote(block.timestamp, check.quotedAt)) return refuse('mined before the quote');
    }
  } catch {
    // The node cannot tell now; the job asks again.
  }
  return { ok: true, submission: { flow: 'transfer' }, txId: txHash.toLowerCase() };
}

/**
 * One step of following the hash. Confirmed once deep enough and every check passes; failed
 * (the job releases the payment) when it is known and cannot pay this option, or when the node
 * has still never seen it NEVER_SEEN_GRACE_MS after the quote's deadline. Pending otherwise: a
 * transaction in the pool or not yet deep enough may still pay, and an RPC error proves nothing.
 */
export async function advanceDirectTransfer(chain: DirectTransferChain, req: OptionRequest, txId: string | null): Promise<TransferState> {
  const givenUp = (chain.clock ?? systemClock).now() >= req.deadline.getTime() + NEVER_SEEN_GRACE_MS;
  if (!txId) return givenUp ? { state: 'failed', reason: 'no transaction hash' } : { state: 'pending', reason: 'no transaction hash' };
  const v = await verifyTransferTransaction(chain.provider, txId, directTransferCheck(req, chain.confirmations));
  if (v.status === 'confirmed') return { state: 'confirmed', txId };
  if (v.status === 'invalid') return { state: 'failed', reason: v.reason, txId };
  if (v.reason === 'not_found' && givenUp) return { state: 'failed', reason: 'the node never saw the transaction', txId };
  return { state: 'pending', reason: v.reason, txId };
}

// Long because: the relayer flow's one state machine (sign, record, broadcast, follow, replace, heal) reads as one piece; its guards and requests live in their own modules.
// The relayer flows (EIP-3009 and Permit2 with witness): the buyer signed, the service's relayer
// sends the transaction and pays the gas. A payment is paid only by the transaction the relayer
// itself signed for it, recorded (hash and bytes) before it is broadcast, and only once that
// transaction's receipt, confirmations deep, shows the token moving at least the amount from the
// buyer to the destination. A nonce found used proves nothing: the buyer can burn his own. But a
// used authorization is never answered `failed` before the blocks it could have been used in are
// searched (scan.ts): a front-runner submitting the buyer's authorization pays the merchant too.
import { Transaction, keccak256, resolveAddress, type FeeData, type Provider, type TransactionReceipt, type Wallet } from 'ethers';
import { readAuthorizationState } from './eip3009.ts';
import { isPermit2NonceUsed } from './permit2.ts';
import { relayerRequest, submissionProblem, type PaymentCheck } from './relayer-request.ts';
import { endpointAheadOfSeen } from './endpoint-heads.ts';
import { classifySubmitError, getConfirmations, type ConfirmationState } from './receipts.ts';
import type { ReceiptFollower } from './receipt-follow.ts';
import { broadcastRecorded, prepareUnsigned, signAtNextNonce, type RelayerEvent, type RelayerFunds, type Unsigned } from './relayer-submit.ts';
import type { FeeLimits } from './gas-policy.ts';
import { authorizationDeadlineOf, deadlineState, submissionBlocked } from './submission-guards.ts';
import type { SerialQueue } from './relayer.ts';
import { abandonNonce, broadcastAfterEarlier, nonceOwner, signAndRecordAtServiceNonce } from './relayer-nonce.ts';
import type { RelayerNonces } from '../../../server/ports/storage/relayer-nonces.ts';
import type { RelayerBatcher } from './relayer-batch.ts';
import { sumTransfers } from './transfer.ts';
import { messageAddress, messageUint } from './typed-data.ts';
import { authorizedTransfer, type Authorization } from './authorization-transfer.ts';
import { namesSpenderContract, spenderPaymentOf, spenderTransfer, type SpenderPayment } from './permit2-spender.ts';
import { findPayingTransaction, scanWindow } from './scan.ts';
import { DEFAULT_MAX_FEE_PER_GAS, bumpedReplacement } from './replacement.ts';
import type { AdvanceContext, RelayerSubmission, TransferState } from '../../../server/ports/chains.ts';
import { systemClock, type Clock } from '../../../server/ports/clock.ts';

export type RelayerChain = {
  provider: Provider;
  relayer: Wallet;
  /** Blocks including the inclusion block before a receipt is believed. */
  confirmations: number;
  /** Serializes the relayer's sign → record → broadcast, so each takes the next account nonce. */
  queue: SerialQueue;
  /** The service's time (default the system's): how long a recorded transaction went unmined. */
  clock?: Clock;
  /** Known to the node but unmined this long after it was recorded: replaced (default 45 s). */
  replaceAfterMs?: number;
  /** The highest maxFeePerGas (or gasPrice) the relayer signs, wei (default 500 gwei). */
  maxFeePerGas?: bigint;
  /** The lowest tip the chain's nodes accept, wei (default none). */
  minPriorityFee?: bigint;
  /** CAIP-2, for the events the relayer reports. */
  caip2?: string;
  /** The chain's usual block interval: how close to an authorization's deadline nothing is sent any more (default 12 s). */
  blockTimeMs?: number;
  /** Whether the relayer can pay; set short by a refusal for lack of funds. */
  funds?: RelayerFunds;
  /** Told of every refused broadcast (logs, metrics). */
  onRefusal?: (event: RelayerEvent) => void;
  /** Collects first EIP-3009 submissions into shared transactions (EVM_RELAYER_BATCH_MAX above 1). */
  batcher?: RelayerBatcher;
  /** The service's nonce counter (relayer-nonce.ts); absent: the node's pending count in the key's section. */
  nonces?: RelayerNonces;
  /** The chain's follow loop (receipt-follow.ts): with `followMs`, a step waits on it that long rather than reading once. */
  follower?: ReceiptFollower;
  followMs?: number;
};

const limitsOf = (c: RelayerChain): FeeLimits => ({ maxFeePerGas: c.maxFeePerGas ?? DEFAULT_MAX_FEE_PER_GAS, minPriorityFee: c.minPriorityFee ?? 0n });
const submitChain = (c: RelayerChain) => ({ ...c, limits: limitsOf(c) });

/** The default of `replaceAfterMs`: a few blocks on any chain, well under a quote's life. */
const REPLACE_AFTER_MS = 45_000;

export type { PaymentCheck, RelayerSubmission };

/** When the option was quoted and until when its signature is valid: the blocks it can be used in. */
export type QuoteTimes = { quotedAt: Date; deadline: Date };

export type ReceiptVerdict = { ok: true; value: bigint } | { ok: false; reason: string };

/**
 * Judges a mined receipt of the relayer's own transaction: it must have succeeded and its logs
 * (events emitted by the token contract itself) must move at least the amount from the buyer to
 * the destination. With the EIP-3009 `authorization`, only the Transfer its own AuthorizationUsed
 * event introduces counts (a batch may carry another payment from the same buyer to the same
 * destination: authorization-transfer.ts); with a permit paid through the spender contract, only the
 * Transfer before its own `Paid` event (permit2-spender.ts); else (a permit naming a relayer key,
 * never batched) the token's Transfers are summed. Anything else (reverted, less, elsewhere) cannot pay this payment.
 */
export function judgeReceipt(receipt: Pick<TransactionReceipt, 'status' | 'logs'>, check: PaymentCheck, authorization?: Authorization | SpenderPayment): ReceiptVerdict {
  if (receipt.status !== 1) return { ok: false, reason: 'the relayer transaction reverted on chain' };
  const value = !authorization
    ? sumTransfers(receipt.logs, check)
    : 'authorizer' in authorization
      ? authorizedTransfer(receipt.logs, check, authorization)
      : spenderTransfer(receipt.logs, check, authorization);
  if (value < check.minValue) return { ok: false, reason: `the relayer transaction moved ${value} to the destination, below the required ${check.minValue}` };
  return { ok: true, value };
}

/**
 * What a submission's receipt is judged by: an EIP-3009 authorization (its signer and nonce); a
 * permit naming the service's spender contract, that contract's `Paid` event for it
 * (permit2-spender.ts); none for a permit naming a relayer key (its transaction is its own).
 */
export const authorizationOf = (sub: RelayerSubmission): Authorization | SpenderPayment | undefined => {
  if (sub.flow === 'eip3009') return { authorizer: messageAddress(sub.typedData.message, 'from'), nonce: String(sub.typedData.message.nonce) };
  return namesSpenderContract(sub.typedData) ? spenderPaymentOf(sub.typedData) : undefined;
};

/** Whether a submission may share its transaction (a batch, or a stranger's carrying several): judged by its own events, not by its transaction. */
export const sharesTransactions = (sub: RelayerSubmission): boolean => sub.flow === 'eip3009' || namesSpenderContract(sub.typedData);

/** Whether the buyer's authorization (EIP-3009 nonce or Permit2 nonce bit) is spent or cancelled. */
async function authorizationUsed(c: RelayerChain, sub: RelayerSubmission, owner: string): Promise<boolean> {
  const m = sub.typedData.message;
  const contract = String(sub.typedData.domain.verifyingContract);
  if (sub.flow === 'eip3009') return readAuthorizationState(c.provider, contract, owner, String(m.nonce));
  return isPermit2NonceUsed(c.provider, contract, owner, messageUint(m, 'nonce'));
}

/**
 * The buyer's authorization is used, and not by a transaction of ours that paid: who used it? A
 * transaction in the quote's block window that paid the destination in full pays this payment
 * (confirmed with its id once deep enough). Null only when the whole window was read and nothing
 * paid: then the authorization went elsewhere (cancelled, or a transfer signed elsewhere). An RPC
 * error answers pending: the window was not fully read.
 */
async function usedElsewhere(c: RelayerChain, check: PaymentCheck, sub: RelayerSubmission, quote: QuoteTimes, txId?: string): Promise<TransferState | null> {
  const keep = txId === undefined ? {} : { txId };
  try {
    // The signature can be used until its authorization ends: the heal window past the quote deadline.
    const window = await scanWindow(c.provider, {
      quotedAt: quote.quotedAt,
      deadline: authorizationDeadlineOf(quote, sub),
      ...(sub.quoteBlock === undefined ? {} : { quoteBlock: sub.quoteBlock }),
    });
    const found = await findPayingTransaction(c.provider, sub, check, window);
    if (!found.found) return null;
    const head = await c.provider.getBlockNumber();
    if (head - found.blockNumber + 1 < Math.max(1, c.confirmations)) return { state: 'pending', ...keep, reason: `paid by ${found.txId}, awaiting confirmations` };
    return { state: 'confirmed', txId: found.txId };
  } catch {
    return { state: 'pending', ...keep, reason: 'rpc error while searching for the transaction that used the authorization' };
  }
}

/**
 * Null while a transaction sent now can still be mined before the authorization lapses (`first`:
 * before the quote deadline, for a payment's first transaction). Within the
 * margin nothing is sent and the attempt waits; once the deadline is past it, an authorization
 * nobody used can pay no more: failed, with no gas spent on a revert (submission-guards.ts).
 */
async function pastDeadline(c: RelayerChain, check: PaymentCheck, sub: RelayerSubmission, quote: QuoteTimes, txId?: string, first = false): Promise<TransferState | null> {
  const state = deadlineState(sub, (c.clock ?? systemClock).now(), c.blockTimeMs ?? 12_000, first ? quote.deadline : undefined);
  if (state === 'send') return null;
  const keep = txId === undefined ? {} : { txId };
  if (state === 'wait') return { state: 'pending', ...keep, reason: 'not sending: the authorization lapses before a transaction sent now could be mined' };
  try {
    if (!(await authorizationUsed(c, sub, check.from)))
      return { state: 'failed', ...keep, reason: 'the authorization lapsed before the relayer could send a transaction that pays with it' };
  } catch {
    return { state: 'pending', ...keep, reason: 'rpc error' };
  }
  return (
    (await usedElsewhere(c, check, sub, quote, txId)) ?? {
      state: 'failed',
      ...keep,
      reason: 'the authorization lapsed; it was used by a transaction that did not pay the destination',
    }
  );
}

type SendOutcome = TransferState | { refused: Extract<TransferState, { state: 'failed' }> };

/**
 * The payment's own transaction: estimate and fees read before the key's section, which holds only
 * the nonce, the signature, the record and the broadcast (which makes the nonce visible to the next
 * holder, in any process).
 */
async function sendAlone(c: RelayerChain, check: PaymentCheck, sub: RelayerSubmission, replaces: string | null, ctx: AdvanceContext): Promise<SendOutcome> {
  let unsigned: Unsigned;
  try {
    unsigned = await prepareUnsigned(submitChain(c), await relayerRequest(c.relayer, sub, check), sub.flow);
  } catch (err) {
    if (classifySubmitError(err) !== 'rejected') return { state: 'pending', reason: 'could not prepare the relayer transaction' };
    unsigned = { ok: false, rejected: err as Error };
  }
  if (!unsigned.ok) return 'state' in unsigned ? unsigned.state : { refused: { state: 'failed', reason: `refused before broadcast: ${unsigned.rejected.message.slice(0, 200)}` } };
  const fields = unsigned.fields;
  const owner = nonceOwner(submitChain(c));
  if (owner && ctx.paymentId) {
    // The service's nonce: the key's lock is one database transaction (take, sign, record); the broadcast is outside it.
    const row = { paymentId: ctx.paymentId, replaces, ...(sharesTransactions(sub) ? { shared: true as const } : {}) };
    const taken = await signAndRecordAtServiceNonce(owner, fields, [row], new Date((c.clock ?? systemClock).now()));
    if (!taken) return { state: 'pending', reason: 'could not prepare the relayer transaction' };
    if (!taken.tx) return { state: 'pending', reason: 'not recorded: the payment changed meanwhile' };
    const tx = taken.tx;
    return broadcastAfterEarlier(owner, taken.earlier, () => broadcastRecorded(submitChain(c), tx, ctx, sub.flow));
  }
  return c.queue(async () => {
    let rawTx: string;
    try {
      rawTx = await signAtNextNonce(submitChain(c), fields);
    } catch {
      return { state: 'pending', reason: 'could not prepare the relayer transaction' };
    }
    const txId = keccak256(rawTx);
    if (!(await ctx.record({ txId, rawTx }, replaces))) return { state: 'pending', reason: 'not recorded: the payment changed meanwhile' };
    return broadcastRecorded(submitChain(c), { txId, rawTx }, ctx, sub.flow);
  });
}

/** A first submission that may share its transaction, through the chain's batcher (relayer-batch.ts); alone when batching is off there. */
async function viaBatch(c: RelayerChain, batcher: RelayerBatcher, check: PaymentCheck, sub: RelayerSubmission, ctx: AdvanceContext): Promise<SendOutcome> {
  let call: { target: string; callData: string };
  try {
    const request = await relayerRequest(c.relayer, sub, check);
    call = { target: await resolveAddress(request.to!), callData: request.data ?? '0x' };
  } catch {
    return { state: 'pending', reason: 'could not prepare the relayer transaction' };
  }
  const outcome = await batcher.submit({ call, ctx, flow: sub.flow });
  if ('thrown' in outcome) throw outcome.thrown;
  return 'alone' in outcome ? sendAlone(c, check, sub, null, ctx) : outcome;
}

/**
 * Signs the relayer transaction, records it (in place of `replaces`), then broadcasts it. A
 * rejection during gas estimation means nothing was sent and the chain refuses this authorization
 * (cancelled by the buyer, balance short, expired, reverted): failed. When it is refused because
 * the authorization is already used, the transaction that used it is searched first (it may have
 * paid the merchant). A failed record sends nothing; a refused broadcast is answered by its class
 * (relayer-submit.ts).
 */
async function signRecordBroadcast(
  c: RelayerChain,
  check: PaymentCheck,
  sub: RelayerSubmission,
  replaces: string | null,
  ctx: AdvanceContext,
  quote: QuoteTimes,
): Promise<TransferState> {
  const problem = submissionProblem(sub, check);
  if (problem) return { state: 'failed', reason: problem };
  // A first transaction is sent only while the quote is valid; the heal window past it is for
  // sending again what was sent in time, not for paying a payment late.
  const late = await pastDeadline(c, check, sub, quote, replaces ?? undefined, replaces === null);
  if (late) return late;
  const blocked = await submissionBlocked(c.provider, sub, check);
  if (blocked) return blocked;
  const outcome = c.batcher && sharesTransactions(sub) && replaces === null ? await viaBatch(c, c.batcher, check, sub, ctx) : await sendAlone(c, check, sub, replaces, ctx);
  if (!('refused' in outcome)) return outcome;
  // The estimate's node passed the freshness guard, but only against the heads this process has
  // seen: a worker that just started may not have seen the block with the buyer's funds. A refusal
  // ends the payment only once no endpoint is ahead of what was compared (issue 29: a lagging node's
  // revert released a payment that paid on the next attempt).
  try {
    if (await endpointAheadOfSeen(c.provider, 2_000))
      return { state: 'pending', reason: 'refused before broadcast by a node behind another endpoint; estimating again at the freshest head' };
  } catch {
    return { state: 'pending', reason: "refused before broadcast; could not compare the endpoints' heads" };
  }
  try {
    if (!(await authorizationUsed(c, sub, check.from))) return outcome.refused;
  } catch {
    return { state: 'pending', reason: 'refused before broadcast; could not read whether the authorization is used' };
  }
  return (
    (await usedElsewhere(c, check, sub, quote)) ?? {
      ...outcome.refused,
      reason: `${outcome.refused.reason} (the authorization was used, and no transaction paid the destination with it)`,
    }
  );
}

/** Whether the relayer's account nonce `nonce` is used by a block `confirmations` deep. */
async function relayerNonceConsumed(c: RelayerChain, nonce: number): Promise<boolean> {
  const head = await c.provider.getBlockNumber();
  const count = await c.provider.getTransactionCount(c.relayer.address, Math.max(0, head - Math.max(1, c.confirmations) + 1));
  return count > nonce;
}

/**
 * Replaces the recorded `txId`, which the node holds unmined for longer than the bound, by the
 * same request at the same nonce with higher fees: recorded in its place, then broadcast. If the
 * old one mines after all, the new one is unknown with its nonce consumed and the authorization
 * used, and the search for who used it (usedElsewhere) confirms the payment with the old one.
 */
async function replaceStuck(c: RelayerChain, txId: string, rawTx: string, ctx: AdvanceContext, flow: RelayerSubmission['flow']): Promise<TransferState> {
  let fees: FeeData;
  try {
    fees = await c.provider.getFeeData();
  } catch {
    return { state: 'pending', txId, reason: 'rpc error' };
  }
  const replacement = bumpedReplacement(rawTx, fees, c.maxFeePerGas ?? DEFAULT_MAX_FEE_PER_GAS);
  if (!replacement.ok) return { state: 'pending', txId, reason: `not mined yet; ${replacement.reason}` };
  const { tx } = replacement;
  tx.signature = c.relayer.signingKey.sign(tx.unsignedHash);
  const next = { txId: tx.hash!, rawTx: tx.serialized };
  // At the same nonce: every payment of a batch holding the stuck one follows the replacement, instead
  // of sending bytes the node now refuses and re-signing each on its own.
  if (!(await ctx.record({ ...next, everyHolder: true }, txId))) return { state: 'pending', txId, reason: 'not replaced: the payment changed meanwhile' };
  return broadcastRecorded(submitChain(c), next, ctx, flow);
}

/** A mined relayer transaction: deep enough, its receipt decides whether it paid this payment (its own authorization's events). */
async function judgeMined(
  c: RelayerChain,
  check: PaymentCheck,
  sub: RelayerSubmission,
  txId: string,
  quote: QuoteTimes,
  state: Extract<ConfirmationState, { status: 'mined' }>,
): Promise<TransferState> {
  if (state.confirmations < Math.max(1, c.confirmations)) return { state: 'pending', txId, reason: 'awaiting confirmations' };
  const verdict = judgeReceipt(state.receipt, check, authorizationOf(sub));
  if (verdict.ok) return { state: 'confirmed', txId };
  // Ours reverted: perhaps because another transaction used the authorization first and paid.
  try {
    if (!(await authorizationUsed(c, sub, check.from))) return { state: 'failed', reason: verdict.reason, txId };
  } catch {
    return { state: 'pending', txId, reason: 'rpc error' };
  }
  return (await usedElsewhere(c, check, sub, quote, txId)) ?? { state: 'failed', reason: verdict.reason, txId };
}

/**
 * A first submission's step goes on to wait for its transaction on the follow loop, in the same
 * job slot. Answering `submitted` instead sent the job to the back of its queue (retry in 1 s):
 * under a burst, each payment's follow ran only after every later payment's first step, so all of
 * them took about as long as the whole burst (the settle bench: 1,000 payments, the first settled
 * 11 s after its transaction was recorded). Only a mined receipt is answered from here; anything
 * else is the submission, and the next run follows it with its recorded bytes (followRecorded).
 */
async function followSubmitted(c: RelayerChain, check: PaymentCheck, sub: RelayerSubmission, quote: QuoteTimes, step: TransferState): Promise<TransferState> {
  if (step.state !== 'submitted' || !c.follower || !c.followMs) return step;
  const state = await c.follower.follow(step.txId, c.confirmations, c.followMs);
  if (state.status !== 'mined' || state.confirmations < Math.max(1, c.confirmations)) return step;
  return { ...(await judgeMined(c, check, sub, step.txId, quote, state)), submittedNow: true };
}

/** Whether the recorded transaction has waited unmined longer than the bound. */
function overdue(c: RelayerChain, ctx: AdvanceContext): boolean {
  if (!ctx.recordedAt) return false;
  return (c.clock ?? systemClock).now() - ctx.recordedAt.getTime() >= (c.replaceAfterMs ?? REPLACE_AFTER_MS);
}

/**
 * Follows the recorded relayer transaction `txId`. Mined and deep enough: its receipt decides.
 * Not mined but known to the node: wait, and once overdue replace it at its nonce with higher
 * fees (every later relayer transaction queues behind that nonce). Unknown to the node: if its
 * relayer nonce is still free (a crash before broadcast, or dropped), send the recorded bytes
 * again; if another transaction took that nonce, ours can never mine: sign a new one while the
 * buyer's authorization is unused, else the authorization went elsewhere and this attempt failed.
 */
async function followRecorded(c: RelayerChain, check: PaymentCheck, sub: RelayerSubmission, txId: string, ctx: AdvanceContext, quote: QuoteTimes): Promise<TransferState> {
  const state = c.follower && c.followMs ? await c.follower.follow(txId, c.confirmations, c.followMs) : await getConfirmations(c.provider, txId);
  if (state.status === 'mined') return judgeMined(c, check, sub, txId, quote, state);
  if (state.reason === 'rpc_error') return { state: 'pending', txId, reason: 'rpc error' };
  let held: boolean;
  try {
    held = (await c.provider.getTransaction(txId)) !== null;
  } catch {
    return { state: 'pending', txId, reason: 'rpc error' };
  }
  if (held) {
    if (!ctx.rawTx || !overdue(c, ctx)) return { state: 'pending', txId, reason: 'not mined yet' };
    // Never replaced so late that the replacement could only mine to revert.
    return (await pastDeadline(c, check, sub, quote, txId)) ?? replaceStuck(c, txId, ctx.rawTx, ctx, sub.flow);
  }
  try {
    const nonce = ctx.rawTx ? Transaction.from(ctx.rawTx).nonce : null;
    if (ctx.rawTx && nonce !== null && !(await relayerNonceConsumed(c, nonce))) {
      // Not sent again so late that it could only mine to revert.
      const late = await pastDeadline(c, check, sub, quote, txId);
      if (!late) return broadcastRecorded(submitChain(c), { txId, rawTx: ctx.rawTx }, ctx, sub.flow);
      // Never to be sent: a service-owned nonce left unused would hold every later transaction of the key.
      const owner = nonceOwner(submitChain(c));
      if (late.state === 'failed' && owner) await abandonNonce(owner, ctx.rawTx);
      return late;
    }
    // Its nonce went to another transaction (or, recorded before raw bytes were kept, the node
    // has forgotten it): it will not mine here.
    const used = await authorizationUsed(c, sub, check.from);
    // Read our receipt again: it may have been mined between the reads above.
    if (await c.provider.getTransactionReceipt(txId)) return { state: 'pending', txId, reason: 'mined meanwhile' };
    if (!used) return signRecordBroadcast(c, check, sub, txId, ctx, quote);
    return (
      (await usedElsewhere(c, check, sub, quote, txId)) ?? {
        state: 'failed',
        reason: 'the relayer transaction was replaced and the authorization was used by another transaction that did not pay the destination',
        txId,
      }
    );
  } catch {
    return { state: 'pending', txId, reason: 'rpc error' };
  }
}

/**
 * One step of a relayer-flow payment; see the module comment. An EIP-3009 payment is judged by its
 * own authorization, never by its transaction alone, so whatever transaction pays it (a batch of
 * ours, a front-runner's carrying several authorizations) is recorded and confirmed as `shared`:
 * the storage lets the batch's other payments hold the same id; so is a permit paid through the
 * spender contract, judged by its own `Paid` event. A permit naming a relayer key is judged by the
 * Transfers its receipt holds, so its transaction stays one payment's.
 */
export async function advanceRelayerFlow(
  c: RelayerChain,
  check: PaymentCheck,
  sub: RelayerSubmission,
  knownTxId: string | null,
  ctx: AdvanceContext,
  quote: QuoteTimes,
): Promise<TransferState> {
  const shared = sharesTransactions(sub);
  const own: AdvanceContext = shared ? { ...ctx, record: (tx, replaces) => ctx.record({ ...tx, shared: true }, replaces) } : ctx;
  const step =
    knownTxId === null
      ? await followSubmitted(c, check, sub, quote, await signRecordBroadcast(c, check, sub, null, own, quote))
      : await followRecorded(c, check, sub, knownTxId, own, quote);
  return shared && step.state === 'confirmed' ? { ...step, shared: true } : step;
}

// Getting the relayer's transaction through: built with the gas policy, broadcast, and when a node
// refuses it, answered by what the refusal means (broadcast-errors.ts) rather than by sending the
// same bytes again forever: followed when the node holds it or its nonce is used, re-signed at the
// same nonce with fresh fees when underpriced or with a fresh estimate when its gas is too low,
// failed fast when the relayer cannot pay. Nothing is sent that could only mine after the buyer's
// authorization lapsed.
import { Transaction, isError, resolveAddress, type Provider, type TransactionLike, type TransactionRequest, type Wallet } from 'ethers';
import type { AdvanceContext, TransferState } from '../../../server/ports/chains.ts';
import { classifyBroadcastError, type BroadcastRefusal } from './broadcast-errors.ts';
import { freshFees, gasLimitFor, type FeeLimits, type RelayerFlowName } from './gas-policy.ts';
import { bumpedReplacement } from './replacement.ts';
import { callsIn } from './multicall.ts';
import type { RelayerNonces } from '../../../server/ports/storage/relayer-nonces.ts';
import { abandonNonce, nonceOwner } from './relayer-nonce.ts';
import { sendRawTransaction } from './send-raw.ts';

/** A refusal the relayer met, for the operator: logged and counted by the composition root. */
export type RelayerEvent = { chain: string; relayer: string; refusal: BroadcastRefusal };

/**
 * Whether the relayer's account can pay: set when a node refused a transaction for lack of funds
 * (the upfront cost it needed), cleared by a balance read that covers it. Options stop offering
 * gasless payments on the chain while it is short.
 */
export interface RelayerFunds {
  /** The upfront cost of the last transaction refused for lack of funds, until a balance covers it. */
  shortOf(): bigint | null;
  refused(upfrontCost: bigint): void;
  /** A balance read after the last refusal: clears the shortage when it covers it. */
  observed(balance: bigint, readAfter: number): void;
  /** How many refusals so far: a balance read before the last one says nothing about the shortage. */
  refusals(): number;
}

export function createRelayerFunds(): RelayerFunds {
  let short: bigint | null = null;
  let refusals = 0;
  return {
    shortOf: () => short,
    refused: (cost) => {
      refusals++;
      short = short !== null && short > cost ? short : cost;
    },
    observed: (balance, readAfter) => {
      if (short !== null && readAfter === refusals && balance >= short) short = null;
    },
    refusals: () => refusals,
  };
}

/** What building, sending and re-signing need of the chain. */
export interface SubmitChain {
  caip2?: string;
  provider: Provider;
  relayer: Wallet;
  limits: FeeLimits;
  funds?: RelayerFunds;
  onRefusal?: (event: RelayerEvent) => void;
  /** The service's nonce counter (relayer-nonce.ts); absent: the node's pending count, read in the key's section. */
  nonces?: RelayerNonces;
}

/** Everything of the relayer's transaction but its nonce: what is read from the node before the key's section is taken. */
export type Unsigned = { ok: true; fields: Omit<TransactionLike<string>, 'nonce'> } | { ok: false; state: TransferState } | { ok: false; rejected: Error };

/**
 * The relayer's transaction for `request` without its nonce: the node's estimate with headroom
 * under the flow's ceiling (per payment: `calls` in a batch), fees from the node now
 * within the chain's limits. Read outside the key's section, so the section holds no estimate or
 * fee round trip. A node refusing the estimate is `rejected` (the chain refuses this call as it
 * stands); an estimate above the ceiling fails the attempt; an RPC error leaves it pending.
 */
export async function prepareUnsigned(c: SubmitChain, request: TransactionRequest, flow: RelayerFlowName, calls = 1): Promise<Unsigned> {
  let estimate: bigint;
  try {
    estimate = await c.provider.estimateGas({ ...request, from: c.relayer.address });
  } catch (err) {
    if (isError(err, 'CALL_EXCEPTION')) return { ok: false, rejected: err };
    return { ok: false, state: { state: 'pending', reason: 'could not estimate the relayer transaction' } };
  }
  const gas = gasLimitFor(estimate, flow, calls);
  if (!gas.ok) return { ok: false, state: { state: 'failed', reason: `not sent: ${gas.reason}` } };
  try {
    const [feeData, network, to] = await Promise.all([c.provider.getFeeData(), c.provider.getNetwork(), request.to ? resolveAddress(request.to) : null]);
    const { capped: _capped, ...feeFields } = freshFees(feeData, c.limits);
    return {
      ok: true,
      fields: {
        ...(to ? { to } : {}),
        data: request.data ?? '0x',
        value: 0n,
        gasLimit: gas.gasLimit,
        chainId: network.chainId,
        ...('gasPrice' in feeFields ? { type: 0, gasPrice: feeFields.gasPrice } : { type: 2, ...feeFields }),
      },
    };
  } catch {
    return { ok: false, state: { state: 'pending', reason: 'could not prepare the relayer transaction' } };
  }
}

/**
 * Signs `fields` at the relayer account's next nonce as the node counts pending ones (see
 * relayer.ts): the one round trip left inside the key's section, with the signature and the record.
 */
export async function signAtNextNonce(c: SubmitChain, fields: Omit<TransactionLike<string>, 'nonce'>): Promise<string> {
  const nonce = await c.provider.getTransactionCount(c.relayer.address, 'pending');
  return c.relayer.signTransaction(Transaction.from({ ...fields, nonce }));
}

/** The most a signed transaction can cost its sender: what a node checks the balance against. */
export function upfrontCost(rawTx: string): bigint {
  const tx = Transaction.from(rawTx);
  return tx.gasLimit * (tx.maxFeePerGas ?? tx.gasPrice ?? 0n) + tx.value;
}

type Resigned = { ok: true; rawTx: string } | { ok: false; reason: string };

/** The same call at the same nonce, signed again with what the refusal asks: fresh fees, or a fresh gas estimate. */
async function resign(c: SubmitChain, rawTx: string, refusal: BroadcastRefusal, flow: RelayerFlowName): Promise<Resigned> {
  const old = Transaction.from(rawTx);
  if (refusal.class === 'intrinsic-gas') {
    // A fresh estimate, and at least what the node said it needs, within the flow's ceiling.
    const named = refusal.minimum?.field === 'gas' ? refusal.minimum.gas : 0n;
    const estimate = await c.provider.estimateGas({ from: c.relayer.address, to: old.to, data: old.data });
    const gas = gasLimitFor(estimate > named ? estimate : named, flow, callsIn(old.to, old.data));
    if (!gas.ok) return { ok: false, reason: gas.reason };
    if (gas.gasLimit <= old.gasLimit) return { ok: false, reason: `the node refused ${old.gasLimit} gas, and a fresh estimate asks no more` };
    const tx = old.clone();
    tx.signature = null;
    tx.gasLimit = gas.gasLimit;
    return { ok: true, rawTx: await c.relayer.signTransaction(tx) };
  }
  // Underpriced: at least what the node suggests now (the chain's minimum tip and any minimum the
  // refusal named included), and a quarter above the refused fees, so it also replaces a copy a
  // node may hold; never above the cap.
  const fresh = freshFees(await c.provider.getFeeData(), c.limits, refusal.minimum?.field === 'gas' ? undefined : refusal.minimum);
  const asFeeData = 'gasPrice' in fresh ? { gasPrice: fresh.gasPrice, maxFeePerGas: null, maxPriorityFeePerGas: null } : { ...fresh, gasPrice: null };
  const bumped = bumpedReplacement(rawTx, asFeeData, c.limits.maxFeePerGas);
  if (!bumped.ok) return { ok: false, reason: bumped.reason };
  return { ok: true, rawTx: await c.relayer.signTransaction(bumped.tx) };
}

/** Whether the node has the transaction `txId` (mined or waiting); false when it cannot say. */
async function nodeKnows(provider: Provider, txId: string): Promise<boolean> {
  try {
    return (await provider.getTransaction(txId)) !== null;
  } catch {
    return false;
  }
}

/**
 * Broadcasts the recorded transaction `tx` and answers by what the node said. A refusal that asks
 * for other fees or gas is re-signed at the same nonce, recorded in place of `tx`, and broadcast
 * once more (never in a loop: the next job step looks again).
 */
export async function broadcastRecorded(c: SubmitChain, tx: { txId: string; rawTx: string }, ctx: AdvanceContext, flow: RelayerFlowName, mayResign = true): Promise<TransferState> {
  try {
    await sendRawTransaction(c.provider, tx.rawTx);
    return { state: 'submitted', txId: tx.txId };
  } catch (err) {
    const refusal = classifyBroadcastError(err);
    c.onRefusal?.({ chain: c.caip2 ?? '', relayer: c.relayer.address, refusal });
    switch (refusal.class) {
      case 'known':
        return { state: 'submitted', txId: tx.txId };
      case 'nonce-used':
        // These very bytes may be in already: the service's nonces let another step send a
        // payment's recorded transaction before its own broadcast (relayer-nonce.ts, in-order
        // resend). Then this step handed it over as much as that one did: submitted.
        if (await nodeKnows(c.provider, tx.txId)) return { state: 'submitted', txId: tx.txId };
        // Another transaction took the nonce (or the node cannot say): the next step reads the chain.
        return { state: 'pending', txId: tx.txId, reason: `the node says the nonce is used (${refusal.message}); following the chain` };
      case 'insufficient-funds': {
        c.funds?.refused(upfrontCost(tx.rawTx));
        // Failed for good: its nonce will never be used by it, and the key's later ones wait behind it.
        const owner = nonceOwner(c);
        if (owner) await abandonNonce(owner, tx.rawTx);
        return { state: 'failed', txId: tx.txId, reason: `the relayer cannot pay for the transaction, nothing was sent (${refusal.message}); top it up` };
      }
      case 'underpriced':
      case 'intrinsic-gas': {
        if (!mayResign) return { state: 'pending', txId: tx.txId, reason: `refused again (${refusal.message})` };
        let next: Resigned;
        try {
          next = await resign(c, tx.rawTx, refusal, flow);
        } catch {
          return { state: 'pending', txId: tx.txId, reason: `refused (${refusal.message}); could not re-sign it` };
        }
        if (!next.ok) return { state: 'pending', txId: tx.txId, reason: `refused (${refusal.message}); not re-signed: ${next.reason}` };
        const signed = Transaction.from(next.rawTx);
        const recorded = { txId: signed.hash!, rawTx: next.rawTx };
        // At the same nonce: every payment of a batch holding the refused bytes follows the new ones.
        if (!(await ctx.record({ ...recorded, everyHolder: true }, tx.txId))) return { state: 'pending', txId: tx.txId, reason: 'not re-signed: the payment changed meanwhile' };
        return broadcastRecorded(c, recorded, ctx, flow, false);
      }
      default:
        return { state: 'pending', txId: tx.txId, reason: `broadcast refused or lost (${refusal.message}); trying again later` };
    }
  }
}

// Batching EIP-3009 payments and permits paid through the Permit2 spender contract (both may be
// sent by anyone): the first submissions that arrive within a short window (or until the batch is
// full) share one relayer transaction, Multicall3's aggregate3 with each call allowed to fail. Before anything is signed the batch is simulated and every call that would fail is
// dropped and answered on its own (the payment's refusal path reads why): one bad authorization
// never reverts or delays the others. The transaction is signed at one key's nonce and recorded in
// every payment's row before it is broadcast, so a crash between the two is healed by whichever
// payment's next step comes first sending the recorded bytes again; each payment is then judged
// by its own AuthorizationUsed event and the Transfer it introduces (authorization-transfer.ts), or
// by the spender's own Paid event and the Transfer before it (permit2-spender.ts).
import { keccak256, type Provider, type TransactionLike } from 'ethers';
import type { AdvanceContext, RecordedTransaction, TransferState } from '../../../server/ports/chains.ts';
import { MULTICALL3_ADDRESS, aggregate3Data, multicall3Problem, simulateAggregate3, type Call3 } from './multicall.ts';
import { broadcastRecorded, prepareUnsigned, signAtNextNonce, type SubmitChain } from './relayer-submit.ts';
import type { RelayerPool } from './relayer-pool.ts';
import { broadcastAfterEarlier, nonceOwner, signAndRecordAtServiceNonce, type NonceOwner } from './relayer-nonce.ts';
import type { RelayerFlowName } from './gas-policy.ts';

/** What one payment's first submission asks of a batch: its call, its flow (its gas ceiling), and where to record the transaction. */
export type BatchItem = { call: Call3; ctx: AdvanceContext; flow?: RelayerFlowName };

/** The flow whose per-payment gas ceiling bounds a batch: Permit2's (the larger) when any payment is one. */
const batchFlow = (items: readonly { item: BatchItem }[]): RelayerFlowName => (items.some((g) => g.item.flow === 'permit2') ? 'permit2' : 'eip3009');

/**
 * A payment's answer from its batch: its state, refused before broadcast, sent alone (batching off
 * on the chain), or the error its own record threw (thrown again in its job, as a lone payment's is).
 */
export type BatchOutcome = TransferState | { refused: Extract<TransferState, { state: 'failed' }> } | { alone: true } | { thrown: unknown };

export interface RelayerBatcher {
  submit(item: BatchItem): Promise<BatchOutcome>;
}

export interface BatchChain {
  caip2: string;
  provider: Provider;
  pool: RelayerPool;
  /** The chain's fee limits and refusal hooks, for one key (its wallet and funds). */
  submitChain(key: RelayerPool['keys'][number]): SubmitChain;
  /** Most payments per transaction (EVM_RELAYER_BATCH_MAX, at least 2 here). */
  max: number;
  /** How long the first payment of a batch waits for others, ms. */
  windowMs: number;
  /** The service's time, ms (default the system's): when a batch is recorded. */
  now?: () => number;
  /** Told once when batching is off on the chain (Multicall3 missing), with why. */
  onUnavailable?: (problem: string) => void;
}

/** A payment's state when its call was not sent (nothing signed): the next step tries again. */
const notSent = (reason: string): TransferState => ({ state: 'pending', reason });

/**
 * Records `tx` in every payment's row; answers the contexts where it took (a row that changed
 * meanwhile is left out) and the errors records threw. A record that threw may have committed or
 * not: either way that payment's next step is safe (it follows the recorded transaction, or its
 * fresh attempt finds the authorization used and the batch that paid with it).
 */
async function recordAll(ctxs: AdvanceContext[], tx: RecordedTransaction, replaces: string | null): Promise<{ took: AdvanceContext[]; threw: Map<AdvanceContext, unknown> }> {
  const took: AdvanceContext[] = [];
  const threw = new Map<AdvanceContext, unknown>();
  for (const ctx of ctxs) {
    try {
      if (await ctx.record(tx, replaces)) took.push(ctx);
    } catch (err) {
      threw.set(ctx, err);
    }
  }
  return { took, threw };
}

/** One context standing for every payment of a batch: a re-signature after a refusal is recorded in all their rows. */
function batchContext(ctxs: AdvanceContext[]): AdvanceContext {
  return { rawTx: null, recordedAt: null, record: async (tx, replaces) => (await recordAll(ctxs, tx, replaces)).took.length > 0 };
}

/**
 * Signs the batch at the service's nonce and records it in every row in one database transaction
 * (relayer-nonce.ts), then broadcasts it outside the key's lock; fills `outcomes` of `good`.
 */
async function sendAtServiceNonce(
  owner: NonceOwner,
  sc: SubmitChain,
  fields: Omit<TransactionLike<string>, 'nonce'>,
  good: { item: BatchItem; i: number }[],
  outcomes: BatchOutcome[],
  at: Date,
): Promise<void> {
  let taken: Awaited<ReturnType<typeof signAndRecordAtServiceNonce>>;
  try {
    taken = await signAndRecordAtServiceNonce(
      owner,
      fields,
      good.map((g) => ({ paymentId: g.item.ctx.paymentId!, replaces: null, shared: true })),
      at,
    );
  } catch (err) {
    // Committed or not, each payment's next step is safe (see recordAll): thrown again in each job.
    for (const g of good) outcomes[g.i] = { thrown: err };
    return;
  }
  if (!taken?.tx) {
    for (const g of good) outcomes[g.i] = notSent(taken ? 'not recorded: the payments changed meanwhile' : 'could not sign the relayer batch');
    return;
  }
  const took = good.filter((g) => taken.took.includes(g.item.ctx.paymentId!));
  const tx = taken.tx;
  const state = await broadcastAfterEarlier(owner, taken.earlier, () => broadcastRecorded(sc, tx, batchContext(took.map((g) => g.item.ctx)), batchFlow(good)));
  for (const g of good) outcomes[g.i] = took.includes(g) ? state : notSent('not recorded: the payment changed meanwhile');
}

/** Simulates, signs, records and broadcasts one batch; answers each item's outcome in order. */
export async function sendBatch(c: BatchChain, items: BatchItem[]): Promise<BatchOutcome[]> {
  const key = c.pool.pick();
  return c.pool.lease(key, async () => {
    let succeeds: boolean[];
    try {
      succeeds = await simulateAggregate3(
        c.provider,
        key.wallet.address,
        items.map((i) => i.call),
      );
    } catch {
      return items.map(() => notSent('could not simulate the relayer batch; trying again'));
    }
    const outcomes: BatchOutcome[] = items.map((_, i) =>
      succeeds[i] ? notSent('not sent') : { refused: { state: 'failed', reason: 'refused before broadcast: the chain refused this authorization when its batch was simulated' } },
    );
    const good = items.flatMap((item, i) => (succeeds[i] ? [{ item, i }] : []));
    if (!good.length) return outcomes;
    const sc = c.submitChain(key);
    const request =
      good.length === 1 ? { to: good[0]!.item.call.target, data: good[0]!.item.call.callData } : { to: MULTICALL3_ADDRESS, data: aggregate3Data(good.map((g) => g.item.call)) };
    const unsigned = await prepareUnsigned(sc, request, batchFlow(good), good.length);
    if (!unsigned.ok) {
      // The simulation passed a moment ago: a refused estimate now is a race (an authorization used meanwhile); each tries again.
      const answer: TransferState = 'state' in unsigned ? unsigned.state : notSent(`the batch's estimate was refused (${unsigned.rejected.message.slice(0, 120)}); trying again`);
      for (const g of good) outcomes[g.i] = answer;
      return outcomes;
    }
    const owner = nonceOwner(sc);
    const ids = good.map((g) => g.item.ctx.paymentId);
    if (owner && ids.every((id) => id !== undefined)) {
      await sendAtServiceNonce(owner, sc, unsigned.fields, good, outcomes, new Date((c.now ?? Date.now)()));
      return outcomes;
    }
    const sent = await key.queue(async (): Promise<{ took: AdvanceContext[]; threw: Map<AdvanceContext, unknown>; state: TransferState } | null> => {
      let rawTx: string;
      try {
        rawTx = await signAtNextNonce(sc, unsigned.fields);
      } catch {
        return null;
      }
      const tx = { txId: keccak256(rawTx), rawTx };
      // Every payment's row holds the transaction before any byte leaves: a crash here is healed by the recorded bytes.
      const { took, threw } = await recordAll(
        good.map((g) => g.item.ctx),
        tx,
        null,
      );
      if (!took.length) return { took, threw, state: notSent('not recorded: the payments changed meanwhile') };
      return { took, threw, state: await broadcastRecorded(sc, tx, batchContext(took), batchFlow(good)) };
    });
    for (const g of good) {
      if (!sent) outcomes[g.i] = notSent('could not sign the relayer batch');
      else if (sent.threw.has(g.item.ctx)) outcomes[g.i] = { thrown: sent.threw.get(g.item.ctx) };
      else outcomes[g.i] = sent.took.includes(g.item.ctx) ? sent.state : notSent('not recorded: the payment changed meanwhile');
    }
    return outcomes;
  });
}

/**
 * Collects first submissions into batches of at most `max`, each sent once full or once the first
 * has waited `windowMs`. Multicall3 is checked on the chain once before the first batch; when it
 * is missing every payment is answered `alone` and sent in a transaction of its own.
 */
export function createRelayerBatcher(c: BatchChain): RelayerBatcher {
  const waiting: { item: BatchItem; resolve: (o: BatchOutcome) => void }[] = [];
  let timer: NodeJS.Timeout | null = null;
  let available: Promise<'yes' | 'no' | 'unknown'> | null = null;

  // Kept once answered; an RPC failure is asked again with the next batch.
  const checkOnce = (): Promise<'yes' | 'no' | 'unknown'> => {
    available ??= multicall3Problem(c.provider, BigInt(c.caip2.split(':')[1]!)).then(
      (problem) => {
        if (problem) c.onUnavailable?.(problem);
        return problem === null ? 'yes' : 'no';
      },
      () => {
        available = null;
        return 'unknown';
      },
    );
    return available;
  };

  const run = async (items: BatchItem[]): Promise<BatchOutcome[]> => {
    const multicall = await checkOnce();
    if (multicall === 'no') return items.map(() => ({ alone: true }));
    if (multicall === 'unknown') return items.map(() => notSent("could not read Multicall3's code; trying again"));
    return sendBatch(c, items).catch(() => items.map(() => notSent('the relayer batch failed; trying again')));
  };

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const batch = waiting.splice(0, c.max);
    if (waiting.length) timer = setTimeout(flush, c.windowMs);
    if (!batch.length) return;
    void run(batch.map((w) => w.item)).then((outcomes) => batch.forEach((w, i) => w.resolve(outcomes[i]!)));
  };

  return {
    submit(item) {
      return new Promise<BatchOutcome>((resolve) => {
        waiting.push({ item, resolve });
        if (waiting.length >= c.max) flush();
        else timer ??= setTimeout(flush, c.windowMs);
      });
    },
  };
}

// Long because: one suite covers every port member on every adapter, and its cases share the opened harness.
// The chain port's conformance suite: every flow an adapter offers, through every ChainPort method,
// on a real chain (sandbox). Paid means the merchant's balance grew by the amount to the base unit;
// nothing the job repeats pays twice; no crash point loses a transfer; nothing is `failed` while
// funds may have moved; and nothing a wallet tampers with is paid.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../server/errors.ts';
import {
  expectOption,
  createChainRegistry,
  nodeServesChain,
  type ChainPort,
  type LateFundsPass,
  type OptionRequest,
  type QuoteState,
  type Submission,
  type TransferState,
  type WireAction,
} from '../../../server/ports/chains.ts';
import { countingPort, paymentRecord, type ChainHarness, type FlowFixture, type MethodName, type Tamper } from './harness.ts';

export type { ChainHarness } from './harness.ts';

const AMOUNT = 2_345_678n;
/** Enough steps for any adapter to submit and confirm with a block mined between steps. */
const MAX_STEPS = 8;

/**
 * What the test file declares before the harness opens (vitest collects tests first): the flows
 * the adapter offers, by the `flow` of their quote state, and whether anyone but the service's job
 * can submit the buyer's signed submission (an EIP-3009 authorization, a signed Solana transaction).
 */
export type DeclaredFlow = {
  flow: string;
  submittable: boolean;
  /** Another submitter's transaction is found by searching logs (EVM), so a provider's range cap bears on it. */
  searchesLogs?: boolean;
  /** The wallet broadcasts the payment and pays its fee itself (no service fee account involved). */
  walletBroadcasts?: boolean;
  /** The flow also answers transactions the wallet signs, broadcasts and pays for itself (`walletTransaction`: Solana Pay). */
  walletTransactions?: boolean;
};

/** What the transport gives the adapter's reads, declared by the test file (vitest collects cases before the harness opens). */
export interface TransportTraits {
  /**
   * Reads answered from behind the highest head seen are refused and asked again (the production
   * wiring's MultiEndpointProvider, Solana's minContextSlot). False for the EVM adapter over the
   * embedded sandbox's provider: one in-process node, which cannot lag behind itself.
   */
  readsNeverGoBackwards: boolean;
}

/** Runs the suite against the adapter `open` builds; `name` labels it. */
export function chainPortConformance(name: string, declared: DeclaredFlow[], open: () => Promise<ChainHarness>, traits: TransportTraits = { readsNeverGoBackwards: true }): void {
  describe(`chain port conformance: ${name}`, () => {
    let h: ChainHarness;
    let port: ChainPort;
    let counts: Record<MethodName, number>;
    let seq = 0;
    beforeAll(async () => {
      h = await open();
      ({ port, counts } = countingPort(h.port));
    }, 180_000);
    afterAll(async () => {
      await h?.close();
    });
    // A fault a case set never leaks into the next case.
    afterEach(() => h?.faults.clear());

    const request = (flow: FlowFixture, account: string, destination: string, deadlineInMs = 30 * 60_000): OptionRequest => ({
      paymentId: `pay_conf_${name}_${++seq}_${h.now()}`,
      optionId: `opt_${seq}`,
      account,
      asset: flow.asset,
      amount: AMOUNT,
      destination,
      quotedAt: new Date(h.now()),
      deadline: new Date(h.now() + deadlineInMs),
    });

    /** Prepare, fetch (for build actions), and check the action count: what the wallet is shown. */
    async function quote(flow: FlowFixture, req: OptionRequest): Promise<{ state: QuoteState; actions: WireAction[] }> {
      const prepared = expectOption(await port.prepareOption(req));
      expect(prepared.state.flow).toBe(flow.flow);
      expect(prepared.etaS).toBeGreaterThan(0);
      let { state, actions } = prepared;
      if (actions.some((a) => a.type === 'build')) {
        expect(port.fetchActions, 'a build action needs fetchActions').toBeTypeOf('function');
        ({ state, actions } = await port.fetchActions!(req, state, actions.find((a) => a.type === 'build')!.data.data));
      }
      expect(actions.every((a) => a.type === 'walletRpc')).toBe(true);
      expect(port.expectedResults(state)).toBe(actions.length);
      return { state, actions };
    }

    /** A buyer signs (and maybe sends) a quoted option; the adapter accepts it. */
    async function confirmed(flow: FlowFixture, options: { holdBeforeWallet?: boolean; deadlineInMs?: number } = {}) {
      const buyer = await h.newBuyer(flow, AMOUNT);
      const destination = h.newDestination();
      const req = request(flow, buyer.account, destination, options.deadlineInMs);
      const { state, actions } = await quote(flow, req);
      if (options.holdBeforeWallet) await h.holdBroadcasts();
      const results = await buyer.act(actions);
      const verdict = await port.verifyResults(req, state, results);
      if (!verdict.ok) throw new Error(`verify refused an honest payment: ${verdict.code} ${verdict.message}`);
      return {
        req,
        destination,
        submission: verdict.submission,
        record: paymentRecord(verdict.txId ?? null, h.now),
      };
    }

    /** One job run, as the job does it: a submitted id is recorded when none is. */
    async function step(req: OptionRequest, submission: Submission, record: ReturnType<typeof paymentRecord>): Promise<TransferState> {
      const answer = await port.advance(req, submission, record.state.txId, record.ctx());
      if (answer.state === 'submitted' && record.state.txId === null) record.state.txId = answer.txId;
      return answer;
    }

    /** Runs the job until the transfer is final, a block between runs; every step is kept. */
    async function settle(req: OptionRequest, submission: Submission, record: ReturnType<typeof paymentRecord>) {
      const steps: TransferState[] = [];
      for (let i = 0; i < MAX_STEPS; i++) {
        const s = await step(req, submission, record);
        steps.push(s);
        if (s.state === 'confirmed' || s.state === 'failed') break;
        await h.mine(1);
      }
      return { last: steps[steps.length - 1]!, steps };
    }

    it('names its namespace, serves its chain only, and tells valid addresses from invalid ones', () => {
      expect(port.namespace).toBe(h.namespace);
      expect(port.supportsChain(h.caip2)).toBe(true);
      expect(port.supportsChain(h.otherChain)).toBe(false);
      for (const a of h.addresses.valid) expect(port.isValidAddress(a), a).toBe(true);
      for (const a of h.addresses.invalid) expect(port.isValidAddress(a), a).toBe(false);
    });

    it('is what a chain registry built from it answers for each chain it serves, and nothing for another', () => {
      const registry = createChainRegistry([h.port]);
      const served = new Set([h.caip2, ...h.flows.map((f) => `${f.asset.parsed.chain.namespace}:${f.asset.parsed.chain.reference}`)]);
      for (const caip2 of served) expect(registry.forChain(caip2), caip2).toBe(h.port);
      expect(registry.forChain(h.otherChain)).toBeUndefined();
      expect(createChainRegistry([]).forChain(h.caip2)).toBeUndefined();
    });

    it('offers the declared flows', () => {
      expect(h.flows.map((f) => f.flow)).toEqual(declared.map((d) => d.flow));
    });

    describe.each(declared)('flow $flow', (d) => {
      const flow = () => h.flows.find((f) => f.flow === d.flow)!;

      it('prepare → wallet → verify → advance to confirmed pays the merchant the amount to the base unit; advance again is idempotent', async () => {
        const { req, destination, submission, record } = await confirmed(flow());
        const { last, steps } = await settle(req, submission, record);
        expect(steps.filter((s) => s.state === 'failed')).toEqual([]);
        expect(last).toMatchObject({ state: 'confirmed', txId: record.state.txId });
        expect(await h.balance(destination, flow().asset)).toBe(AMOUNT);
        const records = record.state.records;
        await h.mine(1);
        for (let i = 0; i < 2; i++) expect(await step(req, submission, record)).toEqual(last);
        expect(record.state.records).toBe(records);
        expect(await h.balance(destination, flow().asset)).toBe(AMOUNT);
      }, 120_000);

      it('a crash between record and broadcast is found again from the record, and pays once', async () => {
        const { req, destination, submission, record } = await confirmed(flow());
        if (record.state.txId === null) {
          // The service records its own transaction in advance: the process dies right after.
          record.state.crashAfterRecord = true;
          await expect(port.advance(req, submission, null, record.ctx())).rejects.toThrow('crash after record');
          record.state.crashAfterRecord = false;
          expect(record.state.records).toBe(1);
        }
        // Either way the id is recorded and nothing was broadcast by the job yet.
        const recorded = record.state.txId;
        const records = record.state.records;
        expect(recorded).not.toBeNull();
        if (!flow().walletBroadcasts) {
          await h.mine(1);
          expect(await h.balance(destination, flow().asset)).toBe(0n);
        }
        const { last } = await settle(req, submission, record);
        expect(last).toMatchObject({ state: 'confirmed', txId: recorded });
        expect(record.state.records).toBe(records);
        expect(await h.balance(destination, flow().asset)).toBe(AMOUNT);
      }, 120_000);

      it('a crash after broadcast, before its answer was kept, is found again: no second transfer', async () => {
        const { req, destination, submission, record } = await confirmed(flow());
        await port.advance(req, submission, record.state.txId, record.ctx()); // its answer is lost
        // What was sent is on record (recorded before broadcast, or known since confirm).
        const first = record.state.txId;
        const records = record.state.records;
        expect(first).not.toBeNull();
        const { last } = await settle(req, submission, record);
        expect(last).toMatchObject({ state: 'confirmed', txId: first });
        expect(record.state.records).toBe(records);
        expect(await h.balance(destination, flow().asset)).toBe(AMOUNT);
      }, 120_000);

      it('a transaction the node holds but has not included is never failed, and confirms once included', async () => {
        const { req, destination, submission, record } = await confirmed(flow(), { holdBeforeWallet: flow().walletBroadcasts });
        try {
          if (!flow().walletBroadcasts) await h.holdBroadcasts();
          for (let i = 0; i < 3; i++) expect(['pending', 'submitted']).toContain((await step(req, submission, record)).state);
          expect(await h.balance(destination, flow().asset)).toBe(0n);
        } finally {
          await h.releaseBroadcasts();
        }
        const { last } = await settle(req, submission, record);
        expect(last).toMatchObject({ state: 'confirmed', txId: record.state.txId });
        expect(await h.balance(destination, flow().asset)).toBe(AMOUNT);
      }, 120_000);

      it('a transaction held unmined past the replacement bound is never failed, and pays once when included', async () => {
        const { req, destination, submission, record } = await confirmed(flow(), { holdBeforeWallet: flow().walletBroadcasts });
        const ids = new Set<string>(record.state.txId === null ? [] : [record.state.txId]);
        const known = ids.size;
        try {
          if (!flow().walletBroadcasts) await h.holdBroadcasts();
          for (let i = 0; i < 2; i++) {
            const s = await step(req, submission, record);
            expect(['pending', 'submitted']).toContain(s.state);
            if (record.state.txId) ids.add(record.state.txId);
            // Past any replacement bound (the service's clock; the quote's deadline stays ahead).
            await h.passTime(5 * 60_000);
          }
          // Replacing (where the service signs) keeps a single recorded transaction, in place of the old.
          expect(record.state.records).toBe(ids.size - known);
          expect(await h.balance(destination, flow().asset)).toBe(0n);
        } finally {
          await h.releaseBroadcasts();
        }
        const { last, steps } = await settle(req, submission, record);
        expect(steps.filter((s) => s.state === 'failed')).toEqual([]);
        expect(last.state).toBe('confirmed');
        expect(await h.balance(destination, flow().asset)).toBe(AMOUNT);
      }, 120_000);

      // A reorg after confirm: the payment succeeded, its block is dropped. Followed to finality,
      // the service's own transaction is sent again from its recorded bytes and ends final with the
      // merchant paid; a wallet's own transaction (whose bytes only the wallet has) is never final
      // while it is off the chain. An adapter without followFinality confirms only at finality. A
      // harness that cannot drop blocks (the Solana sandbox; its drops are in
      // adapters/chains/solana/finality.test.ts) checks that a transfer left on the chain ends final.
      it('a reorg after confirm: followed to finality, sent again and final, never final while off the chain', async () => {
        const { mark, reorg } = h.faults;
        if (!port.followFinality) return;
        if (!mark || !reorg) {
          const { req, submission, record } = await confirmed(flow());
          expect((await settle(req, submission, record)).last).toMatchObject({ state: 'confirmed' });
          const txId = record.state.txId!;
          let answer = await port.followFinality(req, submission, txId, record.state.rawTx);
          for (let i = 0; answer.state === 'pending' && i < MAX_STEPS; i++) {
            await h.mine(1);
            answer = await port.followFinality(req, submission, txId, record.state.rawTx);
          }
          expect(answer).toEqual({ state: 'final', txId });
          return;
        }
        const early = flow().walletBroadcasts ? await mark() : null;
        const { req, destination, submission, record } = await confirmed(flow());
        const at = early ?? (await mark());
        expect((await settle(req, submission, record)).last).toMatchObject({ state: 'confirmed' });
        const txId = record.state.txId!;
        await reorg(at);
        expect(await h.balance(destination, flow().asset)).toBe(0n);
        const answers = [];
        for (let i = 0; i < MAX_STEPS; i++) {
          answers.push(await port.followFinality(req, submission, txId, record.state.rawTx));
          if (answers.at(-1)!.state !== 'pending') break;
          await h.mine(1);
        }
        if (flow().walletBroadcasts) {
          expect(answers.filter((a) => a.state === 'final')).toEqual([]);
          expect(await h.balance(destination, flow().asset)).toBe(0n);
        } else {
          expect(answers.at(-1)).toEqual({ state: 'final', txId });
          expect(await h.balance(destination, flow().asset)).toBe(AMOUNT);
        }
      }, 120_000);

      it('a node answering only errors ends nothing: the transfer waits, then confirms once the node answers again', async () => {
        const { req, destination, submission, record } = await confirmed(flow());
        const since = Date.now();
        const undo = h.faults.inject('*', { kind: 'rpc-error', code: -32603, message: 'internal error' });
        try {
          for (let i = 0; i < 2; i++) {
            // An error thrown is a retry for the job; only an answer can end the payment, and it must not.
            const s = await step(req, submission, record).catch(() => null);
            expect(s?.state).not.toBe('failed');
          }
          expect(h.faults.calls({ since }).some((c) => c.fault === 'rpc-error')).toBe(true);
        } finally {
          undo();
        }
        const { last, steps } = await settle(req, submission, record);
        expect(steps.filter((s) => s.state === 'failed')).toEqual([]);
        expect(last.state).toBe('confirmed');
        expect(await h.balance(destination, flow().asset)).toBe(AMOUNT);
      }, 120_000);

      it('a node reading behind the head never fails a transfer that landed, and confirms it once caught up', async () => {
        const { req, destination, submission, record } = await confirmed(flow());
        await step(req, submission, record);
        await h.mine(1);
        const since = Date.now();
        const undo = h.faults.inject('*', { kind: 'lag', by: 3 });
        try {
          for (let i = 0; i < 2; i++) expect((await step(req, submission, record)).state).not.toBe('failed');
          expect(h.faults.calls({ since }).some((c) => c.fault === 'lag')).toBe(true);
        } finally {
          undo();
        }
        const txId = record.state.txId;
        const { last } = await settle(req, submission, record);
        expect(last).toMatchObject({ state: 'confirmed', txId });
        expect(await h.balance(destination, flow().asset)).toBe(AMOUNT);
      }, 120_000);

      // Only where someone else can submit: a wallet-broadcast flow's only submitter is the wallet.
      if (d.submittable)
        it('funds moved by another submitter are never failed: confirmed with that transaction', async () => {
          const elsewhere = flow().submitElsewhere;
          if (!elsewhere) throw new Error(`flow ${d.flow} is declared submittable but its fixture has no submitElsewhere`);
          const { req, destination, submission, record } = await confirmed(flow(), { deadlineInMs: 3 * 3600_000 });
          // Blocks between the quote and the transaction: a search must page through them.
          if (h.scans) await h.mine(h.scans.bound * 2 + 10);
          const head = h.scans ? await h.scans.head() : 0;
          const before = h.scans?.ranges().length ?? 0;
          const theirs = await elsewhere(submission);
          await h.mine(1);
          const { last, steps } = await settle(req, submission, record);
          expect(steps.filter((s) => s.state === 'failed')).toEqual([]);
          expect(last).toMatchObject({ state: 'confirmed', txId: theirs });
          expect(await h.balance(destination, flow().asset)).toBe(AMOUNT);
          if (h.scans) {
            const ranges = h.scans.ranges().slice(before);
            expect(ranges.length).toBeGreaterThanOrEqual(2);
            for (const r of ranges) {
              expect(r.fromBlock).toBeGreaterThan(0);
              expect(r.toBlock - r.fromBlock + 1).toBeLessThanOrEqual(h.scans.bound);
              expect(r.toBlock).toBeLessThanOrEqual(head + MAX_STEPS + 2);
            }
          }
        }, 180_000);

      // Where the adapter searches logs for another submitter's transaction (EVM): a provider capping ranges.
      if (d.submittable && d.searchesLogs)
        it('a provider capping eth_getLogs at 10 blocks still finds funds moved by another submitter: confirmed with that transaction', async () => {
          const { req, destination, submission, record } = await confirmed(flow(), { deadlineInMs: 3 * 3600_000 });
          // Blocks between the quote and the transaction: pages of 10 must walk through them.
          await h.mine(35);
          const since = Date.now();
          h.faults.inject('*', { kind: 'logs-range-cap', maxBlocks: 10 });
          const theirs = await flow().submitElsewhere!(submission);
          await h.mine(1);
          const { last, steps } = await settle(req, submission, record);
          expect(steps.filter((s) => s.state === 'failed')).toEqual([]);
          expect(last).toMatchObject({ state: 'confirmed', txId: theirs });
          expect(await h.balance(destination, flow().asset)).toBe(AMOUNT);
          const logs = h.faults.calls({ since, method: 'eth_getLogs' });
          // Every page the provider answered is within its cap (met here, or remembered from an earlier refusal).
          const accepted = logs.filter((c) => c.fault !== 'logs-range-cap').map((c) => c.params[0] as { fromBlock: string; toBlock: string });
          expect(accepted.length).toBeGreaterThan(0);
          for (const r of accepted) expect(Number(r.toBlock) - Number(r.fromBlock) + 1).toBeLessThanOrEqual(10);
        }, 180_000);

      // Where the service signs or sends the transfer: what it reads first (a nonce, an estimate, a blockhash's state) must not come from the past.
      if (!d.walletBroadcasts && traits.readsNeverGoBackwards)
        it('started while every node lags behind what the last payment saw: nothing is signed on stale state, no wrong end, one transaction once caught up', async () => {
          const first = await confirmed(flow());
          expect((await settle(first.req, first.submission, first.record)).last.state).toBe('confirmed');
          const { req, destination, submission, record } = await confirmed(flow());
          const since = Date.now();
          const undo = h.faults.inject('*', { kind: 'lag', by: 2 });
          try {
            for (let i = 0; i < 2; i++) {
              // A read the adapter cannot trust is an error the job retries: never an end.
              const s = await step(req, submission, record).catch((err: unknown) => ({ state: 'pending' as const, reason: String(err) }));
              expect(s.state, JSON.stringify(s)).not.toBe('failed');
              expect(s.state).not.toBe('confirmed');
            }
            expect(h.faults.calls({ since }).some((c) => c.fault === 'lag')).toBe(true);
          } finally {
            undo();
          }
          const { last, steps } = await settle(req, submission, record);
          expect(steps.filter((s) => s.state === 'failed')).toEqual([]);
          expect(last.state).toBe('confirmed');
          expect(await h.balance(destination, flow().asset)).toBe(AMOUNT);
          // One signed transaction for this payment, sent as often as it took: a stale nonce would have been refused and signed again.
          const sent = h.faults.calls({ since }).filter((c) => c.method === 'eth_sendRawTransaction' || c.method === 'sendTransaction');
          expect(new Set(sent.map((c) => JSON.stringify(c.params[0]))).size).toBe(1);
        }, 180_000);

      // Where the service pays the fee of the buyer's transfer: a transfer that cannot pay must not cost it.
      if (!d.walletBroadcasts)
        it('a buyer short of the amount: nothing moves, and the service’s fee accounts pay nothing for it (alone or through confirm)', async () => {
          const before = (await port.accounts!()).map((a) => [a.account, a.balance]);
          const buyer = await h.newBuyer(flow(), AMOUNT - 1n);
          const destination = h.newDestination();
          const req = request(flow(), buyer.account, destination);
          const { state, actions } = await quote(flow(), req);
          const results = await buyer.act(actions);
          // The buyer lands what it signed without the service: the node refuses it (the service has not signed).
          if (flow().broadcastAlone) expect(await flow().broadcastAlone!(results)).not.toBeNull();
          const verdict = await port.verifyResults(req, state, results);
          if (verdict.ok) {
            const { steps } = await settle(req, verdict.submission, paymentRecord(verdict.txId ?? null, h.now));
            expect(steps.filter((s) => s.state === 'confirmed')).toEqual([]);
          } else expect(['invalid_results', 'invalid_signature']).toContain(verdict.code);
          await h.mine(1);
          expect(await h.balance(destination, flow().asset)).toBe(0n);
          expect((await port.accounts!()).map((a) => [a.account, a.balance])).toEqual(before);
        }, 120_000);

      it.each<Tamper>(['wrong-signer', 'amount', 'destination'])(
        'a wallet result with %s is never paid',
        async (tamper) => {
          const buyer = await h.newBuyer(flow(), AMOUNT);
          const destination = h.newDestination();
          const req = request(flow(), buyer.account, destination);
          const { state, actions } = await quote(flow(), req);
          const verdict = await port.verifyResults(req, state, await buyer.act(actions, { tamper }));
          if (!verdict.ok) {
            expect(['invalid_signature', 'invalid_results']).toContain(verdict.code);
          } else {
            // Accepted only where the chain decides (a hash the wallet sent): it must fail there.
            const { last } = await settle(req, verdict.submission, paymentRecord(verdict.txId ?? null, h.now));
            expect(last.state).toBe('failed');
          }
          // Another account paying in the buyer's place may well fill the destination: still not this payment.
          if (tamper !== 'wrong-signer') expect(await h.balance(destination, flow().asset)).toBeLessThan(AMOUNT);
        },
        120_000,
      );
    });

    it('refuses stored state that is not its own, with a typed answer rather than a crash', async () => {
      const f = h.flows[0]!;
      const buyer = await h.newBuyer(f, AMOUNT);
      const req = request(f, buyer.account, h.newDestination());
      const foreign: QuoteState =
        h.namespace === 'solana'
          ? { flow: 'transfer' }
          : {
              flow: 'spl',
              mint: 'm',
              decimals: 6,
              destinationOwner: 'o',
              amount: '1',
            };
      const broken = JSON.parse('{"flow":"eip3009","typedData":7}') as QuoteState; // a damaged row, as JSON gives it back
      for (const state of [foreign, broken]) {
        expect(await port.verifyResults(req, state, ['0x'])).toMatchObject({
          ok: false,
          code: 'quote_expired',
        });
        expect(() => port.expectedResults(state)).toThrow(AppError);
        if (port.fetchActions) await expect(port.fetchActions(req, state, req.optionId)).rejects.toThrow(AppError);
      }
      const foreignSubmission: Submission =
        h.namespace === 'solana'
          ? { flow: 'transfer' }
          : {
              flow: 'spl',
              transaction: 'AA',
              signature: 's',
              lastValidBlockHeight: 1,
            };
      await expect(port.advance(req, foreignSubmission, null, paymentRecord(null, h.now).ctx())).rejects.toMatchObject({ code: 'invalid_state' });
    });

    // Last: moving the chain's time forward must not shorten the other tests' quotes.
    describe.each(declared)('flow $flow, expired', (d) => {
      it('a quote past its deadline is never paid: refused at verify, or failed by advance with nothing moved', async () => {
        const f = h.flows.find((x) => x.flow === d.flow)!;
        const buyer = await h.newBuyer(f, AMOUNT);
        const destination = h.newDestination();
        const req = request(f, buyer.account, destination, 20_000);
        const { state, actions } = await quote(f, req);
        const results = await buyer.act(actions, { withhold: true });
        await h.expire(req.deadline);
        const verdict = await port.verifyResults(req, state, results);
        if (!verdict.ok) expect(verdict.code).toBe('quote_expired');
        else expect((await settle(req, verdict.submission, paymentRecord(verdict.txId ?? null, h.now))).last.state).toBe('failed');
        expect(await h.balance(destination, f.asset)).toBe(0n);
      }, 120_000);
    });

    // Flows the wallet broadcasts can be paid after their deadline; the adapter finds those funds (late-funds-job.ts).
    describe.each(declared.filter((d) => d.walletBroadcasts))('flow $flow, paid late', (d) => {
      it('a transfer the wallet sends after the deadline is found as late funds once final, for its own option only, never a short one', async () => {
        expect(port.findLateFunds, 'a flow the wallet broadcasts can be paid late: the adapter must find such funds').toBeTypeOf('function');
        const f = h.flows.find((x) => x.flow === d.flow)!;
        const buyer = await h.newBuyer(f, AMOUNT);
        const destination = h.newDestination();
        const req = request(f, buyer.account, destination, 20_000);
        const { state, actions } = await quote(f, req);
        await h.expire(req.deadline);
        const [txId] = await buyer.act(actions);
        let found = await port.findLateFunds!(req, state);
        for (let i = 0; i < MAX_STEPS && !found.found; i++) {
          await h.mine(1);
          found = await port.findLateFunds!(req, state);
        }
        expect(found).toEqual({ found: true, txId: txId!.toLowerCase() });
        expect(await h.balance(destination, f.asset)).toBe(AMOUNT);
        // Another option's tag, or a larger amount than was sent: nothing.
        expect(await port.findLateFunds!({ ...req, optionId: `${req.optionId}_other` }, state)).toEqual({ found: false });
        expect(await port.findLateFunds!({ ...req, amount: AMOUNT + 1n }, state)).toEqual({ found: false });
        // One watcher pass over several quotes: what they read alike (the final head) is read once.
        const reads = new Map<string, Promise<unknown>>();
        const pass: LateFundsPass = {
          once: <T>(key: string, read: () => Promise<T>) => {
            if (!reads.has(key)) reads.set(key, read());
            return reads.get(key) as Promise<T>;
          },
        };
        expect(await port.findLateFunds!(req, state, undefined, pass)).toEqual(found);
        expect(await port.findLateFunds!({ ...req, optionId: `${req.optionId}_other` }, state, undefined, pass)).toEqual({ found: false });
        expect(reads.size).toBeLessThanOrEqual(1);
        // Paying this option, the transaction pays it alone: not twice its amount to the same destination, nor an option whose tag it lacks.
        if (port.paysTogether) {
          expect(await port.paysTogether([{ req, state }], txId!)).toBe(true);
          expect(
            await port.paysTogether(
              [
                { req, state },
                { req: { ...req, optionId: `${req.optionId}_2` }, state },
              ],
              txId!,
            ),
          ).toBe(false);
          expect(
            await port.paysTogether(
              [
                { req, state },
                { req, state },
              ],
              txId!,
            ),
          ).toBe(false);
        }
      }, 120_000);
    });

    // Transactions the wallet broadcasts itself, with no confirm (Solana Pay): the service's fee account is not in them.
    describe.each(declared.filter((d) => d.walletTransactions))('flow $flow, wallet transactions', (d) => {
      it('answers the same transaction while it can land, costs the fee account nothing, and is found once final, for its own option only', async () => {
        expect(port.walletTransaction, 'the flow declares wallet transactions').toBeTypeOf('function');
        const f = h.flows.find((x) => x.flow === d.flow)!;
        const buyer = await h.newBuyer(f, AMOUNT);
        expect(buyer.sendWalletTransaction, 'the harness wallet must sign and send a wallet transaction').toBeTypeOf('function');
        const destination = h.newDestination();
        const req = request(f, buyer.account, destination, 20_000);
        const { state } = await quote(f, req);
        const first = await port.walletTransaction!(req, state);
        if ('refused' in first) throw new Error(first.refused);
        const again = await port.walletTransaction!(req, first.state);
        expect(again).toEqual(first);
        const fees = async () => ((await port.accounts?.()) ?? []).map((a) => a.balance);
        const before = await fees();
        const txId = await buyer.sendWalletTransaction!(first.transaction);
        let found = await port.findLateFunds!(req, first.state);
        for (let i = 0; i < MAX_STEPS && !found.found; i++) {
          await h.mine(1);
          found = await port.findLateFunds!(req, first.state);
        }
        expect(found).toEqual({ found: true, txId });
        expect(await h.balance(destination, f.asset)).toBe(AMOUNT);
        expect(await fees()).toEqual(before);
        expect(await port.findLateFunds!({ ...req, optionId: `${req.optionId}_other` }, first.state)).toEqual({ found: false });
      }, 120_000);
    });

    it('lists the accounts it pays fees from on its chain, and reads a drained one below its minimum', async () => {
      expect(port.accounts, 'every adapter pays fees from an account operators must keep funded').toBeTypeOf('function');
      const funded = await port.accounts!();
      expect(funded.length).toBeGreaterThan(0);
      for (const a of funded) {
        expect(['relayer', 'fee-payer']).toContain(a.role);
        expect(a.chain).toBe(h.caip2);
        expect(a.minimum).toBeGreaterThan(0n);
        expect(a.balance).toBeGreaterThanOrEqual(a.minimum);
      }
      const { account, minimum, balance } = funded[0]!;
      try {
        await h.setServiceBalance(account, minimum - 1n);
        expect((await port.accounts!()).find((a) => a.account === account)).toMatchObject({ balance: minimum - 1n, minimum });
      } finally {
        await h.setServiceBalance(account, balance!);
      }
      expect((await port.accounts!()).find((a) => a.account === account)?.balance).toBe(balance);
    });

    it("says which chain each of its chains' node serves: its own when healthy, another or none when not", async () => {
      expect(port.health, 'every adapter tells readiness and the doctor whether its nodes serve its chains').toBeTypeOf('function');
      const healthy = await port.health!();
      expect(healthy.map((n) => n.chain)).toEqual([h.caip2]);
      expect(healthy.every(nodeServesChain)).toBe(true);
      expect(healthy[0]!.error).toBeUndefined();
      const [misnamed] = await h.broken.misnamed.health!();
      expect(misnamed).toMatchObject({ chain: h.otherChain, comparable: true, served: expect.stringMatching(new RegExp(`^${h.namespace}:`)) });
      expect(misnamed!.served).not.toBe(h.otherChain);
      expect(nodeServesChain(misnamed!)).toBe(false);
      const [down] = await h.broken.unreachable.health!();
      expect(down).toMatchObject({ served: null, error: expect.stringMatching(/^rpc unreachable/) });
      expect(nodeServesChain(down!)).toBe(false);
    }, 30_000);

    it('self-checks its configuration against the chain: every token and endpoint passes as configured; a node nothing answers refuses nothing', async () => {
      expect(port.selfCheck, 'every adapter checks its tokens and endpoints at start and for the doctor').toBeTypeOf('function');
      const assets = h.flows.map((f) => f.asset);
      const checks = await port.selfCheck!(assets, { timeoutMs: 5_000 });
      for (const c of checks) expect(c, `${c.subject}: ${c.detail}`).toMatchObject({ chain: h.caip2, outcome: 'pass' });
      expect(checks.filter((c) => c.subject.startsWith('token ')).length).toBe(assets.length);
      expect(checks.filter((c) => c.subject.startsWith('head ')).length).toBeGreaterThanOrEqual(1);
      // Still offered after the checks: what passed is never refused.
      for (const f of h.flows) expect(expectOption(await port.prepareOption(request(f, (await h.newBuyer(f, AMOUNT)).account, h.newDestination()))).state.flow).toBe(f.flow);
      const down = await h.broken.unreachable.selfCheck!(assets, { timeoutMs: 1_500 });
      expect(down.length).toBeGreaterThan(0);
      for (const c of down) expect(c.outcome, `${c.subject}: ${c.detail}`).toBe('unknown');
    }, 60_000);

    it('called every method of the port', () => {
      const offered = (m: MethodName) =>
        (m !== 'fetchActions' || h.port.fetchActions !== undefined) &&
        (m !== 'accounts' || h.port.accounts !== undefined) &&
        (m !== 'health' || h.port.health !== undefined) &&
        (m !== 'selfCheck' || h.port.selfCheck !== undefined) &&
        (m !== 'followFinality' || h.port.followFinality !== undefined) &&
        (m !== 'findLateFunds' || h.port.findLateFunds !== undefined) &&
        (m !== 'walletTransaction' || h.port.walletTransaction !== undefined);
      for (const [m, n] of Object.entries(counts) as Array<[MethodName, number]>) if (offered(m)) expect(n, m).toBeGreaterThan(0);
      console.info(`chain port conformance (${name}) calls per method: ${JSON.stringify(counts)}`);
    });
  });
}

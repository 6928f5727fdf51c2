// Long because: each scenario of issue 29's "transactions that get through" is one case here, sharing one opened chain and its helpers.
// The chain port's relayer scenarios: what happens to a payment whose fees the service pays when
// the chain behaves as real ones do. Broadcasts refused with the messages real clients send, a
// relayer run dry and topped up too late, a first-time Permit2 payer whose approval is still in
// the pool while the node estimates against the latest block, a USDT buyer with a leftover
// allowance, a merchant sweeping its address, a buyer whose account delegates to looping code,
// dust. Paid means the merchant's balance grew by the amount; the relayer's spend is metered.
import type { Transaction } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssetInfo } from '../../../server/domain/assets.ts';
import { expectOption, type ChainPort, type OptionRequest, type Submission, type TransferState, type WireAction } from '../../../server/ports/chains.ts';
import { paymentRecord } from './harness.ts';

/** How a node answers one broadcast: null lets it through; else it refuses with `error`, keeping the bytes when `keep`. */
export type BroadcastRule = (tx: Transaction) => { keep: boolean; error: string } | null;

export interface ScenarioBuyer {
  account: string;
  /** Runs the actions as a wallet; with `waitForEachTransaction`, each sent transaction is mined before the next action. */
  act(actions: WireAction[], opts?: { waitForEachTransaction?: boolean }): Promise<string[]>;
  /** Delegates the account (EIP-7702) to code whose signature check loops before answering "valid". */
  delegateToLoopingCode(): Promise<void>;
}

/** A relayer-paying chain behind a fault layer, with the world around a payment. */
export interface RelayerHarness {
  port: ChainPort;
  /** Another adapter over the same chain with other settings (a fee policy). */
  adapter(extra: { nativeUsdMicros?: bigint }): ChainPort;
  caip2: string;
  now(): number;
  asset(flow: 'eip3009' | 'permit2' | 'transfer', token: 'usdc' | 'usdt'): AssetInfo;
  newBuyer(asset: AssetInfo, amount: bigint, opts?: { leftoverAllowance?: bigint }): Promise<ScenarioBuyer>;
  newDestination(): string;
  /** A destination already holding `holding` of the asset, whose owner can empty it. */
  sweepableDestination(asset: AssetInfo, holding: bigint): Promise<{ destination: string; sweep(): Promise<void> }>;
  balance(destination: string, asset: AssetInfo): Promise<bigint>;
  allowance(account: string, asset: AssetInfo): Promise<bigint>;
  relayer: { account: string; balance(): Promise<bigint>; setBalance(value: bigint): Promise<void> };
  faults: {
    refuseBroadcasts(rule: BroadcastRule): void;
    clear(): void;
    /** Every signed transaction the adapter broadcast, refused or not. */
    broadcasts(): string[];
    refusals(): Array<{ refusal: { class: string } }>;
  };
  gasUsed(txId: string): Promise<bigint | null>;
  mine(blocks?: number): Promise<void>;
  holdBroadcasts(): Promise<void>;
  releaseBroadcasts(): Promise<void>;
  expire(deadline: Date): Promise<void>;
  close(): Promise<void>;
}

const AMOUNT = 2_500_000n;
const GWEI = 1_000_000_000n;
const MAX_STEPS = 6;

export function relayerScenarios(name: string, open: () => Promise<RelayerHarness>): void {
  describe(`relayer scenarios: ${name}`, () => {
    let h: RelayerHarness;
    let seq = 0;
    beforeAll(async () => {
      h = await open();
    }, 180_000);
    afterAll(async () => {
      await h?.close();
    });

    const request = (asset: AssetInfo, account: string, destination: string, amount = AMOUNT, deadlineInMs = 30 * 60_000): OptionRequest => ({
      paymentId: `pay_relayer_${name}_${++seq}_${h.now()}`,
      optionId: `opt_${seq}`,
      account,
      asset,
      amount,
      destination,
      quotedAt: new Date(h.now()),
      deadline: new Date(h.now() + deadlineInMs),
    });

    /** A buyer quoted, signed and confirmed; the job's record of the payment. */
    async function signed(asset: AssetInfo, opts: { destination?: string; buyer?: ScenarioBuyer; holdWallet?: boolean; deadlineInMs?: number; port?: ChainPort } = {}) {
      const port = opts.port ?? h.port;
      const buyer = opts.buyer ?? (await h.newBuyer(asset, AMOUNT));
      const destination = opts.destination ?? h.newDestination();
      const req = request(asset, buyer.account, destination, AMOUNT, opts.deadlineInMs);
      const prepared = expectOption(await port.prepareOption(req));
      if (opts.holdWallet) await h.holdBroadcasts();
      const results = await buyer.act(prepared.actions);
      const verdict = await port.verifyResults(req, prepared.state, results);
      if (!verdict.ok) throw new Error(`verify refused an honest payment: ${verdict.message}`);
      return { req, destination, buyer, submission: verdict.submission, record: paymentRecord(verdict.txId ?? null, h.now), state: prepared.state };
    }

    async function step(req: OptionRequest, submission: Submission, record: ReturnType<typeof paymentRecord>, port = h.port): Promise<TransferState> {
      const answer = await port.advance(req, submission, record.state.txId, record.ctx());
      if (answer.state === 'submitted' && record.state.txId === null) record.state.txId = answer.txId;
      return answer;
    }

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

    /** No signed transaction was broadcast more than twice: a refusal is answered, not repeated. */
    function noBytesRepeated() {
      const counts = new Map<string, number>();
      for (const raw of h.faults.broadcasts()) counts.set(raw, (counts.get(raw) ?? 0) + 1);
      expect(Math.max(0, ...counts.values())).toBeLessThanOrEqual(2);
    }

    describe('a refused broadcast is answered by what the node said, never re-sent byte for byte', () => {
      const cases: Array<[string, (first: () => Transaction | null) => BroadcastRule]> = [
        [
          'Polygon bor’s minimum tip: re-signed with the tip the node named',
          () => (tx) =>
            (tx.maxPriorityFeePerGas ?? 0n) < 25n * GWEI
              ? { keep: false, error: `transaction underpriced: gas tip cap ${tx.maxPriorityFeePerGas}, minimum needed 25000000000` }
              : null,
        ],
        [
          'geth’s max fee below the block base fee: re-signed with fresh, higher fees',
          (first) => (tx) => {
            const floor = (first()?.maxFeePerGas ?? tx.maxFeePerGas!) + 1n;
            return tx.maxFeePerGas! < floor
              ? { keep: false, error: `max fee per gas less than block base fee: address ${tx.from}, maxFeePerGas: ${tx.maxFeePerGas}, baseFee: ${floor}` }
              : null;
          },
        ],
        [
          'geth’s replacement underpriced: re-signed at the same nonce with a bump',
          (first) => (tx) => (first() === null || tx.hash === first()!.hash ? { keep: false, error: 'replacement transaction underpriced' } : null),
        ],
        [
          'Nethermind’s FeeTooLow: re-signed with higher fees',
          (first) => (tx) =>
            first() === null || tx.hash === first()!.hash
              ? { keep: false, error: `FeeTooLow, MaxFeePerGas too low. MaxFeePerGas: ${tx.maxFeePerGas}, BaseFee: 7, MaxPriorityFeePerGas:1, Block number: 5` }
              : null,
        ],
        [
          'geth’s intrinsic gas too low: re-signed with the gas the node named',
          (first) => (tx) => {
            const needed = (first()?.gasLimit ?? tx.gasLimit) + 5_000n;
            return tx.gasLimit < needed ? { keep: false, error: `intrinsic gas too low: gas ${tx.gasLimit}, minimum needed ${needed}` } : null;
          },
        ],
        [
          'Erigon’s already known (the node kept it): followed',
          (first) => (tx) => (first() === null || tx.hash === first()!.hash ? { keep: true, error: 'ALREADY_EXISTS: already known' } : null),
        ],
      ];
      it.each(cases)(
        '%s',
        async (_label, makeRule) => {
          const asset = h.asset('eip3009', 'usdc');
          const { req, destination, submission, record } = await signed(asset);
          let first: Transaction | null = null;
          const rule = makeRule(() => first);
          h.faults.refuseBroadcasts((tx) => {
            const answer = rule(tx);
            first ??= tx;
            return answer;
          });
          const before = h.faults.broadcasts().length;
          try {
            const { last, steps } = await settle(req, submission, record);
            expect(steps.filter((s) => s.state === 'failed')).toEqual([]);
            expect(last).toMatchObject({ state: 'confirmed', txId: record.state.txId });
          } finally {
            h.faults.clear();
          }
          expect(await h.balance(destination, asset)).toBe(AMOUNT);
          expect(h.faults.broadcasts().length - before).toBeLessThanOrEqual(4);
          noBytesRepeated();
        },
        60_000,
      );
    });

    it('a relayer out of funds fails fast and pauses gasless options; topped up after the deadline, it pays for nothing', async () => {
      const asset = h.asset('eip3009', 'usdc');
      const { req, destination, submission, record } = await signed(asset, { deadlineInMs: 60_000 });
      const funded = await h.relayer.balance();
      await h.relayer.setBalance(10n ** 9n);
      let first: TransferState;
      try {
        first = await step(req, submission, record);
        expect(first).toMatchObject({ state: 'failed', reason: expect.stringMatching(/cannot pay/) });
        expect(h.faults.refusals().some((r) => r.refusal.class === 'insufficient-funds')).toBe(true);
        // Alerted in readiness (the minimum is what the refused transaction needed) and no gasless option meanwhile.
        const [account] = await h.port.accounts!();
        expect(account!.balance!).toBeLessThan(account!.minimum);
        const other = await h.newBuyer(asset, AMOUNT);
        const offered = await h.port.prepareOption(request(asset, other.account, h.newDestination()));
        expect('state' in offered && offered.state.flow).toBe('transfer');
      } finally {
        // Topped up only after the authorization lapsed: nothing the job holds may still be sent.
        await h.expire(req.deadline);
        await h.relayer.setBalance(funded);
      }
      const sent = h.faults.broadcasts().length;
      const late = await step(req, submission, record);
      await h.mine(2);
      expect(late.state).toBe('failed');
      expect(h.faults.broadcasts().length).toBe(sent);
      expect(await h.relayer.balance()).toBe(funded);
      expect(await h.balance(destination, asset)).toBe(0n);
      // Funded again: gasless options are back.
      const again = await h.newBuyer(asset, AMOUNT);
      expect(expectOption(await h.port.prepareOption(request(asset, again.account, h.newDestination()))).state.flow).toBe('eip3009');
    }, 90_000);

    it('a first-time Permit2 payer whose approval is still in the pool is waited for, never released, then paid', async () => {
      const asset = h.asset('permit2', 'usdc');
      let paid: Awaited<ReturnType<typeof signed>>;
      try {
        paid = await signed(asset, { holdWallet: true });
        expect(paid.state).toMatchObject({ flow: 'permit2', approve: true });
        // The node estimates against the latest block, where the approval is not yet.
        for (let i = 0; i < 2; i++) expect(await step(paid.req, paid.submission, paid.record)).toMatchObject({ state: 'pending', reason: expect.stringMatching(/approval/) });
      } finally {
        await h.releaseBroadcasts();
      }
      const { last, steps } = await settle(paid.req, paid.submission, paid.record);
      expect(steps.filter((s) => s.state === 'failed')).toEqual([]);
      expect(last.state).toBe('confirmed');
      expect(await h.balance(paid.destination, asset)).toBe(AMOUNT);
    }, 60_000);

    it('confirm refuses an approval that is not the one asked for (another spender)', async () => {
      const asset = h.asset('permit2', 'usdc');
      const buyer = await h.newBuyer(asset, AMOUNT);
      const req = request(asset, buyer.account, h.newDestination());
      const prepared = expectOption(await h.port.prepareOption(req));
      const [approveAction, signAction] = prepared.actions as [WireAction & { type: 'walletRpc' }, WireAction];
      const params = approveAction.data.params[0] as { data: string };
      // The same approve call naming the relayer instead of Permit2.
      const other = {
        ...approveAction,
        data: {
          ...approveAction.data,
          params: [{ ...params, data: params.data.slice(0, 10) + '0'.repeat(24) + h.relayer.account.slice(2).toLowerCase() + params.data.slice(74) }],
        },
      };
      const results = await buyer.act([other, signAction]);
      expect(await h.port.verifyResults(req, prepared.state, results)).toMatchObject({ ok: false, code: 'invalid_results', message: expect.stringMatching(/another spender/) });
    }, 60_000);

    it('a USDT buyer with a leftover allowance below the amount approves 0 first, and pays', async () => {
      const asset = h.asset('permit2', 'usdt');
      const buyer = await h.newBuyer(asset, AMOUNT, { leftoverAllowance: 1_000n });
      const req = request(asset, buyer.account, h.newDestination());
      const prepared = expectOption(await h.port.prepareOption(req));
      expect(prepared.actions.map((a) => (a.type === 'walletRpc' ? a.data.method : a.type))).toEqual(['eth_sendTransaction', 'eth_sendTransaction', 'eth_signTypedData_v4']);
      const results = await buyer.act(prepared.actions, { waitForEachTransaction: true });
      const verdict = await h.port.verifyResults(req, prepared.state, results);
      if (!verdict.ok) throw new Error(verdict.message);
      const record = paymentRecord(null, h.now);
      const { last } = await settle(req, verdict.submission, record);
      expect(last.state).toBe('confirmed');
      expect(await h.balance(req.destination, asset)).toBe(AMOUNT);
    }, 60_000);

    it('a merchant who sweeps its address to zero before the transfer executes is still paid: the gas limit has headroom', async () => {
      const asset = h.asset('eip3009', 'usdc');
      const swept = await h.sweepableDestination(asset, 5_000_000n);
      const { req, submission, record } = await signed(asset, { destination: swept.destination });
      await h.holdBroadcasts();
      try {
        expect((await step(req, submission, record)).state).toBe('submitted');
        await swept.sweep();
      } finally {
        await h.releaseBroadcasts();
      }
      const { last } = await settle(req, submission, record);
      expect(last.state).toBe('confirmed');
      expect(await h.balance(swept.destination, asset)).toBe(AMOUNT);
      expect(await h.gasUsed(record.state.txId!)).toBeGreaterThan(80_000n);
    }, 60_000);

    it('a buyer whose account has code (EIP-7702) is offered only the direct transfer, and one delegated after signing costs the relayer nothing', async () => {
      const asset = h.asset('eip3009', 'usdc');
      const delegated = await h.newBuyer(asset, AMOUNT);
      await delegated.delegateToLoopingCode();
      const offered = await h.port.prepareOption(request(asset, delegated.account, h.newDestination()));
      expect('state' in offered && offered.state.flow).toBe('transfer');
      const late = await h.newBuyer(asset, AMOUNT);
      const { req, destination, submission, record } = await signed(asset, { buyer: late });
      await late.delegateToLoopingCode();
      const spent = await h.relayer.balance();
      const sent = h.faults.broadcasts().length;
      const { last } = await settle(req, submission, record);
      expect(last).toMatchObject({ state: 'failed', reason: expect.stringMatching(/has code/) });
      expect(h.faults.broadcasts().length).toBe(sent);
      expect(await h.relayer.balance()).toBe(spent);
      expect(await h.balance(destination, asset)).toBe(0n);
    }, 90_000);

    it('dust, and payments whose gas is out of proportion, get only the direct transfer; ordinary ones stay gasless', async () => {
      const asset = h.asset('eip3009', 'usdc');
      const buyer = await h.newBuyer(asset, AMOUNT);
      const quote = async (port: ChainPort, amount: bigint) => {
        const prepared = await port.prepareOption({ ...request(asset, buyer.account, h.newDestination(), amount), valueUsdMicros: amount });
        return 'state' in prepared ? prepared.state.flow : prepared.unavailable;
      };
      expect(await quote(h.port, 1n)).toBe('transfer');
      expect(await quote(h.port, AMOUNT)).toBe('eip3009');
      // Ether at a million dollars: ~91k gas at the sandbox's ~1 gwei is ~91 USD, above 10% of 2.5 USD.
      const dear = h.adapter({ nativeUsdMicros: 1_000_000n * 1_000_000n });
      expect(await quote(dear, AMOUNT)).toBe('transfer');
      expect(await quote(dear, 10_000n * 1_000_000n)).toBe('eip3009');
    }, 60_000);

    it('reports what each relayer transaction cost, from its receipt, once it is in a block', async () => {
      const asset = h.asset('eip3009', 'usdc');
      const { req, submission, record } = await signed(asset);
      const { last } = await settle(req, submission, record);
      expect(last.state).toBe('confirmed');
      const used = await h.gasUsed(record.state.txId!);
      expect(last.feeSpent).toMatchObject({ account: h.relayer.account, txId: record.state.txId });
      expect(last.feeSpent!.amount).toBeGreaterThan(used!);
      expect(last.feeSpent!.amount % used!).toBe(0n);
    }, 60_000);
  });
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageBackends } from '../../../test/helpers/backends.ts';
import { TEST_ASSETS } from '../../../test/helpers/test-app.ts';
import { createAssetRegistry } from '../assets.ts';
import { createPriceTable } from '../prices.ts';
import { newId } from '../ids.ts';
import { newPayment } from '../payments/create-payment.ts';
import { createManualClock } from '../../ports/clock.ts';
import { createChainRegistry, type ChainPort, type OptionRequest, type QuoteState } from '../../ports/chains.ts';
import type { StoragePort } from '../../ports/storage/index.ts';
import type { SqlDb } from '../../../adapters/storage/postgres/sql-db.ts';
import { buildOptions } from './options.ts';

const backends = await storageBackends();
const [BASE_USDC, ETH_USDT, SOL_USDC] = TEST_ASSETS.map((a) => a.id) as [string, string, string];
const BUYER = '0x2f0d3ea04d77a0ccdc76c06dcae3e6b76f91c02f';
const SOL_BUYER = 'AfH8JzF6AiPjzRVVykjedL68Ktt3f5GReouve1KaNcyZ';

/** A chain adapter that prepares deterministic options; `needsApproval` flips what it prepares. */
function fakeChain(namespace: string, prepared: OptionRequest[]): ChainPort & { needsApproval: boolean } {
  const port = {
    needsApproval: true,
    namespace,
    supportsChain: (caip2: string) => caip2.startsWith(`${namespace}:`),
    isValidAddress: () => true,
    async prepareOption(req: OptionRequest) {
      prepared.push(req);
      // No flow where the buyer pays on this fake Solana: a refused fee payer leaves nothing.
      if (namespace === 'solana' && req.feesRefused) return { unavailable: req.feesRefused };
      const state: QuoteState =
        namespace === 'solana'
          ? { flow: 'spl', mint: 'mint', decimals: 6, destinationOwner: 'owner', amount: req.amount.toString() }
          : {
              flow: 'permit2',
              typedData: { types: {}, primaryType: 'PermitWitnessTransferFrom', domain: {}, message: { amount: req.amount.toString() } },
              approve: port.needsApproval,
            };
      return { etaS: 5, state, actions: [{ type: 'build' as const, data: { data: req.optionId } }] };
    },
    expectedResults: () => 1,
    verifyResults: async () => ({ ok: false as const, code: 'invalid_results' as const, message: 'fake' }),
    advance: async () => ({ state: 'pending' as const }),
  };
  return port;
}

describe.each(backends)('gateway options on $name', (backend) => {
  let storage: StoragePort & { db: SqlDb; dispose(): Promise<void> };
  const clock = createManualClock(Date.parse('2026-11-24T12:00:00.000Z'));
  const prepared: OptionRequest[] = [];
  const evm = fakeChain('eip155', prepared);
  const sol = fakeChain('solana', prepared);
  const assets = createAssetRegistry(TEST_ASSETS);
  const deps = () => ({ storage, clock, assets, chains: createChainRegistry([evm, sol]), prices: createPriceTable(), payHost: 'pay.test', quoteTtlS: 300 });

  beforeAll(async () => {
    storage = await backend.open();
  });
  afterAll(async () => {
    await storage?.dispose();
  });

  /** A payable payment of `value` USD minor units, with settlements in every test asset. */
  async function seller(value = '1050') {
    const partner = { id: newId('partner'), name: 'P', defaultVersion: '2026-02-18', createdAt: new Date(clock.now()) };
    await storage.partners.create(partner);
    const merchant = {
      id: newId('merchant'),
      partnerId: partner.id,
      name: 'M',
      email: null,
      iconUrl: null,
      status: 'active' as const,
      createdAt: new Date(clock.now()),
      deletedAt: null,
    };
    await storage.merchants.create(merchant);
    const dest = (asset: string) =>
      asset.startsWith('solana:') ? `${asset.split('/')[0]}:9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM` : `${asset.split('/')[0]}:0x1234567890AbcdEF1234567890aBcdef12345678`;
    const settlements = [BASE_USDC, ETH_USDT, SOL_USDC].map((asset) => ({
      id: newId('cryptoSettlement'),
      partnerId: partner.id,
      merchantId: merchant.id,
      asset,
      destination: dest(asset),
      createdAt: new Date(clock.now()),
    }));
    await storage.settlements.createMany(partner.id, merchant.id, settlements);
    const payment = newPayment({ partnerId: partner.id, merchantId: merchant.id, amount: { unit: 'iso4217/USD', value }, referenceId: 'r', expiresAt: null }, clock.now(), {
      defaultTtlS: 3600,
      maxTtlS: 86_400,
    });
    await storage.payments.create(payment, { event: { id: newId('event'), type: 'payment.created', snapshot: () => ({}) }, jobs: [] });
    const found = (await storage.payments.getForGateway(payment.id))!;
    return { ...found, options: (accounts: string[]) => buildOptions(deps(), found.payment, found, accounts) };
  }
  const quoteRows = async (paymentId: string) =>
    Number((await storage.db.query<{ n: string }>('SELECT count(*) AS n FROM payment_quotes WHERE payment_id = $1', [paymentId])).rows[0]!.n);

  it('offers the same options again instead of writing new quotes: rows stay at one per (account, asset)', async () => {
    const s = await seller();
    const accounts = [`eip155:8453:${BUYER}`, `eip155:1:${BUYER}`, `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:${SOL_BUYER}`];
    const first = await s.options(accounts);
    expect(first.options).toHaveLength(3);
    expect(await quoteRows(s.payment.id)).toBe(3);
    for (let i = 0; i < 5; i++) {
      clock.advance(10_000);
      const again = await s.options(accounts);
      expect(again.options.map((o) => [o.id, o.amount.value, o.expiresAt])).toEqual(first.options.map((o) => [o.id, o.amount.value, o.expiresAt]));
    }
    expect(await quoteRows(s.payment.id)).toBe(3);
  });

  it('replaces a quote whose deadline is near: a wallet is never handed a deadline it cannot meet', async () => {
    const s = await seller();
    const accounts = [`eip155:8453:${BUYER}`];
    const first = await s.options(accounts);
    clock.advance(151_000); // past half of the 300 s quote life
    const later = await s.options(accounts);
    expect(later.options[0]!.id).not.toBe(first.options[0]!.id);
    expect(later.options[0]!.expiresAt - Math.floor(clock.now() / 1000)).toBe(300);
    expect(await quoteRows(s.payment.id)).toBe(2);
    expect((await s.options(accounts)).options[0]!.id).toBe(later.options[0]!.id);
  });

  it('quotes anew when the terms changed (a new destination), and never offers an expired quote', async () => {
    const s = await seller();
    const accounts = [`eip155:8453:${BUYER}`];
    const first = await s.options(accounts);
    const moved = s.settlements.map((x) => (x.asset === BASE_USDC ? { ...x, destination: 'eip155:8453:0x00000000000000000000000000000000000000aa' } : x));
    const changed = await buildOptions(deps(), s.payment, { merchant: s.merchant, settlements: moved }, accounts);
    expect(changed.options[0]!.id).not.toBe(first.options[0]!.id);
    clock.advance(301_000);
    expect((await s.options(accounts)).options[0]!.id).not.toBe(first.options[0]!.id);
  });

  it('counts an account given twice, or in another letter case on EVM, once', async () => {
    const s = await seller();
    const upper = `eip155:8453:0x${BUYER.slice(2).toUpperCase()}`;
    const r = await s.options([`eip155:8453:${BUYER}`, upper, `eip155:8453:${BUYER}`, `eip155:8453:0x2F0d3Ea04D77a0CcDC76c06DcAE3E6B76F91c02F`]);
    expect(r.options).toHaveLength(1);
    expect(await quoteRows(s.payment.id)).toBe(1);
    // The same account in another case later reuses its quote too.
    expect((await s.options([upper])).options[0]!.id).toBe(r.options[0]!.id);
  });

  it('follows what the chain now prepares (an approval no longer needed) under the same option id', async () => {
    const s = await seller();
    const accounts = [`eip155:1:${BUYER}`];
    const first = await s.options(accounts);
    const approveOf = async (optionId: string) => {
      const state = (await storage.quotes.get(s.payment.id, optionId))!.state;
      return state.flow === 'permit2' ? state.approve : null;
    };
    expect(await approveOf(first.options[0]!.id)).toBe(true);
    evm.needsApproval = false;
    try {
      const again = await s.options(accounts);
      expect(again.options[0]!.id).toBe(first.options[0]!.id);
      expect(await approveOf(first.options[0]!.id)).toBe(false);
    } finally {
      evm.needsApproval = true;
    }
  });

  it('keeps what a fetch added to a quote’s state when offering it again', async () => {
    const s = await seller();
    const accounts = [`solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:${SOL_BUYER}`];
    const first = await s.options(accounts);
    const q = (await storage.quotes.get(s.payment.id, first.options[0]!.id))!;
    await storage.quotes.updateState(q.optionId, { ...q.state, messageBase64: 'AAAA' }, q.deadline);
    expect((await s.options(accounts)).options[0]!.id).toBe(q.optionId);
    const kept = (await storage.quotes.get(s.payment.id, q.optionId))!.state;
    expect(kept.flow === 'spl' ? kept.messageBase64 : null).toBe('AAAA');
  });

  it('offers no Solana option for an amount above u64, and still the EVM ones', async () => {
    // 10^18 − 1 cents = ~10^22 base units of a 6-decimal token: past u64 (~1.8 × 10^19), well within uint256.
    const s = await seller('999999999999999999');
    prepared.length = 0;
    const r = await s.options([`eip155:8453:${BUYER}`, `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:${SOL_BUYER}`]);
    expect(r.options.map((o) => o.amount.unit)).toEqual([`caip19/${BASE_USDC}`]);
    expect(r.options[0]!.amount.value).toBe('9999999999999999990000');
    expect(prepared.map((p) => p.asset.id)).toEqual([BASE_USDC]);
    const solOnly = await s.options([`solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:${SOL_BUYER}`]);
    expect(solOnly).toEqual({ options: [], reason: expect.stringMatching(/carry/) });
  });

  it('tells each chain adapter when the partner’s fee budget there is spent, per partner and chain, and answers why when nothing is left', async () => {
    const spender = await seller();
    const other = await seller();
    const solana = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
    const budgeted = { ...deps(), feeBudget: { budget: (chain: string) => (chain === solana ? 10_000n : 10n ** 18n), periodS: 120 } };
    const accounts = [`eip155:8453:${BUYER}`, `${solana}:${SOL_BUYER}`];
    await storage.feeSpending.record({
      partnerId: spender.payment.partnerId,
      paymentId: spender.payment.id,
      chain: solana,
      account: 'payer',
      txId: `sig-${spender.payment.id}`,
      amount: 10_000n,
      at: new Date(clock.now() - 60_000),
    });
    prepared.length = 0;
    const spent = await buildOptions(budgeted, spender.payment, spender, accounts);
    expect(spent.options.map((o) => o.amount.unit)).toEqual([`caip19/${BASE_USDC}`]);
    expect(prepared.map((p) => [p.asset.id, p.feesRefused ?? null])).toEqual([
      [BASE_USDC, null],
      [SOL_USDC, expect.stringMatching(/fee budget on solana:/)],
    ]);
    expect(prepared[0]!.valueUsdMicros).toBe(10_500_000n);
    expect(await buildOptions(budgeted, spender.payment, spender, [`${solana}:${SOL_BUYER}`])).toEqual({ options: [], reason: expect.stringMatching(/spent their fee budget/) });
    // Another partner's payments are not held to this one's spending.
    expect((await buildOptions(budgeted, other.payment, other, accounts)).options).toHaveLength(2);
    // Once the spend leaves the period, the fee payer pays again.
    clock.advance(61_000);
    expect((await buildOptions(budgeted, spender.payment, spender, accounts)).options).toHaveLength(2);
  });
  it('one chain down or hanging: its options are left out with a reason, the other chains answer', async () => {
    const s = await seller();
    const accounts = [`eip155:8453:${BUYER}`, `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:${SOL_BUYER}`];
    const dropped: string[] = [];
    const withSolana = (prepareOption: ChainPort['prepareOption']) => ({
      ...deps(),
      chains: createChainRegistry([evm, { ...sol, prepareOption }]),
      optionsChainBoundMs: 300,
      onChainDropped: (caip2: string, why: string) => dropped.push(`${caip2}: ${why}`),
    });
    // before: the whole options call rejected (one chain's node down) or never answered (hung).
    const down = await buildOptions(
      withSolana(() => Promise.reject(new Error('solana rpc: HTTP 503'))),
      s.payment,
      s,
      accounts,
    );
    expect(down.options.map((o) => o.account)).toEqual([`eip155:8453:${BUYER}`]);
    const hung = await buildOptions(
      withSolana(() => new Promise(() => {})),
      s.payment,
      s,
      accounts,
    );
    expect(hung.options.map((o) => o.account)).toEqual([`eip155:8453:${BUYER}`]);
    expect(dropped).toEqual([expect.stringMatching(/^solana:.*HTTP 503/), expect.stringMatching(/^solana:.*did not answer within 300 ms/)]);
    // Only the one chain, down: no option, and the reason says which chain and why.
    const alone = await buildOptions(
      withSolana(() => Promise.reject(new Error('HTTP 503'))),
      s.payment,
      s,
      [accounts[1]!],
    );
    expect(alone).toEqual({ options: [], reason: expect.stringMatching(/solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp is unavailable \(HTTP 503\)/) });
  });
});

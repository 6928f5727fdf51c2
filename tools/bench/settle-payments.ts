// The settle bench's payments: prepared before the clock (created, options taken by a fresh buyer,
// funded by the faucet, the build fetched and signed: EIP-3009 and Permit2 signatures, a Solana
// transaction), then confirmed as fast as the API takes them, and followed in the database until
// each one has ended. Nothing here is timed but the confirms and what follows them.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createGatewayClient, executeActions, resolveBuildActions, type PaymentOption } from '../../clients/wallet/src/index.ts';
import { createBuyer } from '../demo-wallet/buyer.ts';
import { createSandboxApi, type SandboxInfo } from '../demo-wallet/sandbox-api.ts';
import { createApi, type Api } from '../faults/api.ts';
import type { Flow } from '../faults/load.ts';

export interface Shop {
  api: Api;
  partnerKey: string;
  walletKey: string;
  merchantId: string;
  chainsUrl: string;
  sandbox: SandboxInfo;
  assetOf: Record<Flow, string>;
}

export interface Signed {
  paymentId: string;
  body: { optionId: string; results: Awaited<ReturnType<typeof executeActions>> };
}

export interface Settled {
  /** ms since the epoch: the confirm's answer (the payment in processing). */
  confirmedAt: Map<string, number>;
  /** ms since the epoch: `succeeded_at` as the worker recorded it. */
  succeededAt: Map<string, number>;
  /** Payments that ended otherwise, or not within the bound, with why. */
  problems: string[];
  /** The first confirm sent. */
  start: number;
  /** The last confirm answered. */
  confirmsDone: number;
}

/** Native coin for a buyer who sends the Permit2 approval himself. */
const GAS_MONEY = 10n ** 17n;
// Each preparation mostly waits for its mint (and a Permit2 buyer for his approval) to be mined; mints share blocks.
const PREPARE_IN_FLIGHT = 48;
const CONFIRMS_IN_FLIGHT = 64;

/** Runs `work` over `items` with at most `n` at once. */
async function pool<T, R>(items: T[], n: number, work: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, lane));
  return out;
}

/** The merchant paid in all three flows' assets; answers the shop the payments are made in. */
export async function openShop(bases: string[], partnerKey: string, walletKey: string, chainsUrl: string): Promise<Shop> {
  const api = createApi(bases);
  const faucet = createSandboxApi(chainsUrl);
  const sandbox = await faucet.info();
  const assetOf = {} as Record<Flow, string>;
  for (const flow of ['eip3009', 'permit2', 'spl'] as Flow[]) {
    const asset = sandbox.assets.find((a) => a.flows[0] === flow);
    if (!asset) throw new Error(`GET /sandbox lists no asset paid with ${flow}`);
    assetOf[flow] = asset.caip19;
  }
  const m = await api.call('POST', '/v1/merchants', partnerKey, { merchantName: 'Settle bench', merchantEmail: 'shop@settle.test' }, { 'Idempotency-Key': randomUUID() });
  if (m.status !== 201) throw new Error(`create merchant: ${m.status} ${JSON.stringify(m.body)}`);
  const merchantId = (m.body as { merchant: { id: string } }).merchant.id;
  const evm = '0x1234567890abcdef1234567890abcdef12345678';
  // A Solana destination is payable once its token account exists: the bench opens it with one unit.
  const sol = (await import('@solana/web3.js')).Keypair.generate().publicKey.toBase58();
  const settlements = (['eip3009', 'permit2', 'spl'] as Flow[]).map((flow) => {
    const asset = assetOf[flow];
    return { asset, destination: `${asset.split('/')[0]}:${flow === 'spl' ? sol : evm}` };
  });
  await faucet.fund(settlements[2]!.destination, assetOf.spl, 1n);
  const s = await api.call('POST', `/v1/merchants/${merchantId}/settlements/crypto`, partnerKey, { settlements }, { 'Idempotency-Key': randomUUID() });
  if (s.status !== 201) throw new Error(`settlements: ${s.status} ${JSON.stringify(s.body)}`);
  return { api, partnerKey, walletKey, merchantId, chainsUrl, sandbox, assetOf };
}

/** One payment created and signed by a fresh buyer, up to (not including) the confirm. */
async function prepareOne(shop: Shop, flow: Flow, i: number): Promise<Signed> {
  const body = { amount: { unit: 'iso4217/USD', value: String(100 + (i % 900)) }, referenceId: `settle-${flow}-${i}`, expiresAt: Math.floor(Date.now() / 1000) + 3600 };
  const created = await shop.api.call('POST', '/v1/payments', shop.partnerKey, body, { 'Merchant-Id': shop.merchantId, 'Idempotency-Key': randomUUID() });
  if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
  const paymentId = (created.body as { paymentId: string }).paymentId;
  const client = createGatewayClient({ baseUrl: shop.api.bases[i % shop.api.bases.length]!, apiKey: shop.walletKey });
  const buyer = await createBuyer(shop.sandbox);
  try {
    const asset = shop.assetOf[flow].toLowerCase();
    // A chain left out of an answer is left out for now (its node was slow to answer): a wallet asks again.
    let offer = await client.getOptions(paymentId, { accounts: buyer.accounts });
    let option = offer.options.find((o: PaymentOption) => o.amount.unit.replace(/^caip19\//, '').toLowerCase() === asset);
    for (let again = 0; !option && again < 3; again++) {
      await new Promise((r) => setTimeout(r, 1000));
      offer = await client.getOptions(paymentId, { accounts: buyer.accounts });
      option = offer.options.find((o: PaymentOption) => o.amount.unit.replace(/^caip19\//, '').toLowerCase() === asset);
    }
    if (!option) throw new Error(`no ${flow} option among ${offer.options.map((o) => o.amount.unit).join(', ')}`);
    const faucet = createSandboxApi(shop.chainsUrl);
    await faucet.fund(option.account, shop.assetOf[flow], BigInt(option.amount.value));
    if (flow === 'permit2') await faucet.fund(option.account, null, GAS_MONEY);
    const actions = await resolveBuildActions(option.actions, (build) => client.fetchAction(paymentId, { optionId: option.id, data: build.build.data }));
    return { paymentId, body: { optionId: option.id, results: await executeActions(actions, buyer.signers) } };
  } finally {
    buyer.close();
  }
}

/** N payments signed; one the bench could not prepare is left out and said why (`failures`), not the run. */
export async function prepare(shop: Shop, flow: Flow, n: number): Promise<{ signed: Signed[]; failures: string[] }> {
  const failures: string[] = [];
  const prepared = await pool(
    Array.from({ length: n }, (_, i) => i),
    PREPARE_IN_FLIGHT,
    (i) =>
      prepareOne(shop, flow, i).catch((err: unknown) => {
        failures.push(err instanceof Error ? err.message : String(err));
        return null;
      }),
  );
  return { signed: prepared.filter((p): p is Signed => p !== null), failures };
}

/** Sends every confirm (64 in flight, spread over the API processes) and follows the payments until each has ended or `boundMs` passed. */
export async function confirmAndFollow(shop: Shop, databaseUrl: string, signed: Signed[], boundMs: number): Promise<Settled> {
  const out: Settled = { confirmedAt: new Map(), succeededAt: new Map(), problems: [], start: Date.now(), confirmsDone: 0 };
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    // Confirmed and not ended yet: a released payment goes back to requires_action, which ends it here too.
    const open = new Set<string>();
    let confirming = true;
    const follow = (async () => {
      const deadline = out.start + boundMs;
      while ((confirming || open.size > 0) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        if (open.size === 0) continue;
        const r = await db.query<{ id: string; status: string; succeeded_at: Date | null }>(
          "SELECT id, status, succeeded_at FROM payments WHERE id = ANY($1) AND status <> 'processing'",
          [[...open]],
        );
        for (const row of r.rows) {
          open.delete(row.id);
          if (row.status === 'succeeded' && row.succeeded_at) out.succeededAt.set(row.id, row.succeeded_at.getTime());
          else out.problems.push(`${row.id}: ended ${row.status}`);
        }
      }
      for (const id of open) out.problems.push(`${id}: not ended within ${boundMs / 1000} s`);
    })();
    await pool(signed, CONFIRMS_IN_FLIGHT, async (s) => {
      const res = await shop.api.call('POST', `/v1/gateway/payment/${s.paymentId}/confirm`, shop.walletKey, s.body);
      if (res.status === 200 || res.status === 201) {
        out.confirmedAt.set(s.paymentId, Date.now());
        open.add(s.paymentId);
      } else out.problems.push(`${s.paymentId}: confirm ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    });
    out.confirmsDone = Date.now();
    confirming = false;
    await follow;
    return out;
  } finally {
    await db.end();
  }
}

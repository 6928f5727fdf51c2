// Solana Pay scans of one payment by one account reaching two API processes at once all answer the
// very same transaction, so a buyer who scanned twice cannot pay twice (before: each process built
// its own option and transaction, and both could land). Real child processes on one PostgreSQL.
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceProcess } from '../helpers/processes.ts';
import { postgresAvailable, redisAvailable } from '../helpers/services.ts';
import { startCluster, type Cluster } from './cluster.ts';

const up = (await postgresAvailable()) && (await redisAvailable());

describe.runIf(up)('Solana Pay transaction requests through two API processes', () => {
  let cluster: Cluster;
  let apis: ServiceProcess[];
  beforeAll(async () => {
    cluster = await startCluster('mp_solana_pay');
    apis = await Promise.all([cluster.api(), cluster.api()]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all((apis ?? []).map((p) => p.stop('SIGKILL')));
    await cluster?.close();
  }, 60_000);

  const post = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  it('concurrent scans by one account answer one transaction, from either process', async () => {
    const sol = cluster.chains.chains.solana;
    const asset = cluster.chains.chains.assetConfigs().find((a) => a.id.startsWith('solana:'))!.id;
    const [a, b] = apis as [ServiceProcess, ServiceProcess];
    const partner = { 'Api-Key': cluster.partnerKey };
    const m = await post(`${a.url}/v1/merchants`, { merchantName: 'Two Process Shop', merchantEmail: 'shop@two.test' }, { ...partner, 'Idempotency-Key': `m-${Math.random()}` });
    const merchantId = m.body.merchant.id as string;
    const destination = Keypair.generate().publicKey.toBase58();
    sol.openTokenAccount(destination);
    const s = await post(
      `${a.url}/v1/merchants/${merchantId}/settlements/crypto`,
      { settlements: [{ asset, destination: `${sol.caip2}:${destination}` }] },
      { ...partner, 'Idempotency-Key': `s-${Math.random()}` },
    );
    expect(s.status).toBe(201);
    const p = await post(`${a.url}/v1/payments`, { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: `sp-${Math.random()}` }, { ...partner, 'Merchant-Id': merchantId });
    expect(p.status).toBe(201);
    const paymentId = p.body.paymentId as string;
    const buyer = Keypair.generate().publicKey.toBase58();
    sol.fund(buyer, sol.mint.toBase58(), 10_500_000n);

    const path = `/pay/${paymentId}/solana-pay?asset=${encodeURIComponent(asset)}`;
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => post(`${apis[i % 2]!.url}${path}`, { account: buyer })));
    console.log(`8 concurrent scans: ${answers.map((r) => r.status).join(', ')}`);
    for (const r of answers) expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(new Set(answers.map((r) => r.body.transaction as string)).size).toBe(1);
    // One option handed out for this account and asset, however many were quoted on the way.
    const claims = await cluster.query<{ option_id: string }>('SELECT option_id FROM wallet_requests WHERE payment_id = $1', [paymentId]);
    expect(claims).toHaveLength(1);
    const [quote] = await cluster.query<{ builds: number }>("SELECT jsonb_array_length(state->'walletBuilds') AS builds FROM payment_quotes WHERE option_id = $1", [
      claims[0]!.option_id,
    ]);
    expect(quote!.builds).toBe(1);

    // A later scan, from either process, answers the same bytes again.
    const again = await post(`${b.url}${path}`, { account: buyer });
    expect(again.body.transaction).toBe(answers[0]!.body.transaction);
  }, 120_000);
});

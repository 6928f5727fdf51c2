// The same EIP-3009 confirm sent ~10 times at once to two API processes, two workers running:
// the relayer submits one transaction and the merchant is paid once. Real child processes.
import { id as topic, Wallet, zeroPadValue } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signTypedDataParams } from '../helpers/gateway-env.ts';
import type { ServiceProcess } from '../helpers/processes.ts';
import { postgresAvailable, redisAvailable } from '../helpers/services.ts';
import { startCluster, type Cluster } from './cluster.ts';

const up = (await postgresAvailable()) && (await redisAvailable());

describe.runIf(up)('concurrent confirms of one payment through two API processes', () => {
  let cluster: Cluster;
  let apis: ServiceProcess[];
  let workers: ServiceProcess[];
  beforeAll(async () => {
    cluster = await startCluster('mp_confirm');
    [apis, workers] = await Promise.all([Promise.all([cluster.api(), cluster.api()]), Promise.all([cluster.worker(), cluster.worker()])]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all([...(apis ?? []), ...(workers ?? [])].map((p) => p.stop('SIGKILL')));
    await cluster?.close();
  }, 60_000);

  const post = async (api: ServiceProcess, path: string, key: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${api.url}${path}`, { method: 'POST', headers: { 'Api-Key': key, 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  it('submits once and pays the merchant exactly the amount', async () => {
    const evm = cluster.chains.chains.evm;
    const usdc = cluster.chains.chains.assetConfigs().find((a) => a.symbol === 'USDC' && a.id.startsWith('eip155'))!.id;
    const token = usdc.split(':').pop()!;
    const [a, b] = apis as [ServiceProcess, ServiceProcess];
    const p = await post(
      a,
      '/v1/payments',
      cluster.partnerKey,
      { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: `c-${Math.random()}` },
      { 'Merchant-Id': cluster.merchantId },
    );
    expect(p.status).toBe(201);
    const paymentId = p.body.paymentId as string;
    const wallet = Wallet.createRandom();
    await evm.fund(wallet.address, token, 20_000_000n);
    const o = await post(b, `/v1/gateway/payment/${paymentId}/options`, cluster.walletKey, { accounts: [`${evm.caip2}:${wallet.address}`] });
    expect(o.status).toBe(200);
    const option = o.body.options[0];
    const amount = BigInt(option.amount.value as string);
    const signature = await signTypedDataParams(wallet, option.actions[0].data.params);
    const relayerNonceBefore = await evm.ethersProvider.getTransactionCount(evm.relayer.address);
    const balanceBefore = await evm.balanceOf(cluster.destination, token);
    const fromBlock = await evm.ethersProvider.getBlockNumber();

    const body = { optionId: option.id, results: [{ type: 'walletRpc', data: [signature] }] };
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(apis[i % 2]!, `/v1/gateway/payment/${paymentId}/confirm?maxPollMs=30000`, cluster.walletKey, body)),
    );
    console.log(`10 concurrent confirms: statuses ${answers.map((r) => `${r.status}/${r.body.status ?? r.body.code}`).join(', ')}`);
    for (const r of answers) expect(r.status).toBe(200);
    expect(answers.some((r) => r.body.status === 'succeeded')).toBe(true);
    const txIds = new Set(answers.map((r) => r.body.info?.txId).filter(Boolean));
    expect(txIds.size).toBe(1);

    expect((await evm.ethersProvider.getTransactionCount(evm.relayer.address)) - relayerNonceBefore).toBe(1);
    const transfers = await evm.ethersProvider.getLogs({
      address: token,
      fromBlock,
      topics: [topic('Transfer(address,address,uint256)'), null, zeroPadValue(cluster.destination, 32)],
    });
    expect(transfers).toHaveLength(1);
    expect((await evm.balanceOf(cluster.destination, token)) - balanceBefore).toBe(amount);
    const rows = await cluster.query<{ status: string }>('SELECT status FROM payments WHERE id = $1', [paymentId]);
    expect(rows.map((r) => r.status)).toEqual(['succeeded']);
  }, 120_000);
});

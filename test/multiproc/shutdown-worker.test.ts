// SIGTERM and SIGKILL to a real worker while it runs a job: it takes no new jobs and finishes the
// running one, or past WORKER_SHUTDOWN_TIMEOUT_S (and when killed) leaves it to another worker,
// which picks it up through BullMQ's stalled-job recovery; the payment is paid once.
import { id as topic, Wallet, zeroPadValue } from 'ethers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signTypedDataParams } from '../helpers/gateway-env.ts';
import type { ServiceProcess } from '../helpers/processes.ts';
import { postgresAvailable, redisAvailable } from '../helpers/services.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { startCluster, type Cluster } from './cluster.ts';
import { startRpcGate, type RpcGate } from './rpc-gate.ts';

const up = (await postgresAvailable()) && (await redisAvailable());
/** QUEUE_LOCK_S=5 (cluster.ts): a dead worker's lock lapses within 5 s, and a live worker checks for stalled jobs every 5 s. */
const RECOVERY_BOUND_MS = 30_000;

describe.runIf(up)('SIGTERM and SIGKILL to a worker running a job', () => {
  let cluster: Cluster;
  let gate: RpcGate;
  let api: ServiceProcess;
  let workerEnv: Record<string, string>;
  const workers: ServiceProcess[] = [];
  beforeAll(async () => {
    cluster = await startCluster('mp_shut_worker');
    gate = await startRpcGate(`${cluster.chains.baseUrl}/evm`);
    // Workers reach the chain through the gate; the API (options, signature checks) directly. A
    // held call must outlast the test's steps (starting a second worker takes seconds on a busy
    // machine): with the 8 s default the held broadcast timed out, the job ended its step, and
    // the worker had nothing in flight to be stopped in the middle of (it exited 0, not 1).
    workerEnv = { EVM_RPC_URLS: JSON.stringify({ [cluster.chains.chains.evm.caip2]: gate.url }), RPC_TIMEOUT_MS: '120000' };
    api = await cluster.api();
  }, 180_000);
  afterEach(async () => {
    gate.open();
    await Promise.all(workers.splice(0).map((w) => w.stop('SIGKILL')));
  });
  afterAll(async () => {
    await api?.stop('SIGKILL');
    await gate?.stop();
    await cluster?.close();
  }, 60_000);

  const worker = async (extra: Record<string, string> = {}) => {
    const w = await cluster.worker({ ...workerEnv, ...extra });
    workers.push(w);
    return w;
  };
  const post = async (path: string, key: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${api.url}${path}`, { method: 'POST', headers: { 'Api-Key': key, 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const statusOf = async (paymentId: string) => (await cluster.query<{ status: string }>('SELECT status FROM payments WHERE id = $1', [paymentId]))[0]?.status;

  /** A paid-for EIP-3009 payment confirmed (answered at once): its submission job is next. */
  async function confirmPayment(): Promise<{ paymentId: string; amount: bigint }> {
    const evm = cluster.chains.chains.evm;
    const token = usdcToken();
    const p = await post(
      '/v1/payments',
      cluster.partnerKey,
      { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: `w-${Math.random()}` },
      { 'Merchant-Id': cluster.merchantId },
    );
    expect(p.status).toBe(201);
    const paymentId = p.body.paymentId as string;
    const wallet = Wallet.createRandom();
    await evm.fund(wallet.address, token, 20_000_000n);
    const o = await post(`/v1/gateway/payment/${paymentId}/options`, cluster.walletKey, { accounts: [`${evm.caip2}:${wallet.address}`] });
    const option = o.body.options[0];
    const signature = await signTypedDataParams(wallet, option.actions[0].data.params);
    const c = await post(`/v1/gateway/payment/${paymentId}/confirm?maxPollMs=0`, cluster.walletKey, { optionId: option.id, results: [{ type: 'walletRpc', data: [signature] }] });
    expect(c).toMatchObject({ status: 200, body: { status: 'processing' } });
    return { paymentId, amount: BigInt(option.amount.value as string) };
  }
  const usdcToken = () =>
    cluster.chains.chains
      .assetConfigs()
      .find((a) => a.symbol === 'USDC' && a.id.startsWith('eip155'))!
      .id.split(':')
      .pop()!;

  /** The chain's view of what happened since `since`: relayer transactions sent, transfers to the merchant, the merchant's balance. */
  async function chainSnapshot() {
    const evm = cluster.chains.chains.evm;
    return {
      nonce: await evm.ethersProvider.getTransactionCount(evm.relayer.address),
      block: await evm.ethersProvider.getBlockNumber(),
      balance: await evm.balanceOf(cluster.destination, usdcToken()),
    };
  }
  async function expectPaidOnce(before: Awaited<ReturnType<typeof chainSnapshot>>, amount: bigint, payments = 1) {
    const evm = cluster.chains.chains.evm;
    const after = await chainSnapshot();
    expect(after.nonce - before.nonce).toBe(payments);
    const transfers = await evm.ethersProvider.getLogs({
      address: usdcToken(),
      fromBlock: before.block + 1,
      topics: [topic('Transfer(address,address,uint256)'), null, zeroPadValue(cluster.destination, 32)],
    });
    expect(transfers).toHaveLength(payments);
    expect(after.balance - before.balance).toBe(amount * BigInt(payments));
  }

  it('SIGTERM: takes no new job, finishes the running one, exits 0', async () => {
    const w1 = await worker();
    const before = await chainSnapshot();
    gate.close('eth_sendRawTransaction', 'request');
    const first = await confirmPayment();
    await waitFor('the worker to be sending the transaction', () => gate.held() === 1, 30_000, 50);
    w1.child.kill('SIGTERM');
    await waitFor('the shutdown to start', () => w1.logLines().some((l) => l.msg?.toString().startsWith('worker shutting down')), 5000);
    expect(w1.logLines().find((l) => l.msg?.toString().startsWith('worker shutting down'))).toMatchObject({ jobsInFlight: 1 });
    // A job written now is not taken by the stopping worker: its submission would wait at the gate too.
    const second = await confirmPayment();
    await new Promise((r) => setTimeout(r, 2000));
    expect(gate.held()).toBe(1);
    expect(w1.child.exitCode).toBeNull();
    const opened = Date.now();
    gate.open();
    const exit = await w1.exited;
    console.log(`worker SIGTERM with a job in flight: exit ${exit.code} ${Date.now() - opened} ms after the job could finish`);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(w1.logLines().find((l) => l.msg === 'worker shut down')).toMatchObject({ jobsInFlight: 1 });
    // The rest (following the transfers, the second payment) is another worker's.
    await worker();
    await waitFor('both payments to succeed', async () => (await statusOf(first.paymentId)) === 'succeeded' && (await statusOf(second.paymentId)) === 'succeeded', 60_000, 200);
    await expectPaidOnce(before, first.amount, 2);
  }, 90_000);

  for (const stop of ['bound', 'SIGKILL'] as const) {
    it(`${stop === 'bound' ? 'SIGTERM past WORKER_SHUTDOWN_TIMEOUT_S: exits 1' : 'SIGKILL'} with the transaction sent but unrecorded; another worker finishes the job, paid once`, async () => {
      const w1 = await worker({ WORKER_SHUTDOWN_TIMEOUT_S: '2' });
      const before = await chainSnapshot();
      // The node gets the transaction; the worker never hears back before it goes.
      gate.close('eth_sendRawTransaction', 'answer');
      const { paymentId, amount } = await confirmPayment();
      await waitFor('the worker to be sending the transaction', () => gate.held() === 1, 30_000, 50);
      const w2 = await worker();
      const stopped = Date.now();
      w1.child.kill(stop === 'bound' ? 'SIGTERM' : 'SIGKILL');
      const exit = await w1.exited;
      expect(exit).toEqual(stop === 'bound' ? { code: 1, signal: null } : { code: null, signal: 'SIGKILL' });
      if (stop === 'bound') {
        expect(Date.now() - stopped).toBeLessThan(4000);
        expect(w1.logLines().find((l) => l.msg?.toString().startsWith('worker shutdown bound passed'))).toMatchObject({ jobsInFlight: 1 });
      }
      gate.open();
      await waitFor('the other worker to finish the payment', async () => (await statusOf(paymentId)) === 'succeeded', RECOVERY_BOUND_MS, 250);
      console.log(`worker ${stop === 'bound' ? 'past its shutdown bound' : 'killed'} mid-job: the other worker finished it ${Date.now() - stopped} ms later`);
      // Recovered by BullMQ's stalled-job check (the outbox relay does not enqueue a relayed job again).
      expect(w2.logLines().some((l) => String(l.msg).startsWith('job stalled'))).toBe(true);
      await expectPaidOnce(before, amount);
    }, 90_000);
  }
});

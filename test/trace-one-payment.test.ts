import { randomBytes } from 'node:crypto';
import { Wallet, type HDNodeWallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxChains, type SandboxChains } from '../server/composition/sandbox/index.ts';
import { signTypedDataParams, startGatewayEnv, type GatewayEnv } from './helpers/gateway-env.ts';
import { storageBackends, type StorageBackend } from './helpers/backends.ts';
import { captureLogs, type LogLine } from './helpers/log-capture.ts';
import { eventually, startReceiver } from './webhooks-support.ts';

/**
 * Issue 20's "one trace through everything", on the real app, the sandbox chains and PostgreSQL:
 * the request id of a payment's confirm is on the confirm's request line, on the lines of the jobs
 * it caused (the relayer's submission, the confirmation), and on the webhook attempts that announce
 * the payment's new states; each of those lines names the payment; and the lines of another
 * payment confirmed at the same time carry neither.
 */
const postgres = (await storageBackends()).find((b) => b.name === 'postgresql');
const describeOnPostgres = postgres ? describe : describe.skip;

describeOnPostgres('following one payment through the logs', () => {
  let chains: SandboxChains;
  let env: GatewayEnv;
  let storage: Awaited<ReturnType<StorageBackend['open']>>;
  const { logger, lines } = captureLogs('debug');
  beforeAll(async () => {
    chains = await createSandboxChains();
    storage = await postgres!.open();
    env = await startGatewayEnv({ chains, storage, logger, webhooks: { schedule: [0, 300, 300] } });
  }, 120_000);
  afterAll(async () => {
    await env?.close();
    await storage?.dispose();
    await chains?.close();
  });

  it('carries the confirm request id into its jobs and webhook deliveries, and the payment id on every line about it', async () => {
    const { t } = env;
    const usdc = chains.assetConfigs().find((a) => a.symbol === 'USDC' && a.id.startsWith('eip155:'))!.id;
    const rx = await startReceiver();
    const hook = await t.call('POST', '/v1/webhook-endpoints', {
      key: t.a.key,
      body: { url: rx.url(), enabledEvents: ['payment.created', 'payment.processing', 'payment.succeeded'] },
    });
    expect(hook.status).toBe(201);
    const merchantId = (
      await t.call('POST', '/v1/merchants', {
        key: t.a.key,
        headers: { 'Idempotency-Key': `tr-${Math.random()}` },
        body: { merchantName: 'Trace Shop', merchantEmail: 'shop@trace.test' },
      })
    ).body.merchant.id as string;
    const settled = await t.call('POST', `/v1/merchants/${merchantId}/settlements/crypto`, {
      key: t.a.key,
      headers: { 'Idempotency-Key': `ts-${Math.random()}` },
      body: { settlements: [{ asset: usdc, destination: `eip155:31337:${Wallet.createRandom().address}` }] },
    });
    expect(settled.status).toBe(201);
    const run = Math.random().toString(36).slice(2, 8);

    /** A payment created, then confirmed by a funded buyer, each request with its own Request-Id. */
    /**
     * `w3c`: the confirm comes with a W3C traceparent (a traced wallet) instead of a Request-Id.
     * Only the partner's create sets the trace id; the wallet's calls get ours (issue 30 item 8).
     */
    const pay = async (name: string, w3c: boolean) => {
      const created = await t.call('POST', '/v1/payments', {
        key: t.a.key,
        headers: { 'Merchant-Id': merchantId, 'Request-Id': `create-${name}-${run}` },
        body: { amount: { unit: `caip19/${usdc}`, value: '2500000' }, referenceId: `trace-${name}-${run}` },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.paymentId as string;
      const wallet: HDNodeWallet = Wallet.createRandom().connect(chains.evm.ethersProvider);
      await chains.evm.fund(wallet.address, usdc.split(':').pop()!, 5_000_000n);
      const opts = await t.call('POST', `/v1/gateway/payment/${id}/options`, {
        key: t.a.walletKey,
        headers: { 'Request-Id': `options-${name}-${run}` },
        body: { accounts: [`eip155:31337:${wallet.address}`] },
      });
      // A wallet key does not choose the trace (issue 30 item 8): the options call has ours.
      const optionsId = opts.headers.get('request-id')!;
      expect(optionsId).not.toBe(`options-${name}-${run}`);
      const option = opts.body.options[0] as { id: string; actions: Array<{ data: { params: unknown[] } }> };
      const results = [];
      for (const a of option.actions) results.push({ type: 'walletRpc', data: [await signTypedDataParams(wallet, a.data.params)] });
      const sentId = w3c ? randomBytes(16).toString('hex') : `confirm-${name}-${run}`;
      const confirmed = await t.call('POST', `/v1/gateway/payment/${id}/confirm?maxPollMs=20000`, {
        key: t.a.walletKey,
        headers: w3c ? { traceparent: `00-${sentId}-${randomBytes(8).toString('hex')}-01` } : { 'Request-Id': sentId },
        body: { optionId: option.id, results },
      });
      // The wallet's id is only a link on our request line (before: it became the confirm's trace).
      const confirmId = confirmed.headers.get('request-id')!;
      expect(confirmId).not.toBe(sentId);
      expect(confirmed.headers.get('traceparent')).toBeNull();
      return { id, createId: `create-${name}-${run}`, optionsId, confirmId, sentId };
    };
    // Two payments confirmed at once: their jobs and deliveries interleave in one process.
    const [a, b] = await Promise.all([pay('a', true), pay('b', false)]);
    const announced = (id: string) => rx.received.some((r) => r.body.includes('"payment.succeeded"') && r.body.includes(id));
    expect(await eventually(() => announced(a.id) && announced(b.id), 60_000)).toBe(true);
    await eventually(() => lines.filter((l) => l.msg === 'webhook attempt' && l.eventType === 'payment.succeeded').length >= 2, 10_000);
    await rx.stop();
    // Each delivery starts a trace of its own: the traced wallet's trace id never reaches the
    // partner's receiver (before: its traceparent carried the wallet's id, sampled flag forced).
    const succeededTo = (id: string) => rx.received.find((r) => r.body.includes('"payment.succeeded"') && r.body.includes(id))!;
    for (const p of [a, b]) {
      const sent = succeededTo(p.id).headers.traceparent;
      expect(sent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      expect(sent).not.toContain(p.confirmId);
      // The link: our attempt line names the delivery's own trace id beside the change's.
      expect(lines.some((l) => l.msg === 'webhook attempt' && l.deliveryTraceId === sent!.split('-')[1] && l.traceId === p.confirmId)).toBe(true);
    }

    for (const p of [a, b]) {
      const other = p === a ? b : a;
      const inConfirm = lines.filter((l) => l.traceId === p.confirmId);
      // The confirm's own line, its jobs' lines, and the attempts announcing its outcome.
      expect(inConfirm.find((l) => l.msg === 'request')).toMatchObject({ requestId: p.confirmId, op: expect.stringMatching(/confirm/i), paymentId: p.id, callerTraceId: p.sentId });
      expect(lines.some((l) => l.traceId === p.sentId || l.requestId === p.sentId)).toBe(false);
      expect(inConfirm.some((l) => typeof l.jobId === 'string' || typeof l.type === 'string')).toBe(true);
      const attempts = inConfirm.filter((l) => l.msg === 'webhook attempt').map((l) => l.eventType);
      expect(attempts).toContain('payment.succeeded');
      // payment.created was caused by the create request: its attempt is in that trace.
      expect(lines.find((l) => l.msg === 'webhook attempt' && l.eventType === 'payment.created' && l.paymentId === p.id)).toMatchObject({ traceId: p.createId });
      expect(inConfirm.filter((l) => l.type === 'payment.advance').map((l) => l.msg)).toContain('job completed');
      // Every line in the confirm's trace names this payment, but the webhook batch jobs' own lines:
      // a batch is about an endpoint (its attempts, above, each name their payment).
      expect(inConfirm.filter((l) => l.paymentId !== p.id && l.type !== 'webhook.deliver')).toEqual([]);
      // Every line about the payment names it and is in the trace of one of its own requests.
      const about = lines.filter((l) => JSON.stringify(l).includes(p.id));
      expect(about.length).toBeGreaterThan(3);
      const strays = about.filter((l: LogLine) => l.paymentId !== p.id || ![p.createId, p.optionsId, p.confirmId].includes(String(l.traceId)));
      expect(strays).toEqual([]);
      // Nothing of the other payment's leaks into this one's trace, nor this one's into the other's.
      expect(inConfirm.some((l) => JSON.stringify(l).includes(other.id))).toBe(false);
      expect(lines.filter((l) => l.paymentId === other.id).some((l) => [p.createId, p.optionsId, p.confirmId].includes(String(l.traceId)))).toBe(false);
    }
  }, 120_000);
});

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvmChainAdapter } from '../adapters/chains/evm/gateway-adapter.ts';
import { createSolanaChainAdapter } from '../adapters/chains/solana/gateway-adapter.ts';
import { parseExposition, sampleValue, type Sample } from '../adapters/metrics/conformance/exposition.ts';
import { createPostgresStorage } from '../adapters/storage/postgres/index.ts';
import { createKey, createPartner } from '../server/auth/provisioning.ts';
import { openRuntime, type Runtime } from '../server/composition/runtime.ts';
import { createSandboxChains, type SandboxChains } from '../server/composition/sandbox/index.ts';
import { loadConfig } from '../server/config.ts';
import { DEFAULT_API_VERSION } from '../server/http/versions.ts';
import { signTypedDataParams } from './helpers/gateway-env.ts';
import { dropSchema, postgresAvailable, postgresUrl, requireServices, uniqueSchema } from './helpers/services.ts';
import { eventually, startReceiver } from './webhooks-support.ts';

const TOKEN = 'metrics-token-0123456789abcdef';
const available = await postgresAvailable();
if (requireServices && !available) throw new Error('REQUIRE_SERVICES=1 but PostgreSQL is not reachable');

/**
 * The metrics of a whole API process (the composition root's runtime on PostgreSQL, the inline
 * queue, the sandbox chains) after a scripted session: create a payment, quote it, confirm it,
 * let the relayer settle it and the webhook reach its receiver; then probe it with many ids and
 * paths nobody knows, and read /metrics.
 */
describe.runIf(available)('GET /metrics after a scripted session', () => {
  let sandbox: SandboxChains;
  let runtime: Runtime;
  let server: Server;
  let base: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let partnerKey: string;
  let walletKey: string;
  const schema = uniqueSchema('metrics');
  const dir = mkdtempSync(join(tmpdir(), 'metrics-'));
  const session: Record<string, string> = {};

  const call = async (method: string, path: string, opts: { key?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(opts.key ? { 'Api-Key': opts.key } : {}),
        ...(opts.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...(method === 'POST' ? { 'Idempotency-Key': `k-${Math.random()}` } : {}),
        ...opts.headers,
      },
      ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text, headers: res.headers };
  };
  const scrape = async (): Promise<Sample[]> => {
    const r = await call('GET', '/metrics', { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseExposition(String(r.body));
  };
  const total = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
    samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((n, s) => n + s.value, 0);

  beforeAll(async () => {
    sandbox = await createSandboxChains();
    await (await createPostgresStorage({ url: postgresUrl, schema })).close();
    const config = loadConfig({
      SERVICE_MODE: 'sandbox',
      DATA_DIR: dir,
      PORT: '0',
      LOGO_CHECKS: 'off',
      RATE_LIMIT_PER_S: '0',
      UNAUTHENTICATED_RATE_PER_S: '0',
      METRICS_TOKEN: TOKEN,
      DATABASE_URL: `${postgresUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    });
    const evm = sandbox.evm;
    runtime = await openRuntime(config, {
      role: 'api',
      logger: pino({ level: 'silent' }),
      print: () => {},
      openChains: async () => ({
        assets: sandbox.assetConfigs(),
        ports: [
          createEvmChainAdapter([
            { caip2: evm.caip2, provider: evm.ethersProvider, relayer: new Wallet(evm.relayer.privateKey, evm.ethersProvider), permit2: evm.permit2Address, confirmations: 1 },
          ]),
          createSolanaChainAdapter([{ caip2: sandbox.solana.caip2, connection: sandbox.solana.connection, feePayer: sandbox.solana.feePayer }]),
        ],
        close: async () => {},
      }),
    });
    server = createServer(runtime.api!.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { partner, apiKey } = await createPartner(runtime.storage, { name: 'Metrics partner', version: DEFAULT_API_VERSION, live: false });
    partnerKey = apiKey;
    walletKey = (await createKey(runtime.storage, { partnerId: partner.id, scope: 'wallet', live: false })).apiKey;
    receiver = await startReceiver(() => 200);
  }, 180_000);

  afterAll(async () => {
    await new Promise((r) => server?.close(r));
    await runtime?.close();
    await receiver?.stop();
    await sandbox?.close();
    await dropSchema(schema);
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts every operation by route template, the jobs, transitions, chain steps and webhooks of a paid payment', async () => {
    const usdc = sandbox.assetConfigs().find((a) => a.symbol === 'USDC' && a.id.startsWith('eip155'))!.id;
    const endpoint = await call('POST', '/v1/webhook-endpoints', { key: partnerKey, body: { url: receiver.url(), enabledEvents: ['payment.succeeded'] } });
    expect(endpoint.status).toBe(201);
    const destination = Wallet.createRandom().address;
    const merchant = await call('POST', '/v1/merchants', { key: partnerKey, body: { merchantName: 'Metrics Shop', merchantEmail: 'shop@sandbox.test' } });
    const merchantId = merchant.body.merchant.id as string;
    const settle = await call('POST', `/v1/merchants/${merchantId}/settlements/crypto`, {
      key: partnerKey,
      body: { settlements: [{ asset: usdc, destination: `eip155:31337:${destination}` }] },
    });
    expect(settle.status).toBe(201);
    const created = await call('POST', '/v1/payments', {
      key: partnerKey,
      headers: { 'Merchant-Id': merchantId },
      body: { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: `o-${Math.random()}` },
    });
    expect(created.status).toBe(201);
    const paymentId = created.body.paymentId as string;
    const wallet = Wallet.createRandom();
    await sandbox.evm.fund(wallet.address, usdc.split(':').pop()!, 20_000_000n);
    const options = await call('POST', `/v1/gateway/payment/${paymentId}/options`, { key: walletKey, body: { accounts: [`eip155:31337:${wallet.address}`] } });
    expect(options.status).toBe(200);
    const option = options.body.options[0];
    const signature = await signTypedDataParams(wallet, option.actions[0].data.params);
    const confirmed = await call('POST', `/v1/gateway/payment/${paymentId}/confirm?maxPollMs=20000`, {
      key: walletKey,
      body: { optionId: option.id, results: [{ type: 'walletRpc', data: [signature] }] },
    });
    expect(confirmed.body.status).toBe('succeeded');
    Object.assign(session, { paymentId, merchantId, optionId: option.id, wallet: wallet.address, destination, txId: confirmed.body.info.txId, endpointId: endpoint.body.id ?? '' });
    expect(await eventually(() => receiver.received.some((r) => r.body.includes('payment.succeeded')), 30_000)).toBe(true);
    // The delivery is counted once its outcome is recorded, a moment after the receiver answered.
    expect(await eventually(async () => total(await scrape(), 'webhook_deliveries_total', { outcome: 'delivered' }) >= 1, 15_000)).toBe(true);

    const s = await scrape();
    const requests = (method: string, route: string, status: string) =>
      sampleValue(s, 'http_server_request_duration_seconds_count', { http_request_method: method, http_route: route, http_response_status_code: status });
    expect(requests('POST', '/v1/payments', '201')).toBe(1);
    expect(requests('POST', '/v1/merchants/{merchantId}/settlements/crypto', '201')).toBe(1);
    expect(requests('POST', '/v1/gateway/payment/{id}/options', '200')).toBe(1);
    expect(requests('POST', '/v1/gateway/payment/{id}/confirm', '200')).toBe(1);
    expect(total(s, 'http_server_request_duration_seconds_bucket', { http_route: '/v1/payments', le: '+Inf' })).toBe(1);

    expect(total(s, 'jobs_queued_total', { job_type: 'payment.advance' })).toBeGreaterThanOrEqual(1);
    expect(total(s, 'jobs_completed_total', { job_type: 'payment.advance' })).toBeGreaterThanOrEqual(1);
    expect(total(s, 'jobs_completed_total', { job_type: 'webhook.deliver' })).toBeGreaterThanOrEqual(1);
    expect(total(s, 'job_duration_seconds_count', { job_type: 'payment.advance' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(s, 'jobs_running', { job_type: 'payment.advance' })).toBe(0);
    expect(sampleValue(s, 'jobs_outbox_lag_seconds', {})).toBeGreaterThanOrEqual(0);

    expect(sampleValue(s, 'payment_transitions_total', { from: 'requires_action', to: 'processing' })).toBe(1);
    expect(sampleValue(s, 'payment_transitions_total', { from: 'processing', to: 'succeeded' })).toBe(1);
    expect(sampleValue(s, 'payment_time_to_final_seconds_count', { status: 'succeeded' })).toBe(1);
    expect(sampleValue(s, 'chain_submissions_total', { chain: 'eip155:31337', flow: 'eip3009', outcome: 'submitted' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(s, 'chain_submissions_total', { chain: 'eip155:31337', flow: 'eip3009', outcome: 'confirmed' })).toBe(1);
    expect(sampleValue(s, 'chain_time_to_finality_seconds_count', { chain: 'eip155:31337', flow: 'eip3009' })).toBe(1);
    // One series per relayer key, by its place in the pool (the sandbox's pool has one).
    expect(sampleValue(s, 'chain_service_account_balance', { role: 'relayer', chain: 'eip155:31337', key: '0' })).toBeGreaterThan(0);
    expect(sampleValue(s, 'chain_service_account_balance_minimum', { role: 'relayer', chain: 'eip155:31337', key: '0' })).toBeGreaterThan(0);

    expect(sampleValue(s, 'webhook_delivery_duration_seconds_count', { outcome: 'delivered' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(s, 'payment_long_poll_waiters', {})).toBe(0);
    expect(total(s, 'db_client_connection_count')).toBeGreaterThanOrEqual(1);
    expect(sampleValue(s, 'db_client_connection_pending_requests', {})).toBe(0);
    expect(s.some((x) => x.name === 'process_resident_memory_bytes')).toBe(true);
  }, 120_000);

  it('labels nothing with an id, an address or a raw path, and adds no series for more distinct ids and paths', async () => {
    const probe = async (n: number, tag: string) => {
      for (let i = 0; i < n; i++) {
        const unknownPayment = `pay_01J${tag}${String(i).padStart(4, '0')}ABCDEFGHJKMNPQ`;
        expect((await call('GET', `/v1/payments/${unknownPayment}`, { key: partnerKey, headers: { 'Merchant-Id': session.merchantId! } })).status).toBe(404);
        expect((await call('GET', `/v1/no-such-${tag}-${i}/x`)).status).toBe(404);
        expect((await call('GET', `/pay/${unknownPayment}`)).status).toBeGreaterThanOrEqual(400);
        expect((await call('PROPFIND', `/${tag}/${i}`)).status).toBeGreaterThanOrEqual(400);
      }
    };
    await probe(10, 'A');
    const first = await scrape();
    await probe(40, 'B');
    const second = await scrape();
    // Only the request series: the probes are requests, while background jobs (the late-funds sweep,
    // Solana Pay watchers) may first run between the two scrapes and add their own fixed series.
    const requestSeries = (samples: Sample[]) => samples.filter((x) => x.name.startsWith('http_server')).length;
    expect(requestSeries(second)).toBe(requestSeries(first));
    expect(total(second, 'http_server_request_duration_seconds_count', { http_route: '/v1/payments/{id}', http_response_status_code: '404' })).toBe(50);
    expect(total(second, 'http_server_request_duration_seconds_count', { http_route: 'unmatched' })).toBeGreaterThanOrEqual(100);

    const values = second.flatMap((x) => Object.values(x.labels));
    const leaked = values.filter(
      (v) =>
        /\b(pay|mrch|opt|ptnr|whe|evt|job|key)_[0-9A-Za-z]/.test(v) ||
        /[0-9A-HJKMNP-TV-Z]{26}/.test(v) ||
        /0x[0-9a-fA-F]{40}/.test(v) ||
        /no-such-|\/pay\/pay_/.test(v) ||
        Object.values(session).some((id) => id !== '' && v.includes(id)),
    );
    expect(leaked).toEqual([]);
    // Every route label is a template or the one fixed value.
    const routes = new Set(second.filter((x) => x.labels.http_route !== undefined).map((x) => x.labels.http_route!));
    for (const route of routes) expect(route === 'unmatched' || /^\/[a-z0-9/{}.-]*$/i.test(route)).toBe(true);
    expect(routes.has('/pay/{id}')).toBe(true);
    expect([...new Set(second.filter((x) => x.labels.http_request_method !== undefined).map((x) => x.labels.http_request_method))].sort()).toEqual(['GET', 'POST', '_OTHER']);
  }, 120_000);

  it('counts long-polls while they wait, and times a cancelled payment to its final status', async () => {
    const created = await call('POST', '/v1/payments', {
      key: partnerKey,
      headers: { 'Merchant-Id': session.merchantId! },
      body: { amount: { unit: 'iso4217/USD', value: '500' }, referenceId: `o-${Math.random()}` },
    });
    expect(created.status).toBe(201);
    const id = created.body.paymentId as string;
    const waits = Array.from({ length: 3 }, () => call('GET', `/v1/payments/${id}/status?maxPollMs=20000`, { key: partnerKey, headers: { 'Merchant-Id': session.merchantId! } }));
    expect(await eventually(async () => sampleValue(await scrape(), 'payment_long_poll_waiters', {}) === 3, 15_000)).toBe(true);
    const cancelled = await call('POST', `/v1/payments/${id}/cancel`, { key: partnerKey, headers: { 'Merchant-Id': session.merchantId! }, body: { reason: 'metrics test' } });
    expect(cancelled.status).toBe(200);
    expect((await Promise.all(waits)).map((w) => w.body.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    const s = await scrape();
    expect(sampleValue(s, 'payment_long_poll_waiters', {})).toBe(0);
    expect(sampleValue(s, 'payment_transitions_total', { from: 'requires_action', to: 'cancelled' })).toBe(1);
    expect(sampleValue(s, 'payment_time_to_final_seconds_count', { status: 'cancelled' })).toBe(1);
    expect(
      sampleValue(s, 'http_server_request_duration_seconds_count', { http_request_method: 'GET', http_route: '/v1/payments/{id}/status', http_response_status_code: '200' }),
    ).toBe(3);
  }, 60_000);

  it('answers only the token holder when METRICS_TOKEN is set: 401 in the error shape without it or with another', async () => {
    const none = await call('GET', '/metrics');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ code: 'missing_api_key', message: expect.any(String) });
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    for (const header of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${Buffer.from(`u:${TOKEN}`).toString('base64')}`, TOKEN, `Bearer ${partnerKey}`]) {
      const wrong = await call('GET', '/metrics', { headers: { Authorization: header } });
      expect({ header, status: wrong.status, code: wrong.body.code }).toEqual({ header, status: 401, code: 'invalid_api_key' });
      expect(String(wrong.body)).not.toMatch(/http_server/);
    }
    expect((await call('GET', `/metrics?token=${TOKEN}`)).status).toBe(401);
    const ok = await call('GET', '/metrics', { headers: { Authorization: `bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(String(ok.body)).toMatch(/^# HELP http_server_request_duration_seconds /m);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageBackends } from './helpers/backends.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';
import { createPayment, payableMerchant } from './helpers/payments.ts';
import { startReceiver } from './webhooks-support.ts';
import { closedPort, startSilentServer } from '../adapters/http-fetch/test-support/test-servers.ts';
import { createManualClock } from '../server/ports/clock.ts';
import { silentLogger } from '../server/ports/logger.ts';
import { createWebhookDispatcher } from '../server/jobs/webhook-dispatcher.ts';
import { createWebhookDeliverer } from '../server/domain/webhooks/deliver.ts';
import { createWebhookFetch } from '../server/domain/webhooks/fetcher.ts';
import { guardedFetchFactory } from '../server/composition/webhooks.ts';
import { MAX_WEBHOOK_ENDPOINTS } from '../server/domain/webhooks/limits.ts';
import type { StoragePort } from '../server/ports/storage/index.ts';

const backends = await storageBackends();
const lookup = async (host: string) => {
  if (host.endsWith('.example.com')) return [{ address: '93.184.216.34' }];
  throw new Error('ENOTFOUND');
};

/**
 * Webhooks cannot be turned on the service or its host: endpoints per partner are capped, the
 * delivery log records a failure's class only (not the socket's message, which told a refused port
 * from a closed connection from an HTTP answer: a port scanner), and the API's own port is refused
 * at registration and at every delivery, on every address of this host, in sandbox mode too.
 */
describe.each(backends)('webhook hygiene on $name', (backend) => {
  let t: TestApp;
  let storage: StoragePort;
  let dispose: () => Promise<void>;
  const clock = createManualClock(Date.now());
  /** Stands for the API's own port: a real receiver listens there, so only the rule can refuse it. */
  let own: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    const s = await backend.open();
    storage = s;
    dispose = s.dispose;
    own = await startReceiver();
    t = await startTestApp(s, { clock, allowLoopbackEndpoints: true, webhookLookup: lookup, ownPort: own.port });
  });
  afterAll(async () => {
    await own?.stop();
    await t?.close();
    await dispose?.();
  });

  const create = (key: string, url: string) => t.call('POST', '/v1/webhook-endpoints', { key, body: { url, enabledEvents: ['payment.created'] } });

  it(`caps live endpoints at ${MAX_WEBHOOK_ENDPOINTS} per partner with 409 webhook_endpoint_limit; deleting one makes room`, async () => {
    const p = await t.newPartner();
    const ids: string[] = [];
    for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS; i++) {
      const r = await create(p.key, `https://hooks.example.com/${i}`);
      expect(r.status).toBe(201);
      ids.push(r.body.endpoint.id);
    }
    const over = await create(p.key, 'https://hooks.example.com/over');
    expect(over.status).toBe(409);
    expect(over.body).toEqual({ code: 'webhook_endpoint_limit', message: expect.any(String), details: { limit: MAX_WEBHOOK_ENDPOINTS } });
    expect((await t.call('GET', '/v1/webhook-endpoints', { key: p.key })).body.data).toHaveLength(MAX_WEBHOOK_ENDPOINTS);
    // Another partner is not affected; a deleted endpoint stops counting.
    expect((await create(t.b.key, 'https://hooks.example.com/b')).status).toBe(201);
    expect((await t.call('DELETE', `/v1/webhook-endpoints/${ids[0]}`, { key: p.key })).status).toBe(200);
    expect((await create(p.key, 'https://hooks.example.com/again')).status).toBe(201);
    expect((await create(p.key, 'https://hooks.example.com/over-again')).status).toBe(409);
  });

  it('does not overshoot the cap when creates race', async () => {
    const p = await t.newPartner();
    const results = await Promise.all(Array.from({ length: MAX_WEBHOOK_ENDPOINTS + 8 }, (_, i) => create(p.key, `https://hooks.example.com/race-${i}`)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(MAX_WEBHOOK_ENDPOINTS);
    expect(results.filter((r) => r.status === 409)).toHaveLength(8);
    expect((await t.call('GET', '/v1/webhook-endpoints', { key: p.key })).body.data).toHaveLength(MAX_WEBHOOK_ENDPOINTS);
  });

  it.each([
    ['localhost', (port: number) => `http://localhost:${port}/hook`],
    ['127.0.0.1', (port: number) => `http://127.0.0.1:${port}/hook`],
    ['[::1]', (port: number) => `http://[::1]:${port}/hook`],
    ['0.0.0.0', (port: number) => `http://0.0.0.0:${port}/hook`],
    ['another 127.x', (port: number) => `http://127.0.0.2:${port}/hook`],
    ['an IPv4-mapped loopback', (port: number) => `http://[::ffff:127.0.0.1]:${port}/hook`],
    ['https on localhost', (port: number) => `https://localhost:${port}/hook`],
  ])('refuses an endpoint on the service’s own port via %s, even in sandbox mode', async (_how, url) => {
    const r = await create(t.a.key, url(own.port));
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('params_validation');
    expect(r.body.issues[0].field).toBe('body.url');
  });

  it('still accepts a loopback receiver on another port in sandbox mode', async () => {
    const rx = await startReceiver();
    expect((await create(t.a.key, rx.url())).status).toBe(201);
    await rx.stop();
  });

  const deliverer = (ownPort?: number) =>
    createWebhookDeliverer({
      storage,
      clock,
      logger: silentLogger,
      fetch: createWebhookFetch(guardedFetchFactory, { allowLoopback: true, ...(ownPort !== undefined ? { ownPort } : {}) }),
      allowLoopbackEndpoints: true,
      timeoutMs: 1500,
      schedule: [0, 1000],
    });

  /** One delivery to `url` (written straight to storage: the rule at registration is not the one under test). */
  async function oneAttempt(url: string, ownPort?: number) {
    const partner = await t.newPartner();
    const now = new Date(clock.now());
    const endpointId = `whep_hygiene${Math.random().toString(36).slice(2, 10)}`;
    await storage.webhooks.createEndpoint({
      id: endpointId,
      partnerId: partner.id,
      url,
      enabledEvents: ['payment.created'],
      enabled: true,
      disabledReason: null,
      secret: 'whsec_dGVzdHRlc3R0ZXN0dGVzdHRlc3R0ZXN0',
      previousSecret: null,
      previousSecretExpiresAt: null,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    });
    await createPayment(t, partner.key, await payableMerchant(t, partner.key));
    await createWebhookDispatcher({ storage, clock, logger: silentLogger }).runOnce();
    const [d] = await storage.webhooks.listDeliveries(partner.id, endpointId, { limit: 1 });
    await deliverer(ownPort)({ id: `job_hygiene_${d!.id}`, type: 'webhook.deliver', payload: { deliveryId: d!.id }, runAt: now });
    const api = await t.call('GET', `/v1/webhook-endpoints/${endpointId}/deliveries`, { key: partner.key });
    return { stored: (await storage.webhooks.getDelivery(d!.id))!.attempts[0]!, shown: api.body.data[0].attempts[0] };
  }

  it('records a refused connection as connection_failed, never the socket’s message', async () => {
    const port = await closedPort();
    const { stored, shown } = await oneAttempt(`http://127.0.0.1:${port}/hook`);
    expect(stored).toMatchObject({ statusCode: null, error: 'connection_failed' });
    expect(shown).toMatchObject({ statusCode: null, error: 'connection_failed' });
  });

  it('records a connection closed before any answer as connection_failed too', async () => {
    const net = await import('node:net');
    const server = net.createServer((socket) => socket.destroy());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    const { stored } = await oneAttempt(`http://127.0.0.1:${port}/hook`);
    expect(stored).toMatchObject({ statusCode: null, error: 'connection_failed' });
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('records a receiver that never answers as timeout', async () => {
    const silent = await startSilentServer();
    const { stored, shown } = await oneAttempt(`http://127.0.0.1:${silent.port}/hook`);
    expect(stored).toMatchObject({ statusCode: null, error: 'timeout' });
    expect(shown.error).toBe('timeout');
    await silent.close();
  });

  it('records an HTTP answer as its status only', async () => {
    const rx = await startReceiver(() => 503);
    const { stored } = await oneAttempt(rx.url());
    expect(stored).toMatchObject({ statusCode: 503, error: null });
    await rx.stop();
  });

  it('never delivers to the service’s own port, whatever the endpoint says', async () => {
    for (const host of ['127.0.0.1', 'localhost', '[::1]']) {
      const { stored } = await oneAttempt(`http://${host}:${own.port}/hook`, own.port);
      expect(stored).toMatchObject({ statusCode: null, error: 'connection_failed' });
    }
    expect(own.received).toHaveLength(0);
  });

  it('shows attempts recorded before errors were classed as their class only', async () => {
    const partner = await t.newPartner();
    const ep = await create(partner.key, 'https://hooks.example.com/legacy');
    await createPayment(t, partner.key, await payableMerchant(t, partner.key));
    await createWebhookDispatcher({ storage, clock, logger: silentLogger }).runOnce();
    const [d] = await storage.webhooks.listDeliveries(partner.id, ep.body.endpoint.id, { limit: 1 });
    await storage.webhooks.recordAttempt(
      d!.id,
      { attempt: 1, at: new Date(clock.now()), statusCode: null, durationMs: 1, error: 'unreachable: the connection to 127.0.0.1:9 was refused' },
      { status: 'pending', nextAttemptAt: new Date(clock.now() + 5000) },
    );
    await storage.webhooks.recordAttempt(
      d!.id,
      { attempt: 2, at: new Date(clock.now()), statusCode: null, durationMs: 1, error: 'timeout: no complete response within 15000 ms' },
      { status: 'pending', nextAttemptAt: new Date(clock.now() + 5000) },
    );
    const api = await t.call('GET', `/v1/webhook-endpoints/${ep.body.endpoint.id}/deliveries`, { key: partner.key });
    expect(api.body.data[0].attempts.map((a: { error: string }) => a.error)).toEqual(['connection_failed', 'timeout']);
  });
});

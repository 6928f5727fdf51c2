import type { Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStorage } from '../adapters/storage/postgres/index.ts';
import { createPartner } from '../server/auth/provisioning.ts';
import { openRuntime, type Runtime } from '../server/composition/runtime.ts';
import { loadConfig } from '../server/config.ts';
import { newId } from '../server/domain/ids.ts';
import { dropSchema, postgresAvailable, postgresUrl, uniqueSchema } from './helpers/services.ts';
import { waitFor } from './helpers/wait-for.ts';
import { startReceiver } from './webhooks-support.ts';

const USDC = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

/** Receivers that accept connections and never answer (tarpits), counting the connections open. */
async function tarpit() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.resume();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    open: () => sockets.size,
    url: (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    stop: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/**
 * The service as `npm start` composes it (openRuntime: its job pools, webhook caps and request
 * limits, with the 15 s response timeout of design.md), on PostgreSQL with the inline queue, and
 * two partners: one whose receivers hang, one whose payments and webhooks must not notice.
 * Measured before: four tarpit endpoints fed test events made another partner's paid payment take
 * 72.8 s from processing to succeeded instead of 1.0 s (issue 30).
 */
describe.runIf(await postgresAvailable())('fair capacity between partners, as the service composes it', () => {
  const schema = uniqueSchema('fair');
  let runtime: Runtime;
  let server: Server;
  let base: string;
  const call = async (key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(base + path, {
      method,
      headers: { 'Api-Key': key, 'Content-Type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
  };
  const partner = async (name: string) => (await createPartner(runtime.storage, { name, version: '2026-02-18', live: true })).apiKey;
  const merchantOf = async (key: string) => {
    const m = await call(key, 'POST', '/v1/merchants', { merchantName: 'Shop', merchantEmail: 'shop@example.com' }, { 'Idempotency-Key': newId('job') });
    const id = m.body.merchant.id as string;
    const s = await call(
      key,
      'POST',
      `/v1/merchants/${id}/settlements/crypto`,
      { settlements: [{ asset: USDC, destination: 'eip155:8453:0x1234567890abcdef1234567890abcdef12345678' }] },
      { 'Idempotency-Key': newId('job') },
    );
    expect(s.status).toBe(201);
    return id;
  };

  beforeAll(async () => {
    await (await createPostgresStorage({ url: postgresUrl, schema })).close();
    const config = loadConfig({
      SERVICE_MODE: 'production',
      PORT: '0',
      LOGO_CHECKS: 'off',
      DASHBOARD: 'off',
      WEBHOOK_ALLOW_LOOPBACK: 'on',
      RATE_LIMIT_PER_S: '0',
      DATABASE_URL: `${postgresUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    });
    runtime = await openRuntime(config, {
      role: 'api',
      logger: pino({ level: 'silent' }),
      print: () => {},
      openChains: async () => ({ assets: [], ports: [], close: async () => {} }),
    });
    server = await new Promise<Server>((r) => {
      const s = runtime.api!.app.listen(0, '127.0.0.1', () => r(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    server?.closeAllConnections();
    server?.close();
    await runtime?.close();
    await dropSchema(schema);
  }, 60_000);

  it("a partner whose four receivers hang, fed test events, holds up neither another partner's webhooks nor settlement jobs", async () => {
    const pit = await tarpit();
    const quiet = await startReceiver();
    try {
      const noisy = await partner('Noisy');
      const endpoints: string[] = [];
      for (let i = 0; i < 4; i++)
        endpoints.push((await call(noisy, 'POST', '/v1/webhook-endpoints', { url: pit.url(`/t${i}`), enabledEvents: ['payment.created'] })).body.endpoint.id);
      // Ten test events per endpoint (what the rate limit lets through at once), sent together.
      const sent = await Promise.all(endpoints.flatMap((id) => Array.from({ length: 10 }, () => call(noisy, 'POST', `/v1/webhook-endpoints/${id}/test`))));
      expect(sent.every((r) => r.status === 202)).toBe(true);
      await waitFor('the tarpits to hold attempts open', () => pit.open() >= 8, 30_000);

      const other = await partner('Other');
      await call(other, 'POST', '/v1/webhook-endpoints', { url: quiet.url('/other'), enabledEvents: ['payment.created'] });
      const merchant = await merchantOf(other);
      const created = Date.now();
      const pay = await call(other, 'POST', '/v1/payments', { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: 'r', expiresAt: null }, { 'Merchant-Id': merchant });
      expect(pay.status).toBe(201);
      // A settlement job beside it (for a payment that does not exist: it runs and completes at once).
      const jobId = newId('job');
      await runtime.storage.jobs.insert([
        {
          id: jobId,
          type: 'payment.advance',
          payload: { paymentId: 'pay_missing', optionId: 'opt_x', stateVersion: 2, chain: 'eip155:8453' },
          runAt: new Date(),
          createdAt: new Date(),
        },
      ]);
      runtime.jobs.relay.notify();
      await waitFor("the other partner's payment.created", () => quiet.received.some((r) => r.body.includes(pay.body.paymentId as string)), 8_000);
      const deliveredAfterMs = Date.now() - created;
      await waitFor('the settlement job to complete', async () => Boolean((await runtime.storage.jobs.get(jobId))?.completedAt), 8_000);
      // The hanging partner holds at most its in-flight cap (half the webhook pool), never all of it.
      expect(pit.open()).toBeLessThanOrEqual(runtime.config.webhookPartnerInFlight);
      expect(deliveredAfterMs).toBeLessThan(8_000);
    } finally {
      await pit.stop();
      await quiet.stop();
    }
  }, 120_000);

  it('limits test events per endpoint and redeliveries per partner: 429 with Retry-After in the error shape, other endpoints unaffected', async () => {
    const key = await partner('Tester');
    const rx = await startReceiver();
    try {
      const [a, b] = [
        (await call(key, 'POST', '/v1/webhook-endpoints', { url: rx.url('/a'), enabledEvents: ['payment.created'] })).body.endpoint.id,
        (await call(key, 'POST', '/v1/webhook-endpoints', { url: rx.url('/b'), enabledEvents: ['payment.created'] })).body.endpoint.id,
      ];
      for (let i = 0; i < 10; i++) expect((await call(key, 'POST', `/v1/webhook-endpoints/${a}/test`)).status).toBe(202);
      const refused = await call(key, 'POST', `/v1/webhook-endpoints/${a}/test`);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/test events/), details: { retryAfterS: expect.any(Number) } });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await call(key, 'POST', `/v1/webhook-endpoints/${b}/test`)).status).toBe(202);

      const merchant = await merchantOf(key);
      await call(key, 'POST', '/v1/payments', { amount: { unit: 'iso4217/USD', value: '100' }, referenceId: 'r', expiresAt: null }, { 'Merchant-Id': merchant });
      await waitFor('a delivery of the payment event', () => rx.received.some((r) => r.path === '/a' && r.body.includes('payment.created')), 20_000);
      const eventId = JSON.parse(rx.received.find((r) => r.path === '/a' && r.body.includes('payment.created'))!.body).id as string;
      // 100 at once, then 2 a second: asked as fast as they answer, the refusal comes soon after the 100th.
      const started = Date.now();
      let accepted = 0;
      let last = 0;
      for (let i = 0; i < 300 && last !== 429; i++) {
        last = (await call(key, 'POST', `/v1/webhook-endpoints/${a}/events/${eventId}/redeliver`)).status;
        if (last === 202) accepted++;
      }
      expect(last).toBe(429);
      expect(accepted).toBeGreaterThanOrEqual(100);
      expect(accepted).toBeLessThanOrEqual(100 + Math.ceil((2 * (Date.now() - started)) / 1000));
      // Unknown events still answer 404 (checked before the count), not 429.
      expect((await call(key, 'POST', `/v1/webhook-endpoints/${a}/events/evt_nope/redeliver`)).status).toBe(404);
    } finally {
      await rx.stop();
    }
  }, 120_000);
});

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../server/auth/provisioning.ts';
import { storageBackends } from './helpers/backends.ts';
import { captureLogs } from './helpers/log-capture.ts';
import { createPayment, payableMerchant } from './helpers/payments.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * Issue 30 item 8: only a partner key's request may set the trace id (its `traceparent`, else its
 * `Request-Id`), which then names the jobs, events and webhook deliveries it causes. A wallet key,
 * an App-Id (a buyer's browser) or a request without a valid key gets a trace of its own; what it
 * sent is only logged, as `callerTraceId` beside ours. Before: every caller's id was adopted.
 */
const [backend] = await storageBackends();

describe('who may set the trace id', () => {
  let t: TestApp;
  let store: Awaited<ReturnType<NonNullable<typeof backend>['open']>>;
  const { logger, lines } = captureLogs('info');
  let paymentId: string;
  let appId: string;
  beforeAll(async () => {
    store = await backend!.open();
    t = await startTestApp(store, { logger });
    const merchantId = await payableMerchant(t, t.a.key);
    const created = await createPayment(t, t.a.key, merchantId);
    expect(created.status).toBe(201);
    paymentId = created.body.paymentId as string;
    appId = (await createKey(t.storage, { partnerId: t.a.id, scope: 'app', live: false })).apiKey;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await store?.dispose();
  });

  const traceparentOf = (traceId: string) => `00-${traceId}-${randomBytes(8).toString('hex')}-01`;
  const requestLine = (id: string) => lines.find((l) => l.msg === 'request' && l.requestId === id);

  const callers: Array<[string, boolean, (headers: Record<string, string>) => ReturnType<TestApp['call']>]> = [
    ['a partner key', true, (headers) => t.call('GET', '/v1/merchants', { key: t.a.key, headers })],
    ['a partner key on a payment', true, (headers) => t.call('GET', `/v1/payments/${paymentId}`, { key: t.a.key, headers })],
    ['a wallet key', false, (headers) => t.call('GET', `/v1/gateway/payment/${paymentId}`, { key: t.a.walletKey, headers })],
    ['an App-Id', false, (headers) => t.call('GET', `/v1/gateway/payment/${paymentId}`, { headers: { 'App-Id': appId, 'Client-Id': 'install-1', ...headers } })],
    ['no key', false, (headers) => t.call('GET', '/v1/merchants', { headers })],
    ['an unknown partner key', false, (headers) => t.call('GET', '/v1/merchants', { key: `sk_test_${'x'.repeat(40)}`, headers })],
  ];

  it.each(callers)('%s: the caller’s traceparent and Request-Id are adopted only for partner keys', async (_who, adopted, call) => {
    for (const via of ['traceparent', 'Request-Id'] as const) {
      const theirs = randomBytes(16).toString('hex');
      const sent = via === 'traceparent' ? traceparentOf(theirs) : theirs;
      const r = await call({ [via]: sent });
      expect(r.status).toBeLessThan(500);
      const ours = r.headers.get('request-id')!;
      expect(ours).toMatch(/^[0-9a-f]{32}$/);
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (adopted) {
        expect(ours).toBe(theirs);
        expect(r.headers.get('traceparent')).toBe(via === 'traceparent' ? sent : null);
        expect(requestLine(ours)).toMatchObject({ requestId: theirs, traceId: theirs });
        expect(requestLine(ours)?.callerTraceId).toBeUndefined();
      } else {
        expect(ours).not.toBe(theirs);
        expect(r.headers.get('traceparent')).toBeNull();
        // A link, never the trace: their id is on our request line beside ours.
        expect(requestLine(ours)).toMatchObject({ requestId: ours, traceId: ours, callerTraceId: theirs });
        expect(lines.some((l) => l.traceId === theirs || l.requestId === theirs)).toBe(false);
      }
    }
  });

  it('a partner’s create writes its event (and no job) in the partner’s trace, a wallet’s cancel its event in ours', async () => {
    const theirs = randomBytes(16).toString('hex');
    const merchantId = await payableMerchant(t, t.a.key, 'Traced');
    const created = await createPayment(t, t.a.key, merchantId, {}, { traceparent: traceparentOf(theirs) });
    expect(created.headers.get('request-id')).toBe(theirs);
    const jobs = await store.db.query<{ trace_id: string | null; type: string }>("SELECT trace_id, type FROM outbox_jobs WHERE payload::text LIKE '%' || $1 || '%'", [
      created.body.paymentId,
    ]);
    // A create writes no job (payments expire by sweep); its event below carries the partner's trace.
    expect(jobs.rows).toEqual([]);

    const buyers = randomBytes(16).toString('hex');
    const cancelled = await t.call('POST', `/v1/gateway/payment/${created.body.paymentId}/cancel`, {
      key: t.a.walletKey,
      headers: { traceparent: traceparentOf(buyers) },
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBeLessThan(300);
    const ours = cancelled.headers.get('request-id')!;
    expect(ours).not.toBe(buyers);
    const events = await store.db.query<{ trace_id: string | null; type: string }>('SELECT trace_id, type FROM payment_events WHERE payment_id = $1 ORDER BY state_version', [
      created.body.paymentId,
    ]);
    expect(events.rows.map((e) => [e.type, e.trace_id])).toEqual([
      ['payment.created', theirs],
      ['payment.cancelled', ours],
    ]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStorage } from '../adapters/storage/postgres/index.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';
import { captureLogs } from './helpers/log-capture.ts';
import { createPayment, payableMerchant } from './helpers/payments.ts';
import { openEmbeddedStorage } from './helpers/embedded-storage.ts';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE}-00f067aa0ba902b7-01`;
/** A new request id: a W3C trace id (32 lower-case hex), so webhooks can send it on. */
const NEW_ID = /^[0-9a-f]{32}$/;

/**
 * The request id as a caller meets it: a W3C `traceparent` is taken (its trace id becomes the
 * request id, on the request's log lines) and echoed; a malformed or hostile one is ignored and the
 * request gets an id of its own; a request about one payment logs its id.
 */
describe('request ids and W3C traceparent', () => {
  let t: TestApp;
  let storage: Awaited<ReturnType<typeof createPostgresStorage>>;
  const { logger, lines } = captureLogs('info');
  let readMerchant: string;
  beforeAll(async () => {
    storage = await openEmbeddedStorage();
    t = await startTestApp(storage, { logger });
    readMerchant = await payableMerchant(t, t.a.key, 'Read');
  });
  afterAll(async () => {
    await t?.close();
    await storage?.close();
  });

  /**
   * A partner's read of a payment that does not exist (404), with these headers; and its request
   * line. (Only partner keys set the trace id: test/trace-caller-kinds.test.ts has the other callers.)
   */
  const call = async (headers: Record<string, string>) => {
    const id = `pay_01M8000000000000000000${Math.floor(Math.random() * 9000 + 1000)}`;
    const r = await t.call('GET', `/v1/payments/${id}`, { key: t.a.key, headers: { 'Merchant-Id': readMerchant, ...headers } });
    const requestId = r.headers.get('request-id')!;
    const line = lines.find((l) => l.msg === 'request' && l.requestId === requestId);
    return { r, id, requestId, line };
  };

  it("takes a traceparent's trace id as the request id, echoes the header, and logs both with the payment", async () => {
    const { r, id, requestId, line } = await call({ traceparent: TRACEPARENT });
    expect(r.status).toBe(404);
    expect(requestId).toBe(TRACE);
    expect(r.headers.get('traceparent')).toBe(TRACEPARENT);
    expect(line).toMatchObject({ requestId: TRACE, traceId: TRACE, paymentId: id, status: 404 });
  });

  it('prefers a valid traceparent to a Request-Id, and keeps the Request-Id when the traceparent is bad', async () => {
    expect((await call({ traceparent: TRACEPARENT, 'Request-Id': 'caller-id-1' })).requestId).toBe(TRACE);
    const bad = await call({ traceparent: `ff-${TRACE}-00f067aa0ba902b7-01`, 'Request-Id': 'caller-id-2' });
    expect(bad.requestId).toBe('caller-id-2');
    expect(bad.r.headers.get('traceparent')).toBeNull();
    expect(bad.line).toMatchObject({ traceId: 'caller-id-2' });
  });

  it.each([
    ['an all-zero trace id', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`],
    ['upper-case hex', TRACEPARENT.toUpperCase()],
    ['a truncated header', TRACEPARENT.slice(0, 40)],
    ['a huge header', `01-${TRACE}-00f067aa0ba902b7-01-${'x'.repeat(8000)}`],
    ['a trace id with a log-forging payload', `00-${TRACE}","traceId":"forged-00f067aa0ba902b7-01`],
  ])('ignores %s: the request gets a new id, nothing is echoed', async (_what, traceparent) => {
    const { r, requestId, line } = await call({ traceparent });
    expect(r.status).toBe(404);
    expect(requestId).toMatch(NEW_ID);
    expect(r.headers.get('traceparent')).toBeNull();
    expect(line).toMatchObject({ requestId, traceId: requestId });
  });

  it('ignores a hostile Request-Id as before', async () => {
    for (const bad of ['x'.repeat(129), 'a b', '"},{"traceId":"forged']) {
      const { requestId, line } = await call({ 'Request-Id': bad });
      expect(requestId).toMatch(NEW_ID);
      expect(line?.traceId).toBe(requestId);
    }
  });

  it('names no payment on a request about none', async () => {
    const r = await t.call('GET', '/v1/webhook-endpoints', { key: t.a.key, headers: { 'Request-Id': 'list-endpoints-1' } });
    expect(r.status).toBe(200);
    const line = lines.find((l) => l.msg === 'request' && l.requestId === 'list-endpoints-1');
    expect(line).toMatchObject({ traceId: 'list-endpoints-1' });
    expect(line).not.toHaveProperty('paymentId');
  });

  it('names the payment a create made on its request line', async () => {
    const merchantId = await payableMerchant(t, t.a.key);
    const r = await createPayment(t, t.a.key, merchantId, {}, { 'Request-Id': 'create-one-1' });
    expect(r.status).toBe(201);
    const line = lines.find((l) => l.msg === 'request' && l.requestId === 'create-one-1');
    expect(line).toMatchObject({ traceId: 'create-one-1', paymentId: (r.body as { paymentId: string }).paymentId, status: 201 });
  });
});

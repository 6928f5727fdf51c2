import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createPartnerClient, type RetryOptions } from './index.ts';
import { startFlakyServer, type FlakyServer } from './test-support/flaky-server.ts';

const unavailable = { status: 503, body: { message: 'try later', code: 'service_unavailable' } };
const emptyList = { status: 200, body: { data: [], nextCursor: null, totalCount: 0 } };
const merchant = { id: 'mrch_1', name: 'A', email: 'a@b.co', status: 'active', createdAt: '2026-11-22T12:00:00.000Z' };

describe('retries against a server that fails on purpose', () => {
  let server: FlakyServer;
  beforeAll(async () => {
    server = await startFlakyServer();
  });
  afterAll(() => server.close());

  const setup = (retry: RetryOptions | false = {}) => {
    const sleeps: number[] = [];
    const client = createPartnerClient({
      baseUrl: server.url,
      apiKey: 'sk_test_x',
      version: '2026-02-19.preview',
      retry: retry === false ? false : { random: () => 0.5, sleep: async (ms) => void sleeps.push(ms), ...retry },
    });
    return { client, sleeps };
  };

  it('retries a GET on 503 twice then 200: three calls, 100 and 200 ms backoff plus jitter', async () => {
    server.script(unavailable, unavailable, emptyList);
    const { client, sleeps } = setup();
    expect(await client.merchants.list()).toEqual(emptyList.body);
    expect(server.received).toHaveLength(3);
    expect(sleeps).toEqual([150, 250]);
    expect(server.received[0]!.headers['api-key']).toBe('sk_test_x');
    expect(server.received[0]!.headers['svc-version']).toBe('2026-02-19.preview');
  });

  it('gives up after 3 retries (100, 200, 400 ms + jitter) and surfaces the last 5xx as ApiError', async () => {
    server.script({ ...unavailable, headers: { 'Request-Id': 'req_42' } });
    const { client, sleeps } = setup({ random: () => 0 });
    const error = await client.payments.get('mrch_1', 'pay_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, code: 'service_unavailable', message: 'try later', requestId: 'req_42' });
    expect(server.received).toHaveLength(4);
    expect(sleeps).toEqual([100, 200, 400]);
  });

  it('never retries a 4xx: one call, the error body typed with its issues and Request-Id', async () => {
    const issues = [{ field: 'body.merchantEmail', message: 'must match format' }];
    server.script({ status: 400, body: { message: 'invalid', code: 'params_validation', issues }, headers: { 'Request-Id': 'req_7' } });
    const { client, sleeps } = setup();
    const error = await client.merchants.create({ merchantName: 'A', merchantEmail: 'nope' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ApiError', status: 400, code: 'params_validation', issues, requestId: 'req_7' });
    expect(server.received).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('retries a POST that carries an Idempotency-Key, sending the same key and body each time', async () => {
    server.script(unavailable, { status: 201, body: { merchant } });
    const { client } = setup();
    expect(await client.merchants.create({ merchantName: 'A', merchantEmail: 'a@b.co' })).toEqual(merchant);
    expect(server.received).toHaveLength(2);
    const [first, second] = server.received;
    expect(first!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second!.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);
    expect(second!.body).toBe(first!.body);
    expect(JSON.parse(first!.body)).toEqual({ merchantName: 'A', merchantEmail: 'a@b.co' });
  });

  it.each([
    ['POST without an Idempotency-Key (refund)', (c: ReturnType<typeof setup>['client']) => c.refunds.create('mrch_1', 'pay_1')],
    ['POST without an Idempotency-Key (cancel)', (c: ReturnType<typeof setup>['client']) => c.payments.cancel('mrch_1', 'pay_1')],
    ['PATCH', (c: ReturnType<typeof setup>['client']) => c.merchants.update('mrch_1', { merchantName: 'B' })],
  ])('does not repeat a %s on 503: one call', async (_label, call) => {
    server.script(unavailable);
    const { client, sleeps } = setup();
    await expect(call(client)).rejects.toMatchObject({ status: 503 });
    expect(server.received).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('retries a dropped connection (network failure) on a GET', async () => {
    server.script('drop', emptyList);
    const { client, sleeps } = setup();
    expect(await client.merchants.list()).toEqual(emptyList.body);
    expect(server.received).toHaveLength(2);
    expect(sleeps).toEqual([150]);
  });

  it('rethrows the network error once retries are spent', async () => {
    server.script('drop');
    const { client } = setup({ retries: 1 });
    await expect(client.merchants.list()).rejects.toBeInstanceOf(TypeError);
    expect(server.received).toHaveLength(2);
  });

  it('turns a body that is not the documented error shape into code unexpected_response', async () => {
    server.script({ status: 502, body: '<html>Bad Gateway</html>' });
    const { client } = setup({ retries: 0 });
    await expect(client.merchants.list()).rejects.toMatchObject({ status: 502, code: 'unexpected_response', message: expect.stringContaining('Bad Gateway') });
  });

  it('with retry: false sends a GET once', async () => {
    server.script(unavailable, emptyList);
    const { client } = setup(false);
    await expect(client.merchants.list()).rejects.toMatchObject({ status: 503 });
    expect(server.received).toHaveLength(1);
  });

  it('stops backing off when the request is aborted', async () => {
    server.script(unavailable);
    const controller = new AbortController();
    const { client } = setup({ sleep: async () => controller.abort(new Error('caller gave up')) });
    const pending = client.raw.GET('/v1/merchants', { signal: controller.signal });
    await expect(pending).rejects.toThrow('caller gave up');
    expect(server.received).toHaveLength(1);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { refusedBaseUrl, startLocalServer, type LocalServer, type ScriptedAnswer } from '../test-support/local-server.ts';
import { createGatewayClient } from './client.ts';
import { GatewayError, GatewayNetworkError, PaymentExpiredError } from './errors.ts';

const ID = 'pay_01RETRYTEST';
const okStatus = { status: 'processing', isFinal: false, pollInMs: 1000 };
let server: LocalServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Client whose sleeps are recorded instead of waited, with fixed jitter (random 0.25 of 100 ms). */
function clientFor(baseUrl: string, fetchImpl?: (input: string, init: RequestInit) => Promise<Response>) {
  const sleeps: number[] = [];
  const client = createGatewayClient(
    { baseUrl, apiKey: 'wk_test' },
    {
      ...(fetchImpl ? { fetch: fetchImpl } : {}),
      retry: { random: () => 0.25, sleep: async (ms) => void sleeps.push(ms) },
    },
  );
  return { client, sleeps };
}

async function serve(script: (index: number) => ScriptedAnswer): Promise<LocalServer> {
  server = await startLocalServer((_request, index) => script(index));
  return server;
}

describe('gateway retries against a local HTTP server', () => {
  it('retries 503 twice then succeeds: 3 calls, backoff 100 then 200 ms plus jitter', async () => {
    const local = await serve((i) => (i < 2 ? { status: 503, body: { code: 'unavailable', message: 'busy' } } : { status: 200, body: okStatus }));
    const { client, sleeps } = clientFor(local.baseUrl);
    await expect(client.getStatus(ID)).resolves.toMatchObject(okStatus);
    expect(local.requests).toHaveLength(3);
    expect(sleeps).toEqual([125, 225]);
  });

  it('retries a confirm (idempotent on the service) with the same body each time', async () => {
    const local = await serve((i) => (i === 0 ? { status: 502, body: { code: 'bad_gateway', message: 'upstream' } } : { status: 200, body: okStatus }));
    const { client } = clientFor(local.baseUrl);
    const results = [{ type: 'walletRpc' as const, data: ['0xsig'] as [string] }];
    await client.confirm(ID, { optionId: 'opt_1', results });
    expect(local.requests).toHaveLength(2);
    expect(local.requests[0]?.body).toEqual(local.requests[1]?.body);
  });

  it.each([
    [400, 'params_validation', GatewayError],
    [404, 'payment_not_found', GatewayError],
    [409, 'invalid_state', GatewayError],
    [429, 'rate_limited', GatewayError],
    [410, 'payment_expired', PaymentExpiredError],
  ])('never retries %i: exactly one call, typed error', async (status, code, type) => {
    const local = await serve(() => ({ status, body: { code, message: `failed with ${code}` } }));
    const { client, sleeps } = clientFor(local.baseUrl);
    const error = await client.getStatus(ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(type);
    expect(error).toMatchObject({ status, code, message: `failed with ${code}` });
    expect(local.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('keeps failing 5xx: 4 calls (1 + 3 retries), schedule 100/200/400 plus jitter, then a typed error', async () => {
    const local = await serve(() => ({ status: 500, body: { code: 'internal_error', message: 'boom', details: { ref: 'x' } } }));
    const { client, sleeps } = clientFor(local.baseUrl);
    const error = await client.getPayment(ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ status: 500, code: 'internal_error', details: { ref: 'x' } });
    expect(local.requests).toHaveLength(4);
    expect(sleeps).toEqual([125, 225, 425]);
  });

  it('retries a refused connection and recovers when the service comes back', async () => {
    const local = await serve(() => ({ status: 200, body: okStatus }));
    const dead = await refusedBaseUrl();
    let calls = 0;
    const flaky = (input: string, init: RequestInit): Promise<Response> => {
      calls += 1;
      return fetch(calls === 1 ? input.replace(local.baseUrl, dead) : input, init);
    };
    const { client, sleeps } = clientFor(local.baseUrl, flaky);
    await expect(client.getStatus(ID)).resolves.toMatchObject(okStatus);
    expect(calls).toBe(2);
    expect(local.requests).toHaveLength(1);
    expect(sleeps).toEqual([125]);
  });

  it('gives up on a service that stays unreachable with a GatewayNetworkError after 4 attempts', async () => {
    const { client, sleeps } = clientFor(await refusedBaseUrl());
    const error = await client.getStatus(ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayNetworkError);
    expect(error).toMatchObject({ attempts: 4 });
    expect(sleeps).toEqual([125, 225, 425]);
  });

  it('uses real timers by default and stays within the documented window', async () => {
    const local = await serve((i) => (i === 0 ? { status: 503 } : { status: 200, body: okStatus }));
    const client = createGatewayClient({ baseUrl: local.baseUrl, apiKey: 'wk_test' });
    const started = performance.now();
    await client.getStatus(ID);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(95);
    expect(elapsed).toBeLessThan(1000);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer, type RecordedRequest, type ScriptedAnswer } from '../test-support/local-server.ts';
import { createGatewayClient, type GatewayClientConfig } from './client.ts';
import { GatewayError, GatewayProtocolError, PaymentExpiredError } from './errors.ts';

const ID = 'pay_01CLIENTTEST';
const typedData = '{"primaryType":"TransferWithAuthorization"}';
const wireOption = {
  id: 'opt_1',
  account: 'eip155:8453:0x00000000000000000000000000000000000000aa',
  amount: { unit: 'caip19/eip155:8453/erc20:0xtoken', value: '1000000', display: { assetSymbol: 'USDC', assetName: 'USD Coin', decimals: 6 } },
  etaS: 5,
  expiresAt: 1_900_000_000,
  actions: [
    { type: 'walletRpc', data: { chain_id: 'eip155:8453', method: 'eth_signTypedData_v4', params: ['0x00000000000000000000000000000000000000aa', typedData] } },
    { type: 'build', data: { data: 'opaque-build' } },
  ],
  collectData: null,
};

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(answer: (request: RecordedRequest) => ScriptedAnswer): Promise<LocalServer> {
  server = await startLocalServer(answer);
  return server;
}

const noRetry = { retry: { retries: 0 } };
const apiKeyClient = (baseUrl: string, extra: Partial<GatewayClientConfig> = {}) =>
  createGatewayClient({ baseUrl, apiKey: 'wk_secret', ...extra }, { ...noRetry, version: '2026-02-18' });

describe('gateway client calls', () => {
  it('sends options with Api-Key, Svc-Version, includePaymentInfo and converts actions to the wallet shape', async () => {
    const local = await serve(() => ({ status: 200, body: { options: [wireOption], info: null, collectData: null } }));
    const result = await apiKeyClient(local.baseUrl).getOptions(ID, { accounts: [wireOption.account], includePaymentInfo: true });
    const request = local.requests[0];
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe(`/v1/gateway/payment/${ID}/options?includePaymentInfo=true`);
    expect(request?.headers['api-key']).toBe('wk_secret');
    expect(request?.headers['svc-version']).toBe('2026-02-18');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body).toEqual({ accounts: [wireOption.account] });
    expect(result.options[0]?.actions).toEqual([
      { type: 'walletRpc', walletRpc: { chainId: 'eip155:8453', method: 'eth_signTypedData_v4', params: JSON.stringify(wireOption.actions[0]?.data.params) } },
      { type: 'build', build: { data: 'opaque-build' } },
    ]);
    expect(result.collectData).toBeNull();
  });

  it('authenticates with App-Id + Client-Id and no Api-Key', async () => {
    const local = await serve(() => ({ status: 200, body: { status: 'requires_action', isFinal: false, pollInMs: 2000 } }));
    const client = createGatewayClient({ baseUrl: local.baseUrl, appId: 'app_1', clientId: 'device-7' }, noRetry);
    await client.getStatus(ID);
    const headers = local.requests[0]?.headers ?? {};
    expect([headers['app-id'], headers['client-id'], headers['api-key'], headers['svc-version']]).toEqual(['app_1', 'device-7', undefined, undefined]);
  });

  it('keeps a path prefix in the base URL and posts fetch with optionId and data', async () => {
    const local = await serve(() => ({
      status: 200,
      body: { actions: [{ type: 'walletRpc', data: { chain_id: 'solana:devnet', method: 'solana_signTransaction', params: [{ transaction: 'AQID' }] } }] },
    }));
    const actions = await apiKeyClient(`${local.baseUrl}/api/`).fetchAction(ID, { optionId: 'opt_1', data: 'opaque-build' });
    expect(local.requests[0]?.url).toBe(`/api/v1/gateway/payment/${ID}/fetch`);
    expect(local.requests[0]?.body).toEqual({ optionId: 'opt_1', data: 'opaque-build' });
    expect(actions).toEqual([{ type: 'walletRpc', walletRpc: { chainId: 'solana:devnet', method: 'solana_signTransaction', params: '[{"transaction":"AQID"}]' } }]);
  });

  it('refuses a fetch answer that contains another build action', async () => {
    const local = await serve(() => ({ status: 200, body: { actions: [{ type: 'build', data: { data: 'x' } }] } }));
    await expect(apiKeyClient(local.baseUrl).fetchAction(ID, { optionId: 'o', data: 'd' })).rejects.toBeInstanceOf(GatewayProtocolError);
  });

  it('confirms with results, collectedData and maxPollMs', async () => {
    const local = await serve(() => ({ status: 200, body: { status: 'succeeded', isFinal: true, pollInMs: null, info: { txId: '0xabc', optionAmount: wireOption.amount } } }));
    const results = [{ type: 'walletRpc' as const, data: ['0xsig'] as [string] }];
    const collectedData = { fields: [{ id: 'fullName', value: 'Ada' }] };
    const status = await apiKeyClient(local.baseUrl).confirm(ID, { optionId: 'opt_1', results, collectedData }, { maxPollMs: 5000 });
    expect(local.requests[0]?.url).toBe(`/v1/gateway/payment/${ID}/confirm?maxPollMs=5000`);
    expect(local.requests[0]?.body).toEqual({ optionId: 'opt_1', results, collectedData });
    expect(status).toMatchObject({ status: 'succeeded', isFinal: true, info: { txId: '0xabc' } });
  });

  it('gets the payment summary and cancels', async () => {
    const local = await serve((request) =>
      request.url.endsWith('/cancel')
        ? { status: 200, body: { paymentId: ID, status: 'cancelled', cancelledReason: 'cancelled_by_user', cancelledAt: '2026-01-01T00:00:00Z' } }
        : { status: 200, body: { status: 'requires_action', amount: { unit: 'iso4217/USD', value: '100' }, expiresAt: 1, merchant: { name: 'Shop' } } },
    );
    const client = apiKeyClient(local.baseUrl);
    await expect(client.getPayment(ID)).resolves.toMatchObject({ merchant: { name: 'Shop' } });
    await expect(client.cancel(ID)).resolves.toMatchObject({ status: 'cancelled' });
    expect(local.requests.map((r) => `${r.method} ${r.url}`)).toEqual([`GET /v1/gateway/payment/${ID}`, `POST /v1/gateway/payment/${ID}/cancel`]);
  });

  it('tells an expired quote (409 quote_expired) from an expired payment (410) and from other 409s', async () => {
    const answers: ScriptedAnswer[] = [
      { status: 409, body: { code: 'quote_expired', message: 'quote expired' } },
      { status: 410, body: { code: 'payment_expired', message: 'payment expired' } },
      { status: 409, body: { code: 'invalid_state', message: 'too late' } },
    ];
    const local = await serve(() => answers[local.requests.length - 1] ?? { status: 500 });
    const client = apiKeyClient(local.baseUrl);
    const confirm = () => client.confirm(ID, { optionId: 'o', results: [] }).catch((e: unknown) => e);
    const [quote, payment, other] = [await confirm(), await confirm(), await confirm()];
    expect(quote).toBeInstanceOf(PaymentExpiredError);
    expect(quote).toMatchObject({ status: 409, expired: 'quote' });
    expect(payment).toBeInstanceOf(PaymentExpiredError);
    expect(payment).toMatchObject({ status: 410, expired: 'payment' });
    expect(other).toBeInstanceOf(GatewayError);
    expect(other).not.toBeInstanceOf(PaymentExpiredError);
    expect(local.requests).toHaveLength(3);
  });

  it('maps a validation error body with issues, and a bodiless error to a synthetic code', async () => {
    const local = await serve(() =>
      local.requests.length === 1 ? { status: 400, body: { code: 'params_validation', message: 'bad', issues: [{ field: 'accounts', message: 'required' }] } } : { status: 401 },
    );
    const client = apiKeyClient(local.baseUrl);
    await expect(client.getOptions(ID, { accounts: [] })).rejects.toMatchObject({ code: 'params_validation', issues: [{ field: 'accounts', message: 'required' }] });
    await expect(client.getStatus(ID)).rejects.toMatchObject({ status: 401, code: 'http_401' });
  });

  it('refuses a non-payment id before any network call', async () => {
    const local = await serve(() => ({ status: 200, body: {} }));
    await expect(apiKeyClient(local.baseUrl).getStatus('../merchants')).rejects.toBeInstanceOf(TypeError);
    expect(local.requests).toHaveLength(0);
  });
});

describe('waitForFinal', () => {
  const script = [
    { status: 'requires_action', isFinal: false, pollInMs: 2000 },
    { status: 'processing', isFinal: false, pollInMs: 1000 },
    { status: 'succeeded', isFinal: true, pollInMs: null },
  ];

  it('long-polls status with maxPollMs and reads again at once after a long-poll answer', async () => {
    let clock = 0;
    // A service that long-polls: each answer comes when the status changed, 1.5 s and 20 s later.
    const took = [0, 1500, 20_000];
    const local = await serve(() => {
      clock += took[local.requests.length - 1]!;
      return { status: 200, body: script[local.requests.length - 1] };
    });
    const sleeps: number[] = [];
    const seen: string[] = [];
    const client = createGatewayClient({ baseUrl: local.baseUrl, apiKey: 'k' }, { now: () => clock, retry: { sleep: async (ms) => void (sleeps.push(ms), (clock += ms)) } });
    const final = await client.waitForFinal(ID, { onStatus: (s) => seen.push(s.status) });
    expect(final.status).toBe('succeeded');
    expect(local.requests.map((r) => r.url)).toEqual(Array(3).fill(`/v1/gateway/payment/${ID}/status?maxPollMs=30000`));
    // The first answer came at once: the rest of its pollInMs (2 s) is waited; the second took
    // longer than its pollInMs (1 s), so the third read follows at once.
    expect(sleeps).toEqual([2000]);
    expect(seen).toEqual(['requires_action', 'processing', 'succeeded']);
  });

  it('polls with the pollInMs the service gives when long-polling is off, and stops on isFinal', async () => {
    const local = await serve(() => ({ status: 200, body: script[local.requests.length - 1] }));
    let clock = 0;
    const sleeps: number[] = [];
    const client = createGatewayClient({ baseUrl: local.baseUrl, apiKey: 'k' }, { now: () => clock, retry: { sleep: async (ms) => void (sleeps.push(ms), (clock += ms)) } });
    const final = await client.waitForFinal(ID, { maxPollMs: 0 });
    expect(final.status).toBe('succeeded');
    expect(sleeps).toEqual([2000, 1000]);
    expect(local.requests.map((r) => r.url)).toEqual(Array(3).fill(`/v1/gateway/payment/${ID}/status`));
  });

  it('never long-polls past its timeout', async () => {
    const local = await serve(() => ({ status: 200, body: { status: 'processing', isFinal: false, pollInMs: 1000 } }));
    let clock = 0;
    const client = createGatewayClient({ baseUrl: local.baseUrl, apiKey: 'k' }, { now: () => clock, retry: { sleep: async (ms) => void (clock += ms) } });
    await expect(client.waitForFinal(ID, { timeoutMs: 2500, maxPollMs: 5000 })).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(local.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('maxPollMs'))).toEqual(['2500', '1500', '500']);
  });

  it('passes maxPollMs on a single status read', async () => {
    const local = await serve(() => ({ status: 200, body: script[1] }));
    await apiKeyClient(local.baseUrl).getStatus(ID, { maxPollMs: 1200 });
    await apiKeyClient(local.baseUrl).getStatus(ID);
    expect(local.requests.map((r) => r.url)).toEqual([`/v1/gateway/payment/${ID}/status?maxPollMs=1200`, `/v1/gateway/payment/${ID}/status`]);
  });

  it('stops when the signal aborts and when the timeout would be passed', async () => {
    const local = await serve(() => ({ status: 200, body: { status: 'processing', isFinal: false, pollInMs: 1000 } }));
    let clock = 0;
    const client = createGatewayClient({ baseUrl: local.baseUrl, apiKey: 'k' }, { now: () => clock, retry: { sleep: async (ms) => void (clock += ms) } });
    await expect(client.waitForFinal(ID, { timeoutMs: 2500 })).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(local.requests).toHaveLength(3);
    const controller = new AbortController();
    controller.abort(new Error('buyer left'));
    await expect(client.waitForFinal(ID, { signal: controller.signal })).rejects.toThrow('buyer left');
    expect(local.requests).toHaveLength(3);
  });
});

// Long because: one consumer pact per partner operation the client calls; a pact file is written per consumer, so they share this file.
import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { ApiError, createPartnerClient, type PartnerClient } from '../../clients/partner/src/index.ts';
import { caip10, caip19, errorBody, EXAMPLE, injected, merchantId, pactFor, paymentId, paymentStatus, rejection, settlementId, timestamp, unixSeconds } from './shared.ts';

/*
 * What @mps/partner needs from the service, recorded by driving the real client against the Pact
 * mock server. The API key is not part of the pact: the provider verification puts the key of the
 * partner its state handler created into every request. Only the 401/403 interactions name a key.
 */
const { boolean, eachLike, integer, like, nullValue, string } = MatchersV3;
const pact = pactFor('mps-partner-client');
const client = (baseUrl: string, apiKey = 'sk_test_consumer'): PartnerClient => createPartnerClient({ baseUrl, apiKey, retry: false });

const merchantPath = (suffix = '') => injected(`/v1/merchants/\${merchantId}${suffix}`, `/v1/merchants/${EXAMPLE.merchantId}${suffix}`);
const merchantHeader = () => injected('${merchantId}', EXAMPLE.merchantId);
const paymentPath = (suffix = '') => injected(`/v1/payments/\${paymentId}${suffix}`, `/v1/payments/${EXAMPLE.paymentId}${suffix}`);

const merchantSummary = { id: merchantId(), name: string('Acme Store'), email: string('billing@acme.store'), status: regexStatus(), createdAt: timestamp() };
function regexStatus() {
  return MatchersV3.regex('^(active|inactive|deleted)$', 'active');
}
const merchant = { ...merchantSummary, iconUrl: nullValue() };
const cryptoSettlement = { id: settlementId(), asset: caip19(EXAMPLE.evmUsdc), destination: caip10('eip155:31337:0x1234567890AbcdEF1234567890aBcdef12345678') };
const amount = (unit: string, value: string) => ({
  unit: string(unit),
  value: MatchersV3.regex('^[0-9]+$', value),
  display: like({ assetSymbol: 'USD', assetName: 'US Dollar', decimals: 2 }),
});
const paymentRecord = {
  paymentId: paymentId(),
  merchant: { id: merchantId(), name: string('Acme Store'), iconUrl: nullValue() },
  referenceId: string('order-1001'),
  status: paymentStatus('requires_action'),
  isFinal: boolean(false),
  pollInMs: integer(2000),
  fiatAmount: amount('iso4217/USD', '1050'),
  refund: { refunded: boolean(false), refundedAt: nullValue() },
  createdAt: timestamp(),
  lastUpdatedAt: timestamp(),
  expiresAt: unixSeconds(),
  stateVersion: integer(1),
};
/** Details say how the payment was settled once it is (`settlement.successful`), null before. */
const paymentDetails = { ...paymentRecord, settlement: nullValue() };
/** List items, as the reference's list: `isTerminal` and `settlement.settled` on every item. */
const paymentListItem = { ...paymentRecord, isTerminal: boolean(false), settlement: { settled: boolean(false) } };
const createPaymentBody = { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: 'order-1001', expiresAt: null };

describe('merchants', () => {
  it('creates a merchant with an idempotency key', async () => {
    await pact
      .addInteraction()
      .given('a partner')
      .uponReceiving('a request to create a merchant with an idempotency key')
      .withRequest('POST', '/v1/merchants', (b) =>
        b.headers({ 'Idempotency-Key': 'acme-merchant-1' }).jsonBody({ merchantName: 'Acme Store', merchantEmail: 'billing@acme.store' }),
      )
      .willRespondWith(201, (b) => b.jsonBody({ merchant: merchantSummary }))
      .executeTest(async (mock) => {
        const created = await client(mock.url).merchants.create({ merchantName: 'Acme Store', merchantEmail: 'billing@acme.store' }, { idempotencyKey: 'acme-merchant-1' });
        expect(created).toMatchObject({ id: EXAMPLE.merchantId, name: 'Acme Store', status: 'active' });
      });
  });

  it('sees 409 idempotency_conflict when a key is reused with another body', async () => {
    await pact
      .addInteraction()
      .given('a merchant created with idempotency key acme-merchant-1')
      .uponReceiving('a merchant creation reusing an idempotency key with another body')
      .withRequest('POST', '/v1/merchants', (b) =>
        b.headers({ 'Idempotency-Key': 'acme-merchant-1' }).jsonBody({ merchantName: 'Another Store', merchantEmail: 'billing@another.store' }),
      )
      .willRespondWith(409, (b) => b.jsonBody(errorBody('idempotency_conflict')))
      .executeTest(async (mock) => {
        const error = await rejection(() =>
          client(mock.url).merchants.create({ merchantName: 'Another Store', merchantEmail: 'billing@another.store' }, { idempotencyKey: 'acme-merchant-1' }),
        );
        expect(error).toBeInstanceOf(ApiError);
        expect(error).toMatchObject({ status: 409, code: 'idempotency_conflict' });
      });
  });

  it('sees 400 params_validation with issues for a bad email', async () => {
    await pact
      .addInteraction()
      .given('a partner')
      .uponReceiving('a merchant creation with an invalid email')
      .withRequest('POST', '/v1/merchants', (b) => b.headers({ 'Idempotency-Key': 'acme-merchant-2' }).jsonBody({ merchantName: 'Acme Store', merchantEmail: 'not-an-email' }))
      .willRespondWith(400, (b) =>
        b.jsonBody(errorBody('params_validation', { issues: eachLike({ field: string('body.merchantEmail'), message: string('must match format "email"') }) })),
      )
      .executeTest(async (mock) => {
        const error = await rejection(() =>
          client(mock.url).merchants.create({ merchantName: 'Acme Store', merchantEmail: 'not-an-email' }, { idempotencyKey: 'acme-merchant-2' }),
        );
        expect(error).toMatchObject({ status: 400, code: 'params_validation' });
        expect((error as ApiError).issues?.[0]).toMatchObject({ field: expect.any(String), message: expect.any(String) });
      });
  });

  it('updates a merchant', async () => {
    await pact
      .addInteraction()
      .given('a partner with a merchant')
      .uponReceiving('a request to rename a merchant')
      .withRequest('PATCH', merchantPath(), (b) => b.jsonBody({ merchantName: 'Acme Outlet' }))
      .willRespondWith(200, (b) => b.jsonBody({ merchant: { ...merchant, name: string('Acme Outlet') } }))
      .executeTest(async (mock) => {
        const updated = await client(mock.url).merchants.update(EXAMPLE.merchantId, { merchantName: 'Acme Outlet' });
        expect(updated).toMatchObject({ id: EXAMPLE.merchantId, name: 'Acme Outlet', iconUrl: null });
      });
  });

  it('gets a merchant with its settlements', async () => {
    await pact
      .addInteraction()
      .given('a partner with a merchant settled in the sandbox EVM USDC')
      .uponReceiving('a request for a merchant')
      .withRequest('GET', merchantPath())
      .willRespondWith(200, (b) => b.jsonBody({ merchant: { ...merchant, settlements: { crypto: eachLike(cryptoSettlement), fiat: [] } } }))
      .executeTest(async (mock) => {
        const found = await client(mock.url).merchants.get(EXAMPLE.merchantId);
        expect(found.settlements.crypto[0]).toMatchObject({ asset: EXAMPLE.evmUsdc });
      });
  });

  it('sees 404 for a merchant that does not exist', async () => {
    await pact
      .addInteraction()
      .given('a partner')
      .uponReceiving('a request for a merchant that does not exist')
      .withRequest('GET', `/v1/merchants/${EXAMPLE.otherMerchantId}`)
      .willRespondWith(404, (b) => b.jsonBody(errorBody('not_found')))
      .executeTest(async (mock) => {
        expect(await rejection(() => client(mock.url).merchants.get(EXAMPLE.otherMerchantId))).toMatchObject({ status: 404, code: 'not_found' });
      });
  });

  it('lists merchants', async () => {
    await pact
      .addInteraction()
      .given('a partner with a merchant')
      .uponReceiving('a request for the first page of active merchants')
      .withRequest('GET', '/v1/merchants', (b) => b.query({ status: 'active', limit: '20' }))
      .willRespondWith(200, (b) => b.jsonBody({ data: eachLike(merchant), nextCursor: nullValue(), totalCount: integer(1) }))
      .executeTest(async (mock) => {
        const page = await client(mock.url).merchants.list({ status: 'active', limit: 20 });
        expect(page.data[0]?.id).toBe(EXAMPLE.merchantId);
        expect(page.nextCursor).toBeNull();
      });
  });

  it('deletes a merchant', async () => {
    await pact
      .addInteraction()
      .given('a partner with a merchant')
      .uponReceiving('a request to delete a merchant')
      .withRequest('DELETE', merchantPath())
      .willRespondWith(200, (b) => b.jsonBody({ id: merchantId(), deleted: true }))
      .executeTest(async (mock) => {
        expect(await client(mock.url).merchants.delete(EXAMPLE.merchantId)).toEqual({ id: EXAMPLE.merchantId, deleted: true });
      });
  });

  it('sees 401 with a key the service does not know', async () => {
    await pact
      .addInteraction()
      .given('a partner')
      .uponReceiving('a request with an unknown API key')
      .withRequest('GET', '/v1/merchants', (b) => b.headers({ 'Api-Key': 'sk_test_unknown' }))
      .willRespondWith(401, (b) => b.jsonBody(errorBody('invalid_api_key')))
      .executeTest(async (mock) => {
        expect(await rejection(() => client(mock.url, 'sk_test_unknown').merchants.list())).toMatchObject({ status: 401, code: 'invalid_api_key' });
      });
  });

  it('sees 403 when a wallet key calls a partner operation', async () => {
    await pact
      .addInteraction()
      .given('a partner with a wallet key')
      .uponReceiving('a partner operation called with a wallet key')
      .withRequest('GET', '/v1/merchants', (b) => b.headers({ 'Api-Key': injected('${walletKey}', 'wk_test_example') }))
      .willRespondWith(403, (b) => b.jsonBody(errorBody('forbidden')))
      .executeTest(async (mock) => {
        expect(await rejection(() => client(mock.url, 'wk_test_example').merchants.list())).toMatchObject({ status: 403, code: 'forbidden' });
      });
  });
});

describe('settlements', () => {
  const entry = { asset: EXAMPLE.evmUsdc, destination: 'eip155:31337:0x1234567890abcdef1234567890abcdef12345678' };

  it('registers a crypto settlement', async () => {
    await pact
      .addInteraction()
      .given('a partner with a merchant')
      .uponReceiving('a request to settle a merchant in the sandbox EVM USDC')
      .withRequest('POST', merchantPath('/settlements/crypto'), (b) => b.headers({ 'Idempotency-Key': 'acme-settle-1' }).jsonBody({ settlements: [entry] }))
      .willRespondWith(201, (b) => b.jsonBody({ settlements: eachLike(cryptoSettlement) }))
      .executeTest(async (mock) => {
        const [created] = await client(mock.url).settlements.create(EXAMPLE.merchantId, [entry], { idempotencyKey: 'acme-settle-1' });
        expect(created).toMatchObject({ asset: EXAMPLE.evmUsdc, id: EXAMPLE.settlementId });
      });
  });

  it('sees 409 settlement_asset_conflict when the asset is already registered', async () => {
    await pact
      .addInteraction()
      .given('a partner with a merchant settled in the sandbox EVM USDC')
      .uponReceiving('a request to register an asset the merchant already settles in')
      .withRequest('POST', merchantPath('/settlements/crypto'), (b) => b.headers({ 'Idempotency-Key': 'acme-settle-2' }).jsonBody({ settlements: [entry] }))
      .willRespondWith(409, (b) => b.jsonBody(errorBody('settlement_asset_conflict')))
      .executeTest(async (mock) => {
        const error = await rejection(() => client(mock.url).settlements.create(EXAMPLE.merchantId, [entry], { idempotencyKey: 'acme-settle-2' }));
        expect(error).toMatchObject({ status: 409, code: 'settlement_asset_conflict' });
      });
  });

  it('lists settlements', async () => {
    await pact
      .addInteraction()
      .given('a partner with a merchant settled in the sandbox EVM USDC')
      .uponReceiving('a request for a merchant’s settlements')
      .withRequest('GET', merchantPath('/settlements'))
      .willRespondWith(200, (b) => b.jsonBody({ crypto: eachLike(cryptoSettlement), fiat: [] }))
      .executeTest(async (mock) => {
        const list = await client(mock.url).settlements.list(EXAMPLE.merchantId);
        expect(list.crypto).toHaveLength(1);
      });
  });

  it('moves a settlement to another destination', async () => {
    const destination = 'eip155:31337:0xAbCdEf0123456789aBcDeF0123456789abCDef01';
    await pact
      .addInteraction()
      .given('a partner with a merchant settled in the sandbox EVM USDC')
      .uponReceiving('a request to change a settlement’s destination')
      .withRequest(
        'PUT',
        injected('/v1/merchants/${merchantId}/settlements/crypto/${settlementId}', `/v1/merchants/${EXAMPLE.merchantId}/settlements/crypto/${EXAMPLE.settlementId}`),
        (b) => b.jsonBody({ destination: 'eip155:31337:0xabcdef0123456789abcdef0123456789abcdef01' }),
      )
      .willRespondWith(200, (b) => b.jsonBody({ ...cryptoSettlement, destination: caip10(destination) }))
      .executeTest(async (mock) => {
        const updated = await client(mock.url).settlements.update(EXAMPLE.merchantId, EXAMPLE.settlementId, 'eip155:31337:0xabcdef0123456789abcdef0123456789abcdef01');
        expect(updated.destination).toBe(destination);
      });
  });

  it('removes a settlement', async () => {
    await pact
      .addInteraction()
      .given('a partner with a merchant settled in the sandbox EVM USDC')
      .uponReceiving('a request to remove a settlement')
      .withRequest(
        'DELETE',
        injected('/v1/merchants/${merchantId}/settlements/crypto/${settlementId}', `/v1/merchants/${EXAMPLE.merchantId}/settlements/crypto/${EXAMPLE.settlementId}`),
      )
      .willRespondWith(200, (b) => b.jsonBody({ id: settlementId(), deleted: true }))
      .executeTest(async (mock) => {
        expect(await client(mock.url).settlements.delete(EXAMPLE.merchantId, EXAMPLE.settlementId)).toEqual({ id: EXAMPLE.settlementId, deleted: true });
      });
  });
});

describe('payments', () => {
  it('creates a payment', async () => {
    await pact
      .addInteraction()
      .given('a partner with a merchant settled in the sandbox EVM USDC')
      .uponReceiving('a request to create a payment')
      .withRequest('POST', '/v1/payments', (b) => b.headers({ 'Merchant-Id': merchantHeader(), 'Idempotency-Key': 'order-1001' }).jsonBody(createPaymentBody))
      .willRespondWith(201, (b) =>
        b.jsonBody({
          paymentId: paymentId(),
          gatewayUrl: MatchersV3.regex('^https?://.+/pay_[0-9A-Z]{26}$', `https://pay.example.test/${EXAMPLE.paymentId}`),
          status: 'requires_action',
          isFinal: false,
          pollInMs: integer(2000),
          expiresAt: unixSeconds(),
        }),
      )
      .executeTest(async (mock) => {
        const created = await client(mock.url).payments.create(EXAMPLE.merchantId, createPaymentBody, { idempotencyKey: 'order-1001' });
        expect(created).toMatchObject({ paymentId: EXAMPLE.paymentId, status: 'requires_action', isFinal: false });
      });
  });

  it('sees 400 params_validation for an amount that is not minor units', async () => {
    const body = { ...createPaymentBody, amount: { unit: 'iso4217/USD', value: '10.50' } };
    await pact
      .addInteraction()
      .given('a partner with a merchant settled in the sandbox EVM USDC')
      .uponReceiving('a payment creation with a decimal amount')
      .withRequest('POST', '/v1/payments', (b) => b.headers({ 'Merchant-Id': merchantHeader(), 'Idempotency-Key': 'order-1002' }).jsonBody(body))
      .willRespondWith(400, (b) => b.jsonBody(errorBody('params_validation', { issues: eachLike({ field: string('body.amount.value'), message: string('must match pattern') }) })))
      .executeTest(async (mock) => {
        const error = await rejection(() => client(mock.url).payments.create(EXAMPLE.merchantId, body, { idempotencyKey: 'order-1002' }));
        expect(error).toMatchObject({ status: 400, code: 'params_validation' });
        expect((error as ApiError).issues?.length).toBeGreaterThan(0);
      });
  });

  it('reads a payment’s status', async () => {
    await pact
      .addInteraction()
      .given('a payable payment on the sandbox EVM chain')
      .uponReceiving('a request for a payment’s status')
      .withRequest('GET', paymentPath('/status'), (b) => b.headers({ 'Merchant-Id': merchantHeader() }))
      .willRespondWith(200, (b) => b.jsonBody({ status: paymentStatus('requires_action'), isFinal: boolean(false), pollInMs: integer(2000) }))
      .executeTest(async (mock) => {
        const status = await client(mock.url).payments.status(EXAMPLE.merchantId, EXAMPLE.paymentId);
        expect(status).toMatchObject({ status: 'requires_action', isFinal: false, pollInMs: 2000 });
      });
  });

  it('sees 404 for a payment that does not exist', async () => {
    await pact
      .addInteraction()
      .given('a partner with a merchant settled in the sandbox EVM USDC')
      .uponReceiving('a request for the status of a payment that does not exist')
      .withRequest('GET', `/v1/payments/${EXAMPLE.unknownPaymentId}/status`, (b) => b.headers({ 'Merchant-Id': merchantHeader() }))
      .willRespondWith(404, (b) => b.jsonBody(errorBody('payment_not_found')))
      .executeTest(async (mock) => {
        expect(await rejection(() => client(mock.url).payments.status(EXAMPLE.merchantId, EXAMPLE.unknownPaymentId))).toMatchObject({ status: 404, code: 'payment_not_found' });
      });
  });

  it('reads a payment’s details', async () => {
    await pact
      .addInteraction()
      .given('a payable payment on the sandbox EVM chain')
      .uponReceiving('a request for a payment’s details')
      .withRequest('GET', paymentPath(), (b) => b.headers({ 'Merchant-Id': merchantHeader() }))
      .willRespondWith(200, (b) => b.jsonBody(paymentDetails))
      .executeTest(async (mock) => {
        const payment = await client(mock.url).payments.get(EXAMPLE.merchantId, EXAMPLE.paymentId);
        expect(payment).toMatchObject({ paymentId: EXAMPLE.paymentId, fiatAmount: { unit: 'iso4217/USD', value: '1050' } });
      });
  });

  it('lists a merchant’s payments across the partner', async () => {
    await pact
      .addInteraction()
      .given('a payable payment on the sandbox EVM chain')
      .uponReceiving('a request for the payments of one merchant')
      .withRequest('GET', '/v1/payments', (b) => b.query({ merchantId: injected('${merchantId}', EXAMPLE.merchantId), limit: '10' }))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: eachLike(paymentListItem),
          nextCursor: nullValue(),
          stats: { totalRevenue: MatchersV3.atLeastLike({ currency: string('USD'), value: string('0') }, 0, 1), totalTransactions: integer(0), totalCustomers: integer(0) },
        }),
      )
      .executeTest(async (mock) => {
        const page = await client(mock.url).payments.list({ merchantId: [EXAMPLE.merchantId], limit: 10 });
        expect(page.data[0]?.paymentId).toBe(EXAMPLE.paymentId);
      });
  });

  it('lists one merchant’s payments', async () => {
    await pact
      .addInteraction()
      .given('a payable payment on the sandbox EVM chain')
      .uponReceiving('a request for a merchant’s own payment list')
      .withRequest('GET', '/v1/merchants/payments', (b) => b.headers({ 'Merchant-Id': merchantHeader() }).query({ limit: '10' }))
      .willRespondWith(200, (b) => b.jsonBody({ data: eachLike(paymentListItem), nextCursor: nullValue(), stats: like({ totalTransactions: 0, totalCustomers: 0 }) }))
      .executeTest(async (mock) => {
        const page = await client(mock.url).payments.listForMerchant(EXAMPLE.merchantId, { limit: 10 });
        expect(page.data[0]?.merchant.id).toBe(EXAMPLE.merchantId);
      });
  });

  it('cancels an unpaid payment', async () => {
    await pact
      .addInteraction()
      .given('a payable payment on the sandbox EVM chain')
      .uponReceiving('a request to cancel a payment')
      .withRequest('POST', paymentPath('/cancel'), (b) => b.headers({ 'Merchant-Id': merchantHeader() }))
      .willRespondWith(200, (b) => b.jsonBody({ paymentId: paymentId(), status: 'cancelled', cancelledReason: string('cancelled_by_merchant'), cancelledAt: timestamp() }))
      .executeTest(async (mock) => {
        expect(await client(mock.url).payments.cancel(EXAMPLE.merchantId, EXAMPLE.paymentId)).toMatchObject({ paymentId: EXAMPLE.paymentId, status: 'cancelled' });
      });
  });
});

describe('refunds', () => {
  it('marks a succeeded payment refunded', async () => {
    await pact
      .addInteraction()
      .given('a succeeded payment on the sandbox EVM chain')
      .uponReceiving('a request to refund a succeeded payment')
      .withRequest('POST', '/v1/refunds', (b) => b.headers({ 'Merchant-Id': merchantHeader() }).jsonBody({ paymentId: injected('${paymentId}', EXAMPLE.paymentId) }))
      .willRespondWith(200, (b) => b.jsonBody({ paymentId: paymentId(), refunded: true, refundedAt: timestamp() }))
      .executeTest(async (mock) => {
        expect(await client(mock.url).refunds.create(EXAMPLE.merchantId, EXAMPLE.paymentId)).toMatchObject({ paymentId: EXAMPLE.paymentId, refunded: true });
      });
  });

  it('sees 400 payment_not_succeeded for an unpaid payment', async () => {
    await pact
      .addInteraction()
      .given('a payable payment on the sandbox EVM chain')
      .uponReceiving('a request to refund a payment that has not succeeded')
      .withRequest('POST', '/v1/refunds', (b) => b.headers({ 'Merchant-Id': merchantHeader() }).jsonBody({ paymentId: injected('${paymentId}', EXAMPLE.paymentId) }))
      .willRespondWith(400, (b) => b.jsonBody(errorBody('payment_not_succeeded')))
      .executeTest(async (mock) => {
        expect(await rejection(() => client(mock.url).refunds.create(EXAMPLE.merchantId, EXAMPLE.paymentId))).toMatchObject({ status: 400, code: 'payment_not_succeeded' });
      });
  });
});

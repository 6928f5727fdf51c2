import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { createGatewayClient, GatewayError, PaymentExpiredError, type ActionResult, type GatewayClient } from '../../clients/wallet/src/index.ts';
import { caip10, errorBody, EXAMPLE, injected, pactFor, paymentId, paymentStatus, rejection, timestamp, unixSeconds } from './shared.ts';

/*
 * What @mps/wallet needs from the gateway, recorded by driving the real SDK against the Pact mock
 * server. The wallet key is not part of the pact (the provider verification puts the state's
 * wallet key in); ids, accounts and signatures come from the provider state that created them.
 */
const { boolean, eachLike, integer, like, nullValue, regex, string } = MatchersV3;
const pact = pactFor('mps-wallet-client');
const client = (baseUrl: string, apiKey = 'wk_test_consumer'): GatewayClient => createGatewayClient({ baseUrl, apiKey }, { retry: { retries: 0 } });

const gatewayPath = (suffix = '') => injected(`/v1/gateway/payment/\${paymentId}${suffix}`, `/v1/gateway/payment/${EXAMPLE.paymentId}${suffix}`);
const fiat = { unit: 'iso4217/USD', value: regex('^[0-9]+$', '1050') };
const tokenAmount = {
  unit: regex('^caip19/.+$', `caip19/${EXAMPLE.evmUsdc}`),
  value: regex('^[0-9]+$', '10500000'),
  display: like({ assetSymbol: 'USDC', assetName: 'USD Coin', decimals: 6 }),
};
const summary = { status: paymentStatus('requires_action'), amount: fiat, expiresAt: unixSeconds(), merchant: { name: string('Acme Store'), iconUrl: nullValue() } };

describe('payment summary', () => {
  it('reads what the buyer is asked to pay', async () => {
    await pact
      .addInteraction()
      .given('a payable payment on the sandbox EVM chain')
      .uponReceiving('a gateway request for a payment')
      .withRequest('GET', gatewayPath())
      .willRespondWith(200, (b) => b.jsonBody(summary))
      .executeTest(async (mock) => {
        expect(await client(mock.url).getPayment(EXAMPLE.paymentId)).toMatchObject({
          status: 'requires_action',
          amount: { unit: 'iso4217/USD', value: '1050' },
          merchant: { name: 'Acme Store' },
        });
      });
  });

  it('sees 404 for a payment that does not exist', async () => {
    await pact
      .addInteraction()
      .given('a partner')
      .uponReceiving('a gateway request for a payment that does not exist')
      .withRequest('GET', `/v1/gateway/payment/${EXAMPLE.unknownPaymentId}`)
      .willRespondWith(404, (b) => b.jsonBody(errorBody('payment_not_found')))
      .executeTest(async (mock) => {
        const error = await rejection(() => client(mock.url).getPayment(EXAMPLE.unknownPaymentId));
        expect(error).toBeInstanceOf(GatewayError);
        expect(error).toMatchObject({ status: 404, code: 'payment_not_found' });
      });
  });

  it('sees 401 with a key the service does not know', async () => {
    await pact
      .addInteraction()
      .given('a payable payment on the sandbox EVM chain')
      .uponReceiving('a gateway request with an unknown wallet key')
      .withRequest('GET', gatewayPath('/status'), (b) => b.headers({ 'Api-Key': 'wk_test_unknown' }))
      .willRespondWith(401, (b) => b.jsonBody(errorBody('invalid_api_key')))
      .executeTest(async (mock) => {
        expect(await rejection(() => client(mock.url, 'wk_test_unknown').getStatus(EXAMPLE.paymentId))).toMatchObject({ status: 401, code: 'invalid_api_key' });
      });
  });
});

describe('options', () => {
  it('lists how a funded EVM buyer can pay', async () => {
    await pact
      .addInteraction()
      .given('a payable payment and a funded buyer on the sandbox EVM chain')
      .uponReceiving('a request for payment options of an EVM account')
      .withRequest('POST', gatewayPath('/options'), (b) => b.query({ includePaymentInfo: 'true' }).jsonBody({ accounts: [injected('${account}', EXAMPLE.buyer)] }))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          options: eachLike({
            id: string(EXAMPLE.optionId),
            account: caip10(EXAMPLE.buyer),
            amount: tokenAmount,
            etaS: integer(5),
            actions: eachLike({
              type: 'walletRpc',
              data: {
                chain_id: regex('^eip155:[0-9]+$', 'eip155:31337'),
                method: regex('^(eth_signTypedData_v4|eth_sendTransaction|personal_sign)$', 'eth_signTypedData_v4'),
                params: eachLike(string('0x90F8bf6A479f320ead074411a4B0e7944Ea8c9C1')),
              },
            }),
          }),
          info: summary,
          collectData: nullValue(),
        }),
      )
      .executeTest(async (mock) => {
        const offer = await client(mock.url).getOptions(EXAMPLE.paymentId, { accounts: [EXAMPLE.buyer], includePaymentInfo: true });
        expect(offer.options[0]?.actions[0]).toMatchObject({ type: 'walletRpc', walletRpc: { chainId: 'eip155:31337', method: 'eth_signTypedData_v4' } });
        expect(offer.info?.status).toBe('requires_action');
      });
  });

  it('gets no options, and the reason, for an empty account list (any number of accounts is accepted)', async () => {
    await pact
      .addInteraction()
      .given('a payable payment on the sandbox EVM chain')
      .uponReceiving('a request for payment options without any account')
      .withRequest('POST', gatewayPath('/options'), (b) => b.jsonBody({ accounts: [] }))
      .willRespondWith(200, (b) => b.jsonBody({ options: [], details: { reason: string('no account on a chain this merchant accepts (eip155:31337)') } }))
      .executeTest(async (mock) => {
        const result = await client(mock.url).getOptions(EXAMPLE.paymentId, { accounts: [] });
        expect(result.options).toEqual([]);
      });
  });

  it('sees 410 payment_expired once the payment expired', async () => {
    await pact
      .addInteraction()
      .given('an expired payment')
      .uponReceiving('a request for payment options of an expired payment')
      .withRequest('POST', gatewayPath('/options'), (b) => b.jsonBody({ accounts: [EXAMPLE.buyer] }))
      .willRespondWith(410, (b) => b.jsonBody(errorBody('payment_expired')))
      .executeTest(async (mock) => {
        const error = await rejection(() => client(mock.url).getOptions(EXAMPLE.paymentId, { accounts: [EXAMPLE.buyer] }));
        expect(error).toBeInstanceOf(PaymentExpiredError);
        expect(error).toMatchObject({ status: 410, expired: 'payment' });
      });
  });
});

describe('fetch', () => {
  it('resolves a Solana build action into a transaction to sign', async () => {
    await pact
      .addInteraction()
      .given('a payable payment with a Solana option')
      .uponReceiving('a request to fetch the transaction of a build action')
      .withRequest('POST', gatewayPath('/fetch'), (b) => b.jsonBody({ optionId: injected('${optionId}', EXAMPLE.optionId), data: injected('${data}', EXAMPLE.optionId) }))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          actions: eachLike({
            type: 'walletRpc',
            data: { chain_id: regex('^solana:.+$', 'solana:sandbox'), method: 'solana_signTransaction', params: eachLike({ transaction: string('AQAB') }) },
          }),
        }),
      )
      .executeTest(async (mock) => {
        const [action] = await client(mock.url).fetchAction(EXAMPLE.paymentId, { optionId: EXAMPLE.optionId, data: EXAMPLE.optionId });
        expect(action).toMatchObject({ type: 'walletRpc', walletRpc: { method: 'solana_signTransaction' } });
      });
  });
});

describe('confirm', () => {
  const results = (signature: unknown) => [{ type: 'walletRpc', data: [signature] }];

  it('confirms a signed EIP-3009 option and waits for the outcome', async () => {
    await pact
      .addInteraction()
      .given('a payable payment with a signed EIP-3009 option')
      .uponReceiving('a confirmation with the buyer’s signature')
      .withRequest('POST', gatewayPath('/confirm'), (b) =>
        b.query({ maxPollMs: '20000' }).jsonBody({ optionId: injected('${optionId}', EXAMPLE.optionId), results: results(injected('${signature}', EXAMPLE.signature)) }),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody({ status: 'succeeded', isFinal: true, pollInMs: nullValue(), info: { txId: regex('^0x[0-9a-f]{64}$', `0x${'12'.repeat(32)}`), optionAmount: tokenAmount } }),
      )
      .executeTest(async (mock) => {
        const outcome = await client(mock.url).confirm(
          EXAMPLE.paymentId,
          { optionId: EXAMPLE.optionId, results: [{ type: 'walletRpc', data: [EXAMPLE.signature] }] },
          { maxPollMs: 20_000 },
        );
        expect(outcome).toMatchObject({ status: 'succeeded', isFinal: true, info: { txId: expect.stringMatching(/^0x/) } });
      });
  });

  it('sees 409 quote_expired when the option’s quote ran out', async () => {
    await pact
      .addInteraction()
      .given('a signed EIP-3009 option whose quote has expired')
      .uponReceiving('a confirmation after the quote expired')
      .withRequest('POST', gatewayPath('/confirm'), (b) =>
        b.jsonBody({ optionId: injected('${optionId}', EXAMPLE.optionId), results: results(injected('${signature}', EXAMPLE.signature)) }),
      )
      .willRespondWith(409, (b) => b.jsonBody(errorBody('quote_expired')))
      .executeTest(async (mock) => {
        const error = await rejection(() =>
          client(mock.url).confirm(EXAMPLE.paymentId, { optionId: EXAMPLE.optionId, results: [{ type: 'walletRpc', data: [EXAMPLE.signature] }] }),
        );
        expect(error).toBeInstanceOf(PaymentExpiredError);
        expect(error).toMatchObject({ status: 409, code: 'quote_expired', expired: 'quote' });
      });
  });

  it('sees 400 invalid_results when the results do not match the option’s actions', async () => {
    await pact
      .addInteraction()
      .given('a payable payment with a signed EIP-3009 option')
      .uponReceiving('a confirmation with more results than actions')
      .withRequest('POST', gatewayPath('/confirm'), (b) =>
        b.jsonBody({
          optionId: injected('${optionId}', EXAMPLE.optionId),
          results: [...results(injected('${signature}', EXAMPLE.signature)), ...results(injected('${signature}', EXAMPLE.signature))],
        }),
      )
      .willRespondWith(400, (b) => b.jsonBody(errorBody('invalid_results')))
      .executeTest(async (mock) => {
        const twice: ActionResult[] = [
          { type: 'walletRpc', data: [EXAMPLE.signature] },
          { type: 'walletRpc', data: [EXAMPLE.signature] },
        ];
        expect(await rejection(() => client(mock.url).confirm(EXAMPLE.paymentId, { optionId: EXAMPLE.optionId, results: twice }))).toMatchObject({
          status: 400,
          code: 'invalid_results',
        });
      });
  });
});

describe('status and cancel', () => {
  it('reads the status while the buyer has not paid', async () => {
    await pact
      .addInteraction()
      .given('a payable payment on the sandbox EVM chain')
      .uponReceiving('a gateway request for a payment’s status')
      .withRequest('GET', gatewayPath('/status'))
      .willRespondWith(200, (b) => b.jsonBody({ status: 'requires_action', isFinal: boolean(false), pollInMs: integer(2000) }))
      .executeTest(async (mock) => {
        expect(await client(mock.url).getStatus(EXAMPLE.paymentId)).toMatchObject({ status: 'requires_action', isFinal: false, pollInMs: 2000 });
      });
  });

  it('long-polls the status of an unpaid payment: answered at the bound when nothing changes', async () => {
    await pact
      .addInteraction()
      .given('a payable payment on the sandbox EVM chain')
      .uponReceiving('a gateway status request that long-polls')
      .withRequest('GET', gatewayPath('/status'), (b) => b.query({ maxPollMs: '300' }))
      .willRespondWith(200, (b) => b.jsonBody({ status: 'requires_action', isFinal: boolean(false), pollInMs: integer(2000) }))
      .executeTest(async (mock) => {
        expect(await client(mock.url).getStatus(EXAMPLE.paymentId, { maxPollMs: 300 })).toMatchObject({ status: 'requires_action', isFinal: false });
      });
  });

  it('waits for the final status by long-polling', async () => {
    await pact
      .addInteraction()
      .given('a succeeded payment on the sandbox EVM chain')
      .uponReceiving('a gateway status request that long-polls for the final status')
      .withRequest('GET', gatewayPath('/status'), (b) => b.query({ maxPollMs: '30000' }))
      .willRespondWith(200, (b) =>
        b.jsonBody({ status: 'succeeded', isFinal: true, pollInMs: nullValue(), info: { txId: regex('^0x[0-9a-f]{64}$', `0x${'12'.repeat(32)}`), optionAmount: tokenAmount } }),
      )
      .executeTest(async (mock) => {
        const final = await client(mock.url).waitForFinal(EXAMPLE.paymentId);
        expect(final).toMatchObject({ status: 'succeeded', isFinal: true, info: { txId: expect.stringMatching(/^0x/) } });
      });
  });

  it('cancels on the buyer’s behalf', async () => {
    await pact
      .addInteraction()
      .given('a payable payment on the sandbox EVM chain')
      .uponReceiving('a gateway request to cancel a payment')
      .withRequest('POST', gatewayPath('/cancel'), (b) => b.jsonBody({}))
      .willRespondWith(200, (b) => b.jsonBody({ paymentId: paymentId(), status: 'cancelled', cancelledReason: string('cancelled_by_user'), cancelledAt: timestamp() }))
      .executeTest(async (mock) => {
        expect(await client(mock.url).cancel(EXAMPLE.paymentId)).toMatchObject({ paymentId: EXAMPLE.paymentId, status: 'cancelled' });
      });
  });
});

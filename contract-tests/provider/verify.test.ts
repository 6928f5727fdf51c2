import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Verifier, type VerifierOptions } from '@pact-foundation/pact';
import type { RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestPartner } from '../../test/helpers/test-app.ts';
import { PACT_DIR, PROVIDER } from '../consumers/shared.ts';
import { Seeder, startProviderEnv, type ProviderEnv } from './provider-env.ts';

/*
 * Verifies the pacts the consumer run just wrote against the real service: createApp(deps) on
 * 127.0.0.1 over PGlite and the in-process sandbox chains. Each provider state starts from a new
 * partner (so states never see each other's data or idempotency keys), builds what it names
 * through the public API and returns the ids the consumers' requests inject.
 */
/** The app's defaults (createApp): a quote holds 300 s, a payment without expiresAt 300 s. */
const QUOTE_TTL_S = 300;
const PAYMENT_TTL_S = 300;

let env: ProviderEnv;
let seed: Seeder;
/** The partner of the state being verified; requests carry its keys. */
let partner: TestPartner;

beforeAll(async () => {
  env = await startProviderEnv();
  seed = new Seeder(env);
}, 120_000);
afterAll(async () => {
  await env?.close();
});

/** Every state starts at real time with a partner of its own. */
async function fresh(): Promise<TestPartner> {
  env.timeTravel(0);
  partner = await env.t.newPartner();
  return partner;
}

const states: NonNullable<VerifierOptions['stateHandlers']> = {
  'a partner': async () => {
    await fresh();
    return {};
  },
  'a partner with a wallet key': async () => ({ walletKey: (await fresh()).walletKey }),
  'a merchant created with idempotency key acme-merchant-1': async () => ({ merchantId: await seed.merchant(await fresh(), 'acme-merchant-1') }),
  'a partner with a merchant': async () => ({ merchantId: await seed.merchant(await fresh()) }),
  'a partner with a merchant settled in the sandbox EVM USDC': async () => ({ ...(await seed.settledMerchant(await fresh())) }),
  'a payable payment on the sandbox EVM chain': async () => {
    const p = await fresh();
    const { merchantId } = await seed.settledMerchant(p);
    return { merchantId, paymentId: await seed.payment(p, merchantId) };
  },
  'a succeeded payment on the sandbox EVM chain': async () => {
    const p = await fresh();
    const { merchantId } = await seed.settledMerchant(p);
    const paymentId = await seed.payment(p, merchantId);
    await seed.pay(p, paymentId);
    return { merchantId, paymentId };
  },
  'a payable payment and a funded buyer on the sandbox EVM chain': async () => {
    const p = await fresh();
    const { merchantId } = await seed.settledMerchant(p);
    const buyer = await seed.evmBuyer();
    return { paymentId: await seed.payment(p, merchantId), account: `${env.chains.evm.caip2}:${buyer.address}` };
  },
  // What a wallet holds just before confirm: the state signs the EIP-3009 authorization with a funded key.
  'a payable payment with a signed EIP-3009 option': async () => {
    const p = await fresh();
    const { merchantId } = await seed.settledMerchant(p);
    const paymentId = await seed.payment(p, merchantId);
    const { optionId, signature } = await seed.signedEvmOption(p, paymentId);
    return { paymentId, optionId, signature };
  },
  'a signed EIP-3009 option whose quote has expired': async () => {
    const p = await fresh();
    const { merchantId } = await seed.settledMerchant(p);
    const paymentId = await seed.payment(p, merchantId, { expiresAt: Math.floor(Date.now() / 1000) + 3600 });
    const { optionId, signature } = await seed.signedEvmOption(p, paymentId);
    env.timeTravel((QUOTE_TTL_S + 60) * 1000);
    return { paymentId, optionId, signature };
  },
  'an expired payment': async () => {
    const p = await fresh();
    const { merchantId } = await seed.settledMerchant(p);
    const paymentId = await seed.payment(p, merchantId);
    env.timeTravel((PAYMENT_TTL_S + 60) * 1000);
    return { merchantId, paymentId };
  },
  'a payable payment with a Solana option': async () => {
    const p = await fresh();
    const { merchantId } = await seed.settledMerchant(p, 'solana');
    const paymentId = await seed.payment(p, merchantId);
    const buyer = seed.solanaBuyer();
    const [option] = await seed.options(p, paymentId, `${env.chains.solana.caip2}:${buyer.publicKey.toBase58()}`);
    if (option?.actions[0]?.type !== 'build') throw new Error(`provider state setup: expected a Solana build action, got ${JSON.stringify(option)}`);
    return { paymentId, optionId: option.id, data: option.actions[0].data.data };
  },
};

/**
 * Puts the state's partner key (a wallet key on gateway calls) into API requests that name none.
 * The filter also sees the verifier's own state-change calls, which are not API requests.
 */
const withKeys: RequestHandler = (req, _res, next) => {
  if (req.path.startsWith('/v1/') && req.headers['api-key'] === undefined) req.headers['api-key'] = req.path.startsWith('/v1/gateway/') ? partner.walletKey : partner.key;
  next();
};

function verify(consumer: string) {
  const pactFile = path.join(PACT_DIR, `${consumer}-${PROVIDER}.json`);
  it(`${consumer}'s pact holds against the service`, async () => {
    expect(existsSync(pactFile), `${pactFile} is missing: the consumer run writes it`).toBe(true);
    // Pact only warns about a state without a handler and replays the request on whatever the last
    // state left; here a consumer's new state name fails until the provider has a handler for it.
    const pact = JSON.parse(readFileSync(pactFile, 'utf8')) as { interactions: { providerStates?: { name: string }[] }[] };
    const named = new Set(pact.interactions.flatMap((i) => (i.providerStates ?? []).map((s) => s.name)));
    expect(
      [...named].filter((name) => !(name in states)),
      'provider states without a handler in contract-tests/provider/verify.test.ts',
    ).toEqual([]);
    expect(
      pact.interactions.filter((i) => !i.providerStates?.length),
      'interactions must name a provider state',
    ).toEqual([]);
    await new Verifier({
      provider: PROVIDER,
      providerBaseUrl: env.t.url,
      pactUrls: [pactFile],
      stateHandlers: states,
      requestFilter: withKeys,
      logLevel: (process.env.PACT_LOG_LEVEL ?? 'warn') as 'warn',
    }).verifyProvider();
  }, 120_000);
}

describe(`${PROVIDER} honours its consumers' pacts`, () => {
  verify('mps-partner-client');
  verify('mps-wallet-client');
});

// Test-only: the real service in-process on embedded PostgreSQL, and a fetch that records what the
// client sent, so tests can check headers (Idempotency-Key, Merchant-Id) on the wire.
import { openEmbeddedStorage } from '../../../../test/helpers/embedded-storage.ts';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { createPartnerClient, type PartnerClient, type PartnerClientOptions } from '../index.ts';

export const USDC_BASE = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
export const USDT_ETH = 'eip155:1/erc20:0xdAC17F958D2ee523a2206206994597C13D831ec7';
export const EVM_DEST = 'eip155:8453:0x1234567890abcdef1234567890abcdef12345678';

export interface SentRequest {
  method: string;
  url: URL;
  headers: Headers;
}

export interface Service {
  t: TestApp;
  /** A client for partner `key` (partner a by default) that records every request it sends. */
  client(options?: Partial<PartnerClientOptions>): { client: PartnerClient; sent: SentRequest[] };
  stop(): Promise<void>;
}

/** Starts the service with a fresh embedded database. */
export async function startService(): Promise<Service> {
  const storage = await openEmbeddedStorage();
  const t = await startTestApp(storage, { payBaseUrl: 'https://pay.example.test' });
  return {
    t,
    client(options = {}) {
      const sent: SentRequest[] = [];
      const client = createPartnerClient({
        baseUrl: t.url,
        apiKey: t.a.key,
        fetch: (request) => {
          sent.push({ method: request.method, url: new URL(request.url), headers: request.headers });
          return fetch(request);
        },
        ...options,
      });
      return { client, sent };
    },
    async stop() {
      await t.close();
      await storage.close();
    },
  };
}

/** A merchant with a USDC-on-Base settlement, ready to take payments. */
export async function payableMerchant(client: PartnerClient, name = 'Shop'): Promise<string> {
  const merchant = await client.merchants.create({ merchantName: name, merchantEmail: 'pay@shop.co' });
  await client.settlements.create(merchant.id, [{ asset: USDC_BASE, destination: EVM_DEST }]);
  return merchant.id;
}

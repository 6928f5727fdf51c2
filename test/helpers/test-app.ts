import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { pino } from 'pino';
import { createApp, type AppDeps } from '../../server/app.ts';
import { createAssetRegistry, type AssetConfig } from '../../server/domain/assets.ts';
import { createManualClock } from '../../server/ports/clock.ts';
import type { StoragePort } from '../../server/ports/storage/index.ts';
import { createPostgresPaymentChanges } from '../../adapters/payment-changes/postgres/index.ts';
import { PAYMENT_CHANGES_CHANNEL } from '../../adapters/storage/postgres/change-channel.ts';
import type { TestStorage } from './backends.ts';
import { createKey, createPartner } from '../../server/auth/provisioning.ts';
import { webhookSettings } from '../../server/composition/webhooks.ts';
import type { HostLookup } from '../../server/ports/http-fetch.ts';
import { traceLogFields } from '../../server/domain/trace-context.ts';

/** Webhook endpoint settings a suite may set; startTestApp builds the policy from them as the composition root does. */
export interface TestWebhookOptions {
  /** Sandbox mode's loopback receivers (http allowed). */
  allowLoopbackEndpoints?: boolean;
  /** The port no endpoint may point at. */
  ownPort?: number;
  /** DNS for the registration check. */
  webhookLookup?: HostLookup;
}

/** Assets the HTTP suites settle in: one EVM token and one SPL token. */
export const TEST_ASSETS: AssetConfig[] = [
  {
    id: 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    symbol: 'USDC',
    name: 'USD Coin',
    decimals: 6,
    pegCurrency: 'USD',
    flows: ['eip3009', 'permit2', 'transfer'],
    networkName: 'Base',
  },
  {
    id: 'eip155:1/erc20:0xdAC17F958D2ee523a2206206994597C13D831ec7',
    symbol: 'USDT',
    name: 'Tether USD',
    decimals: 6,
    pegCurrency: 'USD',
    flows: ['permit2', 'transfer'],
    networkName: 'Ethereum',
  },
  {
    id: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp/token:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    symbol: 'USDC',
    name: 'USD Coin',
    decimals: 6,
    pegCurrency: 'USD',
    flows: ['spl'],
    networkName: 'Solana',
  },
];

export interface TestPartner {
  id: string;
  key: string;
  walletKey: string;
}

export interface TestApp {
  url: string;
  clock: ReturnType<typeof createManualClock>;
  storage: StoragePort;
  /** Two partners, so every suite can check that one never sees the other's data. */
  a: TestPartner;
  b: TestPartner;
  newPartner(version?: string): Promise<TestPartner>;
  /** fetch against the app, JSON in and out. */
  call(
    method: string,
    path: string,
    opts?: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

export async function startTestApp(storage: StoragePort | TestStorage, options: Partial<AppDeps> & TestWebhookOptions = {}): Promise<TestApp> {
  const { allowLoopbackEndpoints, ownPort, webhookLookup, ...overrides } = options;
  const webhookEndpoints = webhookSettings({
    allowLoopback: allowLoopbackEndpoints ?? false,
    ...(ownPort !== undefined ? { ownPort } : {}),
    ...(webhookLookup ? { lookup: webhookLookup } : {}),
  }).endpoints;
  const clock = createManualClock(Date.now());
  // As in production: long-polls are woken by the storage's own notifications.
  const db = 'db' in storage ? storage.db : null;
  if (!overrides.paymentChanges && !db) throw new Error('startTestApp: pass a PostgreSQL storage (its db notifies changes) or a paymentChanges adapter');
  const ownChanges = overrides.paymentChanges ? null : await createPostgresPaymentChanges({ channel: PAYMENT_CHANGES_CHANNEL, db: db! });
  const paymentChanges = overrides.paymentChanges ?? ownChanges!;
  const app = createApp({
    storage,
    paymentChanges,
    clock,
    logger: pino({ level: process.env.TEST_LOG ?? 'silent', mixin: traceLogFields }),
    assets: createAssetRegistry(TEST_ASSETS),
    validateResponses: true,
    webhookEndpoints,
    ...overrides,
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  // Suites pause between requests (seeding data); keep idle keep-alive sockets open meanwhile.
  server.keepAliveTimeout = 120_000;
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const newPartner = async (version = '2026-02-18'): Promise<TestPartner> => {
    const p = await createPartner(storage, { name: `partner-${Math.random()}`, version, live: false });
    const w = await createKey(storage, { partnerId: p.partner.id, scope: 'wallet', live: false });
    return { id: p.partner.id, key: p.apiKey, walletKey: w.apiKey };
  };
  const [a, b] = [await newPartner(), await newPartner()];
  return {
    url,
    clock,
    storage,
    a,
    b,
    newPartner,
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = { ...(opts.key ? { 'Api-Key': opts.key } : {}), ...opts.headers };
      let body: string | undefined = opts.rawBody;
      if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers['Content-Type'] ??= 'application/json';
      }
      const res = await fetch(url + path, { method, headers, ...(body !== undefined ? { body } : {}) });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // leave as text
      }
      return { status: res.status, body: parsed, headers: res.headers };
    },
    async close() {
      await ownChanges?.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

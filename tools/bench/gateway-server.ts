/**
 * The service on the sandbox EVM chain with PostgreSQL, for the gateway options benchmark: a
 * child process that seeds a payable payment and prints `ready <port> <json>`.
 */
import type { AddressInfo } from 'node:net';
import { Wallet } from 'ethers';
import { pino } from 'pino';
import { createPostgresStorage } from '../../adapters/storage/postgres/index.ts';
import { createPostgresPaymentChanges } from '../../adapters/payment-changes/postgres/index.ts';
import { PAYMENT_CHANGES_CHANNEL } from '../../adapters/storage/postgres/change-channel.ts';
import { createEvmChainAdapter } from '../../adapters/chains/evm/gateway-adapter.ts';
import { createApp } from '../../server/app.ts';
import { webhookSettings } from '../../server/composition/webhooks.ts';
import { createMemoryRateLimiter } from '../../adapters/rate-limit/memory/index.ts';
import { createAssetRegistry } from '../../server/domain/assets.ts';
import { createPriceTable } from '../../server/domain/prices.ts';
import { createChainRegistry } from '../../server/ports/chains.ts';
import { systemClock } from '../../server/ports/clock.ts';
import { createKey, createPartner } from '../../server/auth/provisioning.ts';
import { createSandboxChains } from '../../server/composition/sandbox/index.ts';

const [url, schema] = [process.argv[2]!, process.argv[3]!];
const storage = await createPostgresStorage({ url, schema, poolSize: 20 });
const paymentChanges = await createPostgresPaymentChanges({ channel: PAYMENT_CHANGES_CHANNEL, db: storage.db });
const sandbox = await createSandboxChains();
const evm = sandbox.evm;
const chains = createChainRegistry([
  createEvmChainAdapter([
    { caip2: evm.caip2, provider: evm.ethersProvider, relayer: new Wallet(evm.relayer.privateKey, evm.ethersProvider), permit2: evm.permit2Address, confirmations: 1 },
  ]),
]);
const assets = createAssetRegistry(sandbox.assetConfigs());
const { partner, apiKey } = await createPartner(storage, { name: 'bench', version: '2026-02-18', live: false });
const wallet = await createKey(storage, { partnerId: partner.id, scope: 'wallet', live: false });
// As in service-server.ts: the limiter is on the measured path, set never to refuse.
const rateLimiter = createMemoryRateLimiter({ perSecond: 1_000_000, burst: 1_000_000 }, systemClock);
const app = createApp({
  storage,
  paymentChanges,
  clock: systemClock,
  logger: pino({ level: 'warn' }),
  assets,
  chains,
  prices: createPriceTable(),
  payBaseUrl: 'https://pay.bench.test',
  rateLimiter,
  webhookEndpoints: webhookSettings({ allowLoopback: false }).endpoints,
});
const server = app.listen(0, '127.0.0.1', () => {
  const usdc = sandbox.assetConfigs().find((a) => a.symbol === 'USDC' && a.id.startsWith('eip155'))!.id;
  console.log(
    `ready ${(server.address() as AddressInfo).port} ${JSON.stringify({ apiKey, walletKey: wallet.apiKey, usdc, buyer: `eip155:31337:${Wallet.createRandom().address}` })}`,
  );
});
server.keepAliveTimeout = 60_000;
process.on('SIGTERM', () =>
  server.close(
    () =>
      void paymentChanges
        .close()
        .then(() => storage.close())
        .then(() => sandbox.close())
        .then(() => process.exit(0)),
  ),
);

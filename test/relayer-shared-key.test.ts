// One relayer key, two worker processes: 200 gasless payments (EIP-3009 and Permit2) on the
// standalone sandbox chains, with PostgreSQL and Redis, each paid by one relayer transaction of its
// own nonce, and Solana payments beside them (their sandbox runs programs in this very process). Each
// runtime has its own pools, providers and relayer wallet, as separate processes do.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { Keypair, Transaction as SolanaTransaction } from '@solana/web3.js';
import { Transaction, Wallet } from 'ethers';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createPartner } from '../server/auth/provisioning.ts';
import { openChains } from '../server/composition/chains.ts';
import { openRuntime, type Runtime } from '../server/composition/runtime.ts';
import { loadConfig } from '../server/config.ts';
import type { ChainPort } from '../server/ports/chains.ts';
import { startSandboxChainsServer, type SandboxChainsServer } from '../tools/sandbox-chains/server.ts';
import { signTypedDataParams } from './helpers/gateway-env.ts';
import { deleteKeysWithPrefix } from './helpers/redis-cleanup.ts';
import { postgresAvailable, postgresUrl, redisAvailable, redisUrl } from './helpers/services.ts';

const PAYMENTS = 200;
const SOLANA_PAYMENTS = 20; // paid alongside with the one fee payer key, which needs no lock (no account nonce)
const MAX_CONFIRM_TO_SUCCESS_MS = 60_000;

const services = (await postgresAvailable()) && (await redisAvailable());
const dir = mkdtempSync(join(tmpdir(), 'relayer-shared-key-'));
const database = `relayer_lock_${process.pid}_${Date.now().toString(36)}`;
const logger = pino({ level: 'silent' });

let chains: SandboxChainsServer;
let api: Runtime;
const workers: Runtime[] = [];
let http: Server;
let base = '';
let redisDbUrl = '';
let keys = { partner: '', wallet: '' };
/** Relayer transactions the sandbox received, and those it refused (a nonce taken twice is refused). */
const relayerSends = { accepted: 0, refused: [] as string[], signedAt: new Map<number, Set<string>>() };

/** A Redis database nobody else is using, so this test's queue keys stand alone. */
async function freeRedisDb(): Promise<string> {
  for (let db = 15; db >= 8; db--) {
    const url = `${redisUrl.replace(/\/\d*$/, '')}/${db}`;
    const client = new Redis(url, { maxRetriesPerRequest: 1 });
    try {
      if ((await client.dbsize()) === 0) return url;
    } finally {
      client.disconnect();
    }
  }
  throw new Error('no empty Redis database among 8-15');
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: postgresUrl });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Counts, per worker, the steps that handed an EVM relayer transaction to the node. */
function countingSubmissions(counter: { submitted: number }) {
  return async (...args: Parameters<typeof openChains>) => {
    const opened = await openChains(...args);
    const count = (port: ChainPort): ChainPort =>
      port.namespace !== 'eip155'
        ? port
        : {
            ...port,
            advance: async (...a) => {
              const state = await port.advance(...a);
              if (state.state === 'submitted' || state.submittedNow) counter.submitted++;
              return state;
            },
          };
    return { ...opened, ports: opened.ports.map(count) };
  };
}

/** Watches the relayer's raw transactions arriving at the sandbox's JSON-RPC. */
function watchRelayerSends(server: SandboxChainsServer): void {
  const evm = server.chains.evm;
  const handle = evm.handleJsonRpc.bind(evm);
  const relayer = evm.relayer.address.toLowerCase();
  evm.handleJsonRpc = async (body: unknown) => {
    const answer = await handle(body);
    const calls = (Array.isArray(body) ? body : [body]) as Array<{ id?: unknown; method?: string; params?: unknown[] }>;
    const answers = (Array.isArray(answer) ? answer : [answer]) as Array<{ id?: unknown; error?: { message?: string } }>;
    for (const call of calls) {
      if (call.method !== 'eth_sendRawTransaction') continue;
      const tx = Transaction.from(String(call.params?.[0]));
      if (tx.from?.toLowerCase() !== relayer || !relayerSends.signedAt.set(tx.nonce, (relayerSends.signedAt.get(tx.nonce) ?? new Set()).add(tx.hash!))) continue;
      const error = answers.find((a) => a?.id === call.id)?.error;
      if (error) relayerSends.refused.push(error.message ?? 'refused');
      else relayerSends.accepted++;
    }
    return answer;
  };
}

async function call(method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'Api-Key': key, 'Content-Type': 'application/json', ...headers },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: await res.json() };
}

/** Runs `fn` over `items`, `limit` at a time. */
async function inBatches<T, R>(items: T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}

const counters = [{ submitted: 0 }, { submitted: 0 }];

if (services) {
  beforeAll(async () => {
    chains = await startSandboxChainsServer({ port: 0, assetsDir: dir });
    watchRelayerSends(chains);
    await admin((c) => c.query(`CREATE DATABASE ${database}`));
    redisDbUrl = await freeRedisDb();
    const env = {
      ...chains.env,
      // The premise: one key shared by two workers (the sandbox offers four), and one transaction per payment
      // (batches are on by default): the count of nonces below is the lock's evidence.
      EVM_RELAYER_KEYS: chains.env.EVM_RELAYER_KEY!,
      EVM_RELAYER_BATCH_MAX: '1',
      // 64 steps on the key at once (32 slots a worker) overtake each other's broadcasts on an automining node (issue 32).
      JOB_CONCURRENCY: process.env.SHARED_KEY_JOB_CONCURRENCY ?? 'settlement=32',
      DATABASE_URL: `${postgresUrl.replace(/\/[^/]*$/, '')}/${database}`,
      REDIS_URL: redisDbUrl,
      PORT: '0',
      LOGO_CHECKS: 'off',
      RATE_LIMIT_PER_S: '0',
      // Automining gives each block its own second, so chain time runs ahead of the clock by a second a transaction: signatures must outlive that.
      QUOTE_TTL_S: '3600',
      PAYMENT_DEFAULT_TTL_S: '3600',
      DATA_DIR: join(dir, 'data'),
    };
    // The API only takes requests and relays jobs; the two workers submit.
    api = await openRuntime(loadConfig({ ...env, JOB_WORKERS: 'off' }, dir), { role: 'api', logger, print: () => {} });
    for (const counter of counters) workers.push(await openRuntime(loadConfig(env, dir), { role: 'worker', logger, openChains: countingSubmissions(counter) }));
    http = createServer(api.api!.app);
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    const partner = await createPartner(api.storage, { name: 'Shared relayer shop', version: '2026-02-18', live: true });
    keys = { partner: partner.apiKey, wallet: (await createKey(api.storage, { partnerId: partner.partner.id, scope: 'wallet', live: true })).apiKey };
  }, 120_000);

  afterAll(async () => {
    http?.closeAllConnections();
    await new Promise<void>((r) => (http ? http.close(() => r()) : r()));
    for (const r of [...workers, api]) await r?.close();
    await chains?.close();
    await admin((c) => c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
    if (redisDbUrl) await deleteKeysWithPrefix(redisDbUrl, 'bull');
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  describe('one relayer key shared by two worker processes', () => {
    it(`pays ${PAYMENTS} gasless EVM payments, each with one relayer transaction of its own nonce, and ${SOLANA_PAYMENTS} Solana ones, none stalled`, async () => {
      const evm = chains.chains.evm;
      const usdc = chains.chains.assetConfigs().find((a) => a.symbol === 'USDC' && a.id.startsWith('eip155'))!.id;
      const usdt = chains.chains.assetConfigs().find((a) => a.symbol === 'USDT')!.id;
      const solUsdc = chains.chains.assetConfigs().find((a) => a.id.startsWith('solana:'))!.id;
      const solana = chains.chains.solana;
      const destination = Wallet.createRandom().address;
      const solDestination = Keypair.generate().publicKey.toBase58();
      // A Solana destination is offered once its token account exists (the fee payer never opens one).
      solana.openTokenAccount(solDestination);
      const m = await call('POST', '/v1/merchants', keys.partner, { merchantName: 'Shared Shop', merchantEmail: 'shop@shared.test' }, { 'Idempotency-Key': `m-${Math.random()}` });
      expect(m.status).toBe(201);
      const merchantId = m.body.merchant.id as string;
      const settlements = [
        ...[usdc, usdt].map((asset) => ({ asset, destination: `eip155:31337:${destination}` })),
        { asset: solUsdc, destination: `${solUsdc.split('/')[0]}:${solDestination}` },
      ];
      const s = await call('POST', `/v1/merchants/${merchantId}/settlements/crypto`, keys.partner, { settlements }, { 'Idempotency-Key': `s-${Math.random()}` });
      expect(s.status).toBe(201);
      const relayerNonceBefore = await evm.ethersProvider.getTransactionCount(evm.relayer.address, 'latest');

      type Option = { id: string; amount: { unit: string }; actions: Array<{ data: { method: string; params: any[]; data?: string } }> };
      /** A new payment's option in `asset` for `account` (the merchant takes three tokens: the buyer pays with the one it holds). */
      const optionFor = async (account: string, asset: string): Promise<{ id: string; option: Option }> => {
        const p = await call(
          'POST',
          '/v1/payments',
          keys.partner,
          { amount: { unit: 'iso4217/USD', value: '100' }, referenceId: `r-${Math.random()}` },
          { 'Merchant-Id': merchantId },
        );
        expect(p.status).toBe(201);
        const id = p.body.paymentId as string;
        const o = await call('POST', `/v1/gateway/payment/${id}/options`, keys.wallet, { accounts: [account] });
        expect(o.status).toBe(200);
        return { id, option: (o.body.options as Option[]).find((x) => x.amount.unit === `caip19/${asset}`)! };
      };

      // Buyers funded, every Permit2 buyer's approval in place, and every result signed, before the clock starts.
      const plan = Array.from({ length: PAYMENTS }, (_, i) => ({ flow: i % 2 === 0 ? 'eip3009' : 'permit2', wallet: Wallet.createRandom().connect(evm.ethersProvider) }));
      const prepared = await inBatches(plan, 8, async ({ flow, wallet }) => {
        const asset = flow === 'eip3009' ? usdc : usdt;
        await evm.fund(wallet.address, asset.split(':').pop()!, 2_000_000n);
        if (flow === 'permit2') await evm.fund(wallet.address, null, 10n ** 16n);
        const { id, option } = await optionFor(`eip155:31337:${wallet.address}`, asset);
        const results: string[] = [];
        for (const action of option.actions) {
          if (action.data.method === 'eth_sendTransaction') {
            const approve = await wallet.sendTransaction({ ...action.data.params[0], value: 0n });
            await approve.wait();
            results.push(approve.hash);
          } else results.push(await signTypedDataParams(wallet, action.data.params));
        }
        expect(results).toHaveLength(flow === 'permit2' ? 2 : 1);
        return { id, optionId: option.id, results, flow };
      });
      expect(prepared.filter((p) => p.flow === 'permit2')).toHaveLength(PAYMENTS / 2);
      // Solana last: its transactions carry a recent blockhash, kept fresh until confirmed.
      const solanaPrepared = await inBatches(Array.from({ length: SOLANA_PAYMENTS }), 8, async () => {
        const buyer = Keypair.generate();
        solana.fund(buyer.publicKey.toBase58(), solana.mint.toBase58(), 2_000_000n);
        const { id, option } = await optionFor(`${solana.caip2}:${buyer.publicKey.toBase58()}`, solUsdc);
        const f = await call('POST', `/v1/gateway/payment/${id}/fetch`, keys.wallet, { optionId: option.id, data: option.actions[0]!.data.data });
        expect(f.status).toBe(200);
        const tx = SolanaTransaction.from(Buffer.from(f.body.actions[0].data.params[0].transaction as string, 'base64'));
        tx.partialSign(buyer);
        return { id, optionId: option.id, results: [tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64')], flow: 'solana' };
      });

      // Confirm all (no wait in the confirm), then follow each by long-polling its status.
      const started = Date.now();
      const outcomes = await inBatches([...prepared, ...solanaPrepared], 60, async (p) => {
        const confirmedAt = Date.now();
        const c = await call('POST', `/v1/gateway/payment/${p.id}/confirm?maxPollMs=0`, keys.wallet, {
          optionId: p.optionId,
          results: p.results.map((r) => ({ type: 'walletRpc', data: [r] })),
        });
        expect(c.status).toBe(200);
        let status = c.body;
        // Back to requires_action means the chain refused the attempt: an outcome, not a wait.
        while (!status.isFinal && status.status !== 'requires_action' && Date.now() - confirmedAt < MAX_CONFIRM_TO_SUCCESS_MS + 10_000) {
          status = (await call('GET', `/v1/gateway/payment/${p.id}/status?maxPollMs=5000`, keys.wallet)).body;
        }
        return { flow: p.flow, status: status.status as string, txId: status.info?.txId as string | undefined, ms: Date.now() - confirmedAt };
      });
      const totalMs = Date.now() - started;
      const evmOutcomes = outcomes.filter((o) => o.flow !== 'solana');
      const solanaOutcomes = outcomes.filter((o) => o.flow === 'solana');
      const slowest = Math.max(...outcomes.map((o) => o.ms));
      console.log(
        `${PAYMENTS} EVM payments on one relayer key + ${SOLANA_PAYMENTS} Solana payments on one fee payer, 2 workers: ` +
          `${totalMs} ms from the first confirm to the last success, ${((outcomes.length * 1000) / totalMs).toFixed(1)} payments/s; ` +
          `slowest confirm → succeeded ${slowest} ms; EVM submissions per worker ${counters.map((c) => c.submitted).join(' / ')}; ` +
          `relayer sends refused by the node ${relayerSends.refused.length}`,
      );

      expect(outcomes.filter((o) => o.status !== 'succeeded')).toEqual([]);
      expect(slowest).toBeLessThan(MAX_CONFIRM_TO_SUCCESS_MS);
      expect(new Set(solanaOutcomes.map((o) => o.txId)).size).toBe(SOLANA_PAYMENTS);
      const txIds = new Set(evmOutcomes.map((o) => o.txId));
      expect(txIds.size).toBe(PAYMENTS);
      // Every payment's transaction is the relayer's, mined and successful, each with its own nonce...
      const txs = await inBatches([...txIds], 20, async (hash) => {
        const [tx, receipt] = await Promise.all([evm.ethersProvider.getTransaction(hash!), evm.ethersProvider.getTransactionReceipt(hash!)]);
        return { from: tx!.from, nonce: tx!.nonce, status: receipt?.status };
      });
      expect(txs.every((t) => t.from === evm.relayer.address && t.status === 1)).toBe(true);
      expect(new Set(txs.map((t) => t.nonce)).size).toBe(PAYMENTS);
      // ...and those are all the relayer mined: no other transaction took a nonce.
      expect((await evm.ethersProvider.getTransactionCount(evm.relayer.address, 'latest')) - relayerNonceBefore).toBe(PAYMENTS);
      // No nonce taken twice, nothing re-signed: one transaction per nonce. The automining sandbox may refuse only
      // an overtaking nonce (broadcast outside the lock) and earlier ones re-sent before it (relayer-nonce.ts).
      expect([...relayerSends.signedAt.values()].filter((hashes) => hashes.size > 1)).toEqual([]);
      expect(relayerSends.signedAt.size).toBe(PAYMENTS);
      expect(relayerSends.refused.filter((m) => !/^Nonce too (high|low)\./.test(m))).toEqual([]);
      // Both workers submitted: the key was shared, not left to one of them.
      expect(counters.every((c) => c.submitted > 0)).toBe(true);
      expect(counters[0]!.submitted + counters[1]!.submitted).toBe(PAYMENTS);
    }, 200_000);
  });
}

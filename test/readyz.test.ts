// /readyz with the service's fee accounts on the sandbox chains: a drained EVM relayer or Solana fee
// payer shows as degraded (still 200), with its account, balance and minimum, and is logged at most
// once a minute; a node that cannot be read shows as unreachable; storage down stays 503.
import { SystemProgram, Transaction, type Keypair } from '@solana/web3.js';
import { JsonRpcProvider, Wallet, parseEther, toQuantity } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvmChainAdapter } from '../adapters/chains/evm/gateway-adapter.ts';
import { createSolanaChainAdapter } from '../adapters/chains/solana/gateway-adapter.ts';
import { createEvmSandbox, type EvmSandbox } from '../adapters/sandbox/evm/index.ts';
import { createSolanaSandbox, type SolanaSandbox } from '../adapters/sandbox/solana/index.ts';
import { openEmbeddedStorage } from './helpers/embedded-storage.ts';
import { createServiceAccountChecks } from '../server/domain/service-accounts.ts';
import { createManualClock } from '../server/ports/clock.ts';
import type { Logger } from '../server/ports/logger.ts';
import type { ChainPort } from '../server/ports/chains.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

const MIN_WEI = parseEther('0.01');
const MIN_LAMPORTS = 50_000_000n;

describe('/readyz shows the balances of the accounts paying fees', () => {
  const clock = createManualClock(Date.now());
  const warnings: Array<{ fields: Record<string, unknown>; msg: string }> = [];
  const logger: Logger = { debug: () => {}, info: () => {}, error: () => {}, warn: (fields, msg) => warnings.push({ fields: fields as Record<string, unknown>, msg }) };
  let evm: EvmSandbox;
  const solana = createSolanaSandbox();
  // Its own fee payer, so the test sets what it holds through the sandbox's faucet alone.
  const feePayer = solana.keypair('readyz-fee-payer');
  let t: TestApp;
  let relayer: string;
  let ports: ChainPort[];
  beforeAll(async () => {
    evm = await createEvmSandbox();
    relayer = evm.relayer.address;
    solana.fund(feePayer.publicKey.toBase58(), null, MIN_LAMPORTS);
    ports = [
      createEvmChainAdapter([
        { caip2: evm.caip2, provider: evm.ethersProvider, relayer: new Wallet(evm.relayer.privateKey, evm.ethersProvider), permit2: evm.permit2Address, confirmations: 1 },
      ]),
      createSolanaChainAdapter([{ caip2: solana.caip2, connection: solana.connection, feePayer }]),
    ];
    t = await startTestApp(await openEmbeddedStorage(), { clock, serviceAccounts: createServiceAccountChecks({ ports, clock, logger }) });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await t?.storage.close();
    await evm?.close();
  });

  const setRelayerBalance = (wei: bigint) => evm.provider.request({ method: 'hardhat_setBalance', params: [relayer, toQuantity(wei)] });
  /** Past the balance cache: the next /readyz reads the chains again. */
  const later = (ms = 15_000) => clock.advance(ms);

  it('funded accounts: 200 ready, each account with its balance and minimum', async () => {
    await setRelayerBalance(MIN_WEI);
    later();
    const r = await t.call('GET', '/readyz');
    expect(r).toMatchObject({ status: 200 });
    expect(r.body).toEqual({
      status: 'ready',
      checks: {
        storage: { ok: true },
        [`relayer ${evm.caip2}`]: { ok: true, account: relayer, balance: MIN_WEI.toString(), minimum: MIN_WEI.toString() },
        [`fee-payer ${solana.caip2}`]: { ok: true, account: feePayer.publicKey.toBase58(), balance: MIN_LAMPORTS.toString(), minimum: MIN_LAMPORTS.toString() },
      },
      not_ready: [],
    });
    expect(warnings).toEqual([]);
  });

  it('a drained relayer: still 200 but degraded, naming the account; read again only after the cache, warned once a minute', async () => {
    await setRelayerBalance(MIN_WEI - 1n);
    expect((await t.call('GET', '/readyz')).body.status).toBe('ready'); // the cached read
    later();
    const r = await t.call('GET', '/readyz');
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('degraded');
    expect(r.body.checks[`relayer ${evm.caip2}`]).toEqual({ ok: false, account: relayer, balance: (MIN_WEI - 1n).toString(), minimum: MIN_WEI.toString() });
    expect(r.body.checks[`fee-payer ${solana.caip2}`].ok).toBe(true);
    expect(r.body.not_ready).toEqual([`relayer ${evm.caip2}`]);
    expect(warnings).toEqual([
      { fields: expect.objectContaining({ role: 'relayer', account: relayer, balance: (MIN_WEI - 1n).toString() }), msg: expect.stringMatching(/below its minimum/) },
    ]);
    later(30_000);
    expect((await t.call('GET', '/readyz')).body.status).toBe('degraded');
    expect(warnings).toHaveLength(1);
    later(30_000);
    await t.call('GET', '/readyz');
    expect(warnings).toHaveLength(2);
    await setRelayerBalance(MIN_WEI);
    later();
    expect((await t.call('GET', '/readyz')).body.status).toBe('ready');
    warnings.length = 0;
  });

  it('production: callers without METRICS_TOKEN see "balance low" only, never the account, balance or minimum', async () => {
    // Before: /readyz published the relayer's address and balance to anyone.
    const token = 'readyz-token-0123456789abcdef';
    const prod = await startTestApp(t.storage, { clock, mode: 'production', metricsToken: token, serviceAccounts: createServiceAccountChecks({ ports, clock, logger }) });
    try {
      await setRelayerBalance(MIN_WEI - 1n);
      later();
      const anyone = await prod.call('GET', '/readyz');
      expect(anyone.status).toBe(200);
      expect(anyone.body.status).toBe('degraded');
      expect(anyone.body.checks[`relayer ${evm.caip2}`]).toEqual({ ok: false, error: 'balance low' });
      expect(anyone.body.checks[`fee-payer ${solana.caip2}`]).toEqual({ ok: true });
      expect(JSON.stringify(anyone.body)).not.toMatch(new RegExp(`${relayer.slice(2)}|${feePayer.publicKey.toBase58()}|${MIN_WEI}`, 'i'));
      const wrong = await prod.call('GET', '/readyz', { headers: { Authorization: 'Bearer not-the-token-at-all' } });
      expect(wrong.body.checks[`relayer ${evm.caip2}`]).toEqual({ ok: false, error: 'balance low' });
      const operator = await prod.call('GET', '/readyz', { headers: { Authorization: `Bearer ${token}` } });
      expect(operator.body.checks[`relayer ${evm.caip2}`]).toEqual({ ok: false, account: relayer, balance: (MIN_WEI - 1n).toString(), minimum: MIN_WEI.toString() });
    } finally {
      await prod.close();
      await setRelayerBalance(MIN_WEI);
      later();
      warnings.length = 0;
    }
  });

  it('a Solana fee payer below its minimum shows the same way, and is ready again once topped up', async () => {
    const account = feePayer.publicKey.toBase58();
    // Fees paid and SOL sent out: what the fee payer holds is under the minimum now.
    const spent = await drainLamports(solana, feePayer, 1_000_000n);
    expect(spent).toBeGreaterThan(1_000_000n);
    later();
    const low = await t.call('GET', '/readyz');
    expect(low).toMatchObject({ status: 200, body: { status: 'degraded' } });
    expect(low.body.checks[`fee-payer ${solana.caip2}`]).toEqual({ ok: false, account, balance: (MIN_LAMPORTS - spent).toString(), minimum: MIN_LAMPORTS.toString() });
    expect(warnings.map((w) => w.fields.role)).toEqual(['fee-payer']);
    solana.fund(account, null, spent);
    later();
    expect((await t.call('GET', '/readyz')).body.status).toBe('ready');
    warnings.length = 0;
  });

  it('a node that cannot be read shows as unreachable rather than hanging /readyz', async () => {
    const down = new JsonRpcProvider('http://127.0.0.1:9', 31337, { staticNetwork: true });
    const port = createEvmChainAdapter([
      { caip2: 'eip155:31337', provider: down, relayer: new Wallet(evm.relayer.privateKey, down), permit2: evm.permit2Address, confirmations: 1 },
    ]);
    const app = await startTestApp(t.storage, { clock, serviceAccounts: createServiceAccountChecks({ ports: [port], clock, logger, timeoutMs: 2_000 }) });
    try {
      const started = Date.now();
      const r = await app.call('GET', '/readyz');
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(r).toMatchObject({
        status: 200,
        body: { status: 'degraded', checks: { storage: { ok: true }, 'relayer eip155:31337': { ok: false, account: relayer, error: 'rpc unreachable' } } },
      });
      expect(warnings.at(-1)?.msg).toMatch(/could not read/);
    } finally {
      down.destroy();
      await app.close();
    }
  }, 20_000);

  it('storage down: 503 in the error shape, with the checks', async () => {
    const storage = await openEmbeddedStorage();
    const app = await startTestApp(storage, { clock, serviceAccounts: createServiceAccountChecks({ ports: [], clock, logger }) });
    try {
      await storage.close();
      const r = await app.call('GET', '/readyz');
      expect(r).toMatchObject({
        status: 503,
        body: { code: 'service_unavailable', message: 'Storage is not reachable', checks: { storage: { ok: false, error: 'storage unreachable' } }, not_ready: ['storage'] },
      });
    } finally {
      await app.close();
    }
  });
});

/** Spends `lamports` of the fee payer's SOL on fees and a transfer out: a payer that has been paying. */
async function drainLamports(sandbox: SolanaSandbox, payer: Keypair, lamports: bigint): Promise<bigint> {
  const before = sandbox.balance(payer.publicKey.toBase58(), null);
  const { blockhash } = await sandbox.connection.getLatestBlockhash();
  const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(
    SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: sandbox.keypair('readyz-sink').publicKey, lamports }),
  );
  tx.sign(payer);
  await sandbox.connection.sendRawTransaction(tx.serialize());
  return before - sandbox.balance(payer.publicKey.toBase58(), null);
}

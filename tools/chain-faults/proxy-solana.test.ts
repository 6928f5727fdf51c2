// The fault proxy's Solana faults against the real sandbox cluster, seen through web3.js's
// Connection as the service sees its nodes: a node behind the cluster (slot, block height,
// statuses, signature lists, the blockhash it hands out, minContextSlot refused with -32016),
// dropped and held sends, refusals in the node's words, and blockhash expiry through the dev controls.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection, Keypair, SystemProgram, Transaction } from '@solana/web3.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxChainsServer, type SandboxChainsServer } from '../sandbox-chains/server.ts';
import { solanaDev, type SolanaDev } from './dev.ts';
import { startRpcFaultProxy, type RpcFaultProxy } from './proxy.ts';

let chains: SandboxChainsServer;
let proxy: RpcFaultProxy;
let dev: SolanaDev;
let nodes: Connection[];

beforeAll(async () => {
  chains = await startSandboxChainsServer({ port: 0, assetsDir: mkdtempSync(join(tmpdir(), 'fault-proxy-sol-')), devMethods: true });
  proxy = await startRpcFaultProxy({ solanaUpstream: `${chains.baseUrl}/solana`, nodes: 3 });
  dev = solanaDev(`${chains.baseUrl}/solana`);
  nodes = proxy.solanaUrls.map((url) => new Connection(url, { commitment: 'confirmed', disableRetryOnRateLimit: true }));
}, 120_000);
afterAll(async () => {
  await proxy?.close();
  await chains?.close();
});
afterEach(() => {
  proxy.clear();
  proxy.clearCalls();
});

/** A fee payer's transfer to a fresh account (above its rent minimum), signed on `connection`'s blockhash. */
async function transfer(connection: Connection, lamports = 1_000_000): Promise<Buffer> {
  const payer = chains.chains.solana.feePayer;
  const { blockhash } = await connection.getLatestBlockhash();
  const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(
    SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports }),
  );
  tx.sign(payer);
  return tx.serialize();
}

const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: Error) => e.message,
  );

describe('fault proxy: Solana', () => {
  it('a node behind the cluster: older slot and height, a landed transaction unseen, minContextSlot beyond it refused, the blockhash of its slot', async () => {
    const before = await nodes[0]!.getLatestBlockhash();
    await dev.advanceBlocks(3);
    const signature = await nodes[0]!.sendRawTransaction(await transfer(nodes[0]!));
    proxy.set('solana:1', { kind: 'lag', by: 4 });
    const tip = await nodes[0]!.getSlot('processed');
    expect(await nodes[1]!.getSlot('processed')).toBe(tip - 4);
    expect(await nodes[1]!.getBlockHeight('processed')).toBe((await nodes[0]!.getBlockHeight('processed')) - 4);
    const fresh = await nodes[0]!.getSignatureStatuses([signature]);
    expect(fresh.value[0]).toMatchObject({ err: null });
    const stale = await nodes[1]!.getSignatureStatuses([signature]);
    expect(stale.value[0]).toBeNull();
    expect(stale.context.slot).toBe(tip - 4);
    expect(await nodes[1]!.getSignaturesForAddress(chains.chains.solana.feePayer.publicKey, { limit: 5 })).not.toContainEqual(expect.objectContaining({ signature }));
    // The freshness a client asks for is refused, not answered stale (-32016 names the node's slot).
    expect(await errorOf(nodes[1]!.getSlot({ commitment: 'processed', minContextSlot: tip }))).toMatch(/Minimum context slot has not been reached/);
    const raw = (await (
      await fetch(proxy.solanaUrls[1]!, {
        method: 'POST',
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getBalance', params: [signature.slice(0, 44), { minContextSlot: tip }] }),
      })
    ).json()) as { error: unknown };
    expect(raw.error).toEqual({ code: -32016, message: 'Minimum context slot has not been reached', data: { contextSlot: tip - 4 } });
    // It hands out the blockhash it knew at its slot.
    expect((await nodes[1]!.getLatestBlockhash()).blockhash).toBe(before.blockhash);
    expect((await nodes[0]!.getLatestBlockhash()).blockhash).not.toBe(before.blockhash);
  });

  it('drops a send (the signature answered, never landed) and holds another until released', async () => {
    proxy.set('solana:2', { kind: 'drop-broadcasts' });
    const dropped = await nodes[2]!.sendRawTransaction(await transfer(nodes[0]!), { skipPreflight: true, maxRetries: 0 });
    await dev.advanceBlocks(2);
    expect((await nodes[0]!.getSignatureStatuses([dropped], { searchTransactionHistory: true })).value[0]).toBeNull();

    proxy.set('solana:0', { kind: 'hold-broadcasts' });
    const held = await nodes[0]!.sendRawTransaction(await transfer(nodes[1]!, 1_000_001));
    expect((await nodes[1]!.getSignatureStatuses([held])).value[0]).toBeNull();
    expect(await proxy.release('solana')).toEqual([{ result: held }]);
    expect((await nodes[1]!.getSignatureStatuses([held])).value[0]).toMatchObject({ err: null });
  });

  it('refuses a send in the node’s words, and a transaction on an expired blockhash is refused by the cluster itself', async () => {
    proxy.set('solana:0', { kind: 'refuse-broadcasts', reason: 'node-behind' }, { times: 1 });
    expect(await errorOf(nodes[0]!.sendRawTransaction(await transfer(nodes[1]!)))).toMatch(/Node is behind by \d+ slots/);
    const old = await transfer(nodes[1]!, 1_000_002);
    await dev.expireBlockhash();
    expect(await errorOf(nodes[0]!.sendRawTransaction(old))).toMatch(/BlockhashNotFound/);
    expect(await nodes[0]!.sendRawTransaction(await transfer(nodes[0]!, 1_000_003))).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
  });
});

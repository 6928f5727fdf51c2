// A web3.js Connection over several Solana endpoints (multi-fetch.ts), through the fault proxy in
// front of the real sandbox cluster: 5xx and hangs fail over, sends go to every node, and a node
// behind the slot already seen is never the one that answers (minContextSlot, statuses).
import { Connection, Keypair, SystemProgram, Transaction } from '@solana/web3.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { solanaDev, type SolanaDev } from '../../../tools/chain-faults/dev.ts';
import { startRpcFaultProxy, type RpcFaultProxy } from '../../../tools/chain-faults/proxy.ts';
import { sharedSandboxChains } from '../../../tools/chain-faults/standalone.ts';
import { parseSolanaSecretKey } from './config.ts';
import { multiEndpointFetch } from './multi-fetch.ts';

let proxy: RpcFaultProxy;
let dev: SolanaDev;
let payer: Keypair;

beforeAll(async () => {
  const chains = await sharedSandboxChains();
  proxy = await startRpcFaultProxy({ solanaUpstream: chains.solanaUrl, nodes: 3 });
  dev = solanaDev(chains.solanaUrl);
  payer = parseSolanaSecretKey(chains.env.SOLANA_FEE_PAYER_KEY!);
}, 120_000);
afterAll(async () => {
  await proxy?.close();
});
afterEach(() => {
  proxy.clear();
  proxy.clearCalls();
});

const connect = (timeoutMs = 1_000) => {
  const { fetch } = multiEndpointFetch(proxy.solanaUrls, 'confirmed', { timeoutMs });
  return new Connection(proxy.solanaUrls[0]!, { commitment: 'confirmed', fetch, disableRetryOnRateLimit: true });
};

async function transfer(connection: Connection): Promise<Buffer> {
  const { blockhash } = await connection.getLatestBlockhash();
  const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(
    SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1_000_000 }),
  );
  tx.sign(payer);
  return tx.serialize();
}

const nodesCalled = (method: string) => [...new Set(proxy.calls({ chain: 'solana', method }).map((c) => c.node))].sort();

describe('Solana endpoints as they are', () => {
  it('a node answering 502, then one hanging: the read is answered by the next node within the timeout', async () => {
    proxy.set('solana:0', { kind: 'http-error', status: 502 });
    proxy.set('solana:1', { kind: 'hang' });
    // before: one URL; web3.js waits on the hung node with no bound of its own.
    expect((await connect(500).getLatestBlockhash()).blockhash).toMatch(/^[1-9A-HJ-NP-Za-km-z]+$/);
    expect(nodesCalled('getLatestBlockhash')).toEqual([0, 1, 2]);
  });

  it('a send goes to every node: one dropping it does not lose the transaction', async () => {
    const connection = connect();
    const raw = await transfer(connection);
    proxy.set('solana:0', { kind: 'drop-broadcasts' });
    const signature = await connection.sendRawTransaction(raw, { skipPreflight: true });
    // The first acceptance answers; the other nodes' copies are on their way.
    await vi.waitFor(() => expect(nodesCalled('sendTransaction')).toEqual([0, 1, 2]));
    // before: node 0 answers the signature and forwards nothing: never lands; after: landed through node 1.
    const { value } = await connection.getSignatureStatuses([signature]);
    expect(value[0]?.err).toBeNull();
  });

  it('a node behind the slot already seen is passed minContextSlot, refuses, and another node answers', async () => {
    const connection = connect();
    await connection.getLatestBlockhash();
    await dev.advanceBlocks(5);
    await connection.getLatestBlockhash();
    proxy.set('solana:0', { kind: 'lag', by: 4 });
    expect(await connection.getAccountInfo(payer.publicKey)).not.toBeNull();
    const asked = proxy.calls({ chain: 'solana', method: 'getAccountInfo' });
    expect(asked.map((c) => c.node)).toEqual([0, 1]);
    expect((asked[0]!.params[1] as { minContextSlot?: number }).minContextSlot).toBeGreaterThan(0);
  });

  it('a status read from a node behind the slot already seen is not "not found": another node answers it landed', async () => {
    const connection = connect();
    const signature = await connection.sendRawTransaction(await transfer(connection), { skipPreflight: true });
    await dev.advanceBlocks(3);
    expect((await connection.getSignatureStatuses([signature])).value[0]).not.toBeNull();
    proxy.set('solana:0', { kind: 'lag', by: 3 });
    // before: node 0 answers null (and a block height past the blockhash's fails the payment); after: node 1's status.
    expect((await connection.getSignatureStatuses([signature])).value[0]?.err).toBeNull();
    expect(proxy.calls({ chain: 'solana', method: 'getSignatureStatuses', node: 1 })).toHaveLength(1);
  });
});

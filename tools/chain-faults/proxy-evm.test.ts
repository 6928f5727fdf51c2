// The fault proxy's EVM faults against the real sandbox node, seen through ethers as the service
// sees its nodes: a lagging replica (head, pinned reads, hidden receipts, stale pending nonce,
// logs), eth_getLogs range caps with providers' messages, dropped/held/refused broadcasts with
// geth's messages, geth's estimate at latest; and reorgs through the dev controls.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Contract, JsonRpcProvider, Wallet, parseEther, type TransactionRequest } from 'ethers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxChainsServer, type SandboxChainsServer } from '../sandbox-chains/server.ts';
import { evmDev, type EvmDev } from './dev.ts';
import { startRpcFaultProxy, type RpcFaultProxy } from './proxy.ts';

let chains: SandboxChainsServer;
let proxy: RpcFaultProxy;
let dev: EvmDev;
let nodes: JsonRpcProvider[];
let rich: Wallet;

const provider = (url: string) => new JsonRpcProvider(url, 31337, { staticNetwork: true, cacheTimeout: -1, batchMaxCount: 1 });

beforeAll(async () => {
  chains = await startSandboxChainsServer({ port: 0, assetsDir: mkdtempSync(join(tmpdir(), 'fault-proxy-evm-')), devMethods: true });
  proxy = await startRpcFaultProxy({ evmUpstream: `${chains.baseUrl}/evm`, nodes: 3 });
  dev = evmDev(`${chains.baseUrl}/evm`);
  nodes = proxy.evmUrls.map(provider);
  rich = new Wallet(chains.env.EVM_RELAYER_KEY!, nodes[0]);
}, 120_000);
afterAll(async () => {
  for (const p of nodes ?? []) p.destroy();
  await proxy?.close();
  await chains?.close();
});
afterEach(async () => {
  proxy.clear();
  proxy.clearCalls();
  // Nothing left in the mempool for the next test's blocks.
  await dev.setAutomine(true);
  await dev.mine(1);
});

async function funded(eth = '1'): Promise<Wallet> {
  const w = Wallet.createRandom().connect(nodes[0]!);
  await dev.setBalance(w.address, parseEther(eth));
  return new Wallet(w.privateKey, nodes[0]);
}

const signed = (w: Wallet, tx: TransactionRequest) => w.populateTransaction(tx).then((t) => w.signTransaction(t));
const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: { error?: { message: string }; info?: { error?: { message: string } }; message: string }) => e.error?.message ?? e.info?.error?.message ?? e.message,
  );

describe('fault proxy: EVM', () => {
  it('a lagging replica answers as of an older head: block number, pinned reads, hidden receipt and block, stale pending nonce, logs', async () => {
    const w = await funded();
    await dev.mine(3);
    proxy.set('evm:1', { kind: 'lag', by: 2 });
    const usdc = chains.chains.evm.usdcAddress;
    await chains.chains.evm.fund(w.address, usdc, 5n);
    const tx = await new Contract(usdc, ['function transfer(address,uint256)'], w).getFunction('transfer').send(Wallet.createRandom().address, 5n);
    const receipt = await tx.wait();
    const head = await nodes[0]!.getBlockNumber();
    expect(receipt!.blockNumber).toBe(head);
    const stale = nodes[1]!;
    expect(await stale.getBlockNumber()).toBe(head - 2);
    expect(await stale.getTransactionReceipt(tx.hash)).toBeNull();
    expect(await stale.getTransaction(tx.hash)).toBeNull();
    expect(await stale.getBlock(head)).toBeNull();
    expect(await stale.getTransactionCount(w.address, 'pending')).toBe(0);
    expect(await nodes[0]!.getTransactionCount(w.address, 'pending')).toBe(1);
    expect(await stale.send('eth_getBalance', [w.address, `0x${head.toString(16)}`]).catch((e: { error?: { message: string } }) => e.error?.message)).toBe('header not found');
    const logs = { address: usdc, fromBlock: head - 1, toBlock: 'latest' };
    expect((await nodes[0]!.getLogs(logs)).map((l) => l.transactionHash)).toContain(tx.hash);
    expect(await stale.getLogs(logs)).toEqual([]);
    // Two blocks later the replica has caught up to the transaction.
    await dev.mine(2);
    expect((await stale.getTransactionReceipt(tx.hash))?.blockNumber).toBe(receipt!.blockNumber);
    expect(proxy.calls({ node: 1 }).every((c) => c.fault === 'lag')).toBe(true);
  });

  it('caps eth_getLogs ranges with the provider’s code and message, and lets a range within the cap through', async () => {
    await dev.mine(12);
    const head = await nodes[0]!.getBlockNumber();
    proxy.set('evm:0', { kind: 'logs-range-cap', maxBlocks: 10 });
    proxy.set('evm:1', { kind: 'logs-range-cap', maxBlocks: 10, provider: 'infura' });
    const wide = [{ fromBlock: `0x${(head - 10).toString(16)}`, toBlock: `0x${head.toString(16)}` }];
    const refused = (await (await fetch(proxy.evmUrls[0]!, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: wide }) })).json()) as {
      error: { code: number; message: string };
    };
    const from = (head - 10).toString(16);
    expect(refused.error).toEqual({
      code: -32600,
      message: `You can make eth_getLogs requests with up to a 10 block range. Based on your parameters, this block range should work: [0x${from}, 0x${(head - 1).toString(16)}]`,
    });
    expect(await errorOf(nodes[1]!.send('eth_getLogs', wide))).toBe('range 11 exceeds limit of 10');
    expect(await nodes[0]!.send('eth_getLogs', [{ fromBlock: `0x${(head - 9).toString(16)}`, toBlock: 'latest' }])).toEqual(expect.any(Array));
    expect(await nodes[2]!.send('eth_getLogs', wide)).toEqual(expect.any(Array));
  });

  it('drops a broadcast (hash answered, never mined) and holds another until released', async () => {
    const w = await funded();
    proxy.set('evm:2', { kind: 'drop-broadcasts' });
    const raw = await signed(w, { to: w.address, value: 1n });
    const hash = await nodes[2]!.send('eth_sendRawTransaction', [raw]);
    await dev.mine(2);
    expect(await nodes[0]!.getTransaction(hash as string)).toBeNull();
    expect(await nodes[0]!.getTransactionCount(w.address, 'pending')).toBe(0);

    proxy.set('evm:1', { kind: 'hold-broadcasts' });
    const held = await nodes[1]!.send('eth_sendRawTransaction', [raw]);
    expect(held).toBe(hash);
    expect(proxy.held().map((h) => h.id)).toEqual([hash]);
    await dev.mine(1);
    expect(await nodes[0]!.getTransactionReceipt(hash as string)).toBeNull();
    expect(await proxy.release('evm')).toEqual([{ result: hash }]);
    expect((await nodes[0]!.getTransactionReceipt(hash as string))?.status).toBe(1);
  });

  it('refuses broadcasts with geth’s messages and the transaction’s own numbers; conditional refusals let a re-priced transaction through', async () => {
    const w = await funded();
    await dev.setAutomine(false);
    const lowTip = await signed(w, { to: w.address, value: 1n, nonce: 0, maxPriorityFeePerGas: 1_000_000_000n, maxFeePerGas: 50_000_000_000n, gasLimit: 21_000n });
    proxy.set('evm:0', { kind: 'refuse-broadcasts', reason: 'polygon-min-tip' });
    expect(await errorOf(nodes[0]!.send('eth_sendRawTransaction', [lowTip]))).toBe('transaction underpriced: gas tip cap 1000000000, minimum needed 25000000000');
    const fair = await signed(w, { to: w.address, value: 1n, nonce: 0, maxPriorityFeePerGas: 30_000_000_000n, maxFeePerGas: 60_000_000_000n, gasLimit: 21_000n });
    expect(await nodes[0]!.send('eth_sendRawTransaction', [fair])).toMatch(/^0x[0-9a-f]{64}$/);
    proxy.clear();

    proxy.set('evm:1', { kind: 'refuse-broadcasts', reason: 'nonce-too-low' }, { times: 1 });
    expect(await errorOf(nodes[1]!.send('eth_sendRawTransaction', [lowTip]))).toBe('nonce too low: next nonce 0, tx nonce 0');
    proxy.set('evm:1', { kind: 'refuse-broadcasts', reason: 'insufficient-funds' }, { times: 1 });
    expect(await errorOf(nodes[1]!.send('eth_sendRawTransaction', [lowTip]))).toBe(
      `insufficient funds for gas * price + value: balance ${parseEther('1')}, tx cost ${21_000n * 50_000_000_000n + 1n}, overshot ${21_000n * 50_000_000_000n + 1n - parseEther('1')}`,
    );
    proxy.set('evm:1', { kind: 'refuse-broadcasts', reason: 'intrinsic-gas-too-low' }, { times: 1 });
    expect(await errorOf(nodes[1]!.send('eth_sendRawTransaction', [lowTip]))).toBe('intrinsic gas too low: gas 21000, minimum needed 21000');

    // A base-fee spike: a max fee below it is refused, one above it is not.
    await dev.setNextBaseFee(100_000_000_000n);
    await dev.mine(1);
    proxy.set('evm:2', { kind: 'refuse-broadcasts', reason: 'fee-cap-below-base-fee' });
    const under = await signed(w, { to: w.address, value: 2n, nonce: 1, maxPriorityFeePerGas: 1n, maxFeePerGas: 2_000_000_000n, gasLimit: 21_000n });
    expect(await errorOf(nodes[2]!.send('eth_sendRawTransaction', [under]))).toMatch(
      new RegExp(`^max fee per gas less than block base fee: address ${w.address}, maxFeePerGas: 2000000000, baseFee: 100000000000$`),
    );
    const over = await signed(w, { to: w.address, value: 2n, nonce: 1, maxPriorityFeePerGas: 1n, maxFeePerGas: 200_000_000_000n, gasLimit: 21_000n });
    expect(await nodes[2]!.send('eth_sendRawTransaction', [over])).toMatch(/^0x/);
  });

  it('words the node’s own refusals as geth does, and a refusal with forward still reaches the node', async () => {
    const w = await funded();
    await dev.setAutomine(false);
    const raw = await signed(w, { to: w.address, value: 1n, nonce: 0, gasLimit: 21_000n });
    proxy.set('evm:0', { kind: 'refuse-broadcasts', reason: 'already-known', forward: true }, { times: 1 });
    expect(await errorOf(nodes[0]!.send('eth_sendRawTransaction', [raw]))).toBe('already known');
    // It was forwarded: the node knows it, and says so in its own words, rewritten.
    expect(await errorOf(nodes[1]!.send('eth_sendRawTransaction', [raw]))).toBe('already known');
    await dev.mine(1);
    expect(await errorOf(nodes[1]!.send('eth_sendRawTransaction', [raw]))).toBe('nonce too low: next nonce 1, tx nonce 0');
    const poor = Wallet.createRandom();
    const broke = await poor.signTransaction({ to: w.address, value: 1n, nonce: 0, gasLimit: 21_000n, maxFeePerGas: 1_000_000_000n, maxPriorityFeePerGas: 1n, chainId: 31337 });
    expect(await errorOf(nodes[1]!.send('eth_sendRawTransaction', [broke]))).toBe(
      `insufficient funds for gas * price + value: balance 0, tx cost ${21_000n * 1_000_000_000n + 1n}, overshot ${21_000n * 1_000_000_000n + 1n}`,
    );
  });

  it('estimates gas against latest on a geth-like node, where a pending token transfer does not count yet', async () => {
    const usdc = new Contract(chains.chains.evm.usdcAddress, ['function transfer(address,uint256) returns (bool)'], rich);
    await chains.chains.evm.fund(rich.address, chains.chains.evm.usdcAddress, 10n);
    await dev.setAutomine(false);
    const fresh = Wallet.createRandom().address;
    await usdc.getFunction('transfer').send(fresh, 10n, { gasLimit: 100_000n });
    const spend = { from: fresh, to: chains.chains.evm.usdcAddress, data: usdc.interface.encodeFunctionData('transfer', [rich.address, 10n]) };
    expect(BigInt(await nodes[0]!.send('eth_estimateGas', [spend]))).toBeGreaterThan(21_000n);
    proxy.set('evm:0', { kind: 'estimate-at-latest' });
    expect(await errorOf(nodes[0]!.send('eth_estimateGas', [spend]))).toMatch(/revert|exceeds balance/i);
  });

  it('reorgs through the dev controls: the mined transaction is gone, a conflicting one takes its place on a longer branch', async () => {
    const w = await funded();
    const mark = await dev.snapshot();
    const markedHead = await dev.head();
    const first = await w.sendTransaction({ to: Wallet.createRandom().address, value: 1n, nonce: 0 });
    await first.wait();
    await dev.mine(2);
    const oldHead = await dev.head();
    expect(oldHead - markedHead).toBeGreaterThanOrEqual(3);
    const conflicting = await signed(w, { to: w.address, value: 7n, nonce: 0, gasLimit: 21_000n });
    const result = await dev.reorg(mark, { conflicting: [conflicting] });
    expect(result).toMatchObject({ depth: oldHead - markedHead, from: markedHead + 1, oldHead });
    expect(result.newHead).toBeGreaterThan(result.oldHead);
    expect(await nodes[0]!.getTransactionReceipt(first.hash)).toBeNull();
    expect(await nodes[0]!.getTransaction(first.hash)).toBeNull();
    const replaced = (await nodes[0]!.getBlock(result.from, true))!;
    expect(replaced.transactions).toHaveLength(1);
    expect(await nodes[0]!.getTransactionCount(w.address)).toBe(1);
    await expect(dev.reorg(mark)).rejects.toThrow(/not taken through this helper/);
  });

  it('reorgs that return the picked dropped transactions to the pool, as geth does, and lose the others', async () => {
    const buyer = await funded();
    const relayer = await funded();
    const mark = await dev.snapshot();
    const kept = await buyer.sendTransaction({ to: Wallet.createRandom().address, value: 3n, nonce: 0 });
    const lost = await relayer.sendTransaction({ to: Wallet.createRandom().address, value: 4n, nonce: 0 });
    await Promise.all([kept.wait(), lost.wait()]);
    await dev.reorg(mark, { reinject: (tx) => tx.from.toLowerCase() === buyer.address.toLowerCase() });
    expect((await nodes[0]!.getTransactionReceipt(kept.hash))?.status).toBe(1);
    expect(await nodes[0]!.getTransactionReceipt(lost.hash)).toBeNull();
  });
});

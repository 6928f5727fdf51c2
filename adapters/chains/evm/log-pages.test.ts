// Log searches on a provider that caps eth_getLogs at 10 blocks (the fault proxy speaking Alchemy's
// and reth's refusals in front of the real sandbox chain): the pages shrink, the log is found, and
// the next search starts at the size learned.
import { JsonRpcProvider, Wallet, id, zeroPadValue } from 'ethers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { evmDev, type EvmDev } from '../../../tools/chain-faults/dev.ts';
import { startRpcFaultProxy, type RpcFaultProxy } from '../../../tools/chain-faults/proxy.ts';
import { sharedSandboxChains, type StandaloneChains } from '../../../tools/chain-faults/standalone.ts';
import { forEachLogPage, logPageSize } from './log-pages.ts';

let chains: StandaloneChains;
let proxy: RpcFaultProxy;
let dev: EvmDev;
let usdc: string;

beforeAll(async () => {
  chains = await sharedSandboxChains();
  proxy = await startRpcFaultProxy({ evmUpstream: chains.evmUrl, nodes: 1 });
  dev = evmDev(chains.evmUrl);
  await dev.setIntervalMining(0);
  await dev.setAutomine(true);
  const described = (await (await fetch(`${chains.baseUrl}/sandbox`)).json()) as { assets: Array<{ caip19: string; symbol: string }> };
  usdc = described.assets
    .find((a) => a.symbol === 'USDC' && a.caip19.startsWith('eip155:'))!
    .caip19.split(':')
    .at(-1)!;
}, 120_000);
afterAll(async () => {
  await proxy?.close();
});
afterEach(() => {
  proxy.clear();
  proxy.clearCalls();
});

async function mintedAt(): Promise<{ to: string; block: number }> {
  const to = Wallet.createRandom().address;
  const res = await fetch(`${chains.baseUrl}/sandbox/faucet`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: `eip155:31337:${to}`, asset: `eip155:31337/erc20:${usdc}`, value: '5' }),
  });
  expect(res.ok).toBe(true);
  return { to, block: await dev.head() };
}

const search = async (provider: JsonRpcProvider, to: string, from: number, toBlock: number) => {
  const found: string[] = [];
  await forEachLogPage(provider, { address: usdc, topics: [id('Transfer(address,address,uint256)'), null, zeroPadValue(to, 32)] }, from, toBlock, async (logs) => {
    found.push(...logs.map((l) => l.transactionHash));
    return logs.length > 0;
  });
  return found;
};

describe.each(['alchemy', 'reth'] as const)('eth_getLogs capped at 10 blocks (%s)', (provider) => {
  it('the pages shrink until accepted, the log is found, and the size is remembered', async () => {
    const p = new JsonRpcProvider(proxy.evmUrls[0], 31337, { staticNetwork: true, cacheTimeout: -1, batchMaxCount: 1 });
    await dev.mine(30);
    const { to, block } = await mintedAt();
    await dev.mine(5);
    proxy.set('evm:0', { kind: 'logs-range-cap', maxBlocks: 10, provider });
    // before: one 2,000-block page, refused, thrown: the payment stays pending forever; after: found.
    expect(await search(p, to, block - 30, block + 5)).toHaveLength(1);
    expect(logPageSize(p)).toBeLessThanOrEqual(10);
    proxy.clearCalls();
    expect(await search(p, to, block - 30, block + 5)).toHaveLength(1);
    const ranges = proxy.calls({ method: 'eth_getLogs' }).map((c) => c.fault);
    expect(ranges.every((f) => f === null)).toBe(true);
    p.destroy();
  });
});

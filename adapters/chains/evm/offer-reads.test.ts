// Options in front of the real sandbox chain through the fault proxy (three nodes), the production
// wiring (evmChainsFromConfig): what building an offer costs in RPC calls and round trips, and
// which failed reads still leave the gasless flows on offer.
import { Wallet, type JsonRpcProvider } from 'ethers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAssetRegistry, type AssetInfo } from '../../../server/domain/assets.ts';
import type { ChainPort, OptionRequest, PreparedOption, UnavailableOption } from '../../../server/ports/chains.ts';
import { evmDev, httpUpstream, sharedSandboxChains, startRpcFaultProxy, type RpcFaultProxy } from '../../../tools/chain-faults/index.ts';
import { evmChainsFromConfig } from './config.ts';
import { createEvmChainAdapter, type EvmChainConfig } from './gateway-adapter.ts';
import { cachedByKey } from './offer-reads.ts';

const CHAIN_ID = 31337;
const CAIP2 = `eip155:${CHAIN_ID}`;
let proxy: RpcFaultProxy;
let env: Record<string, string>;
let usdc: AssetInfo;
let usdt: AssetInfo;
let exchanges = 0;
const opened: EvmChainConfig[] = [];

beforeAll(async () => {
  const chains = await sharedSandboxChains();
  env = chains.env;
  proxy = await startRpcFaultProxy({ evmUpstream: chains.evmUrl, nodes: 3 });
  const dev = evmDev(httpUpstream(chains.evmUrl));
  await dev.setIntervalMining(0);
  await dev.setAutomine(true);
  const sandbox = (await (await fetch(`${chains.baseUrl}/sandbox`)).json()) as { assets: Array<{ caip19: string; symbol: string }> };
  const evmAsset = (symbol: string) => sandbox.assets.find((a) => a.symbol === symbol && a.caip19.startsWith('eip155:'))!.caip19;
  const registry = createAssetRegistry([
    { id: evmAsset('USDC'), symbol: 'USDC', name: 'USD Coin', decimals: 6, flows: ['eip3009', 'transfer'], networkName: 'Sandbox' },
    { id: evmAsset('USDT'), symbol: 'USDT', name: 'Tether', decimals: 6, flows: ['permit2'], approveFromZero: true, networkName: 'Sandbox' },
  ]);
  usdc = registry.get(evmAsset('USDC'))!;
  usdt = registry.get(evmAsset('USDT'))!;
}, 120_000);
afterAll(async () => {
  for (const c of opened) (c.provider as JsonRpcProvider).destroy();
  await proxy?.close();
});
afterEach(() => {
  proxy.clear();
  proxy.clearCalls();
});

/** The adapter as production wires it, over the proxy's three nodes; HTTP exchanges counted. */
function adapter(clock?: { now(): number }, timeoutMs = 2_000): ChainPort {
  const counting: typeof fetch = (input, init) => {
    exchanges++;
    return fetch(input, init);
  };
  const configs = evmChainsFromConfig({ [CAIP2]: proxy.evmUrls }, env.EVM_RELAYER_KEY!, env.PERMIT2_ADDRESS!, 1, () => ({}), { pool: { timeoutMs, fetch: counting } });
  opened.push(...configs);
  return createEvmChainAdapter(configs.map((c) => ({ ...c, ...(clock ? { clock } : {}) })));
}

let n = 0;
function request(asset: AssetInfo, buyer: string): OptionRequest {
  n++;
  return {
    paymentId: `pay_offer_${n}`,
    optionId: `opt_offer_${n}`,
    account: `${CAIP2}:${buyer}`,
    asset,
    amount: 1_000_000n,
    destination: `${CAIP2}:${Wallet.createRandom().address}`,
    deadline: new Date(Date.now() + 5 * 60_000),
    quotedAt: new Date(),
  };
}

/** One account's options for both assets, prepared side by side as the options call does. */
const bothAssets = (port: ChainPort, buyer: string) => Promise.all([port.prepareOption(request(usdc, buyer)), port.prepareOption(request(usdt, buyer))]);

const methodOf = (o: PreparedOption | UnavailableOption) =>
  'unavailable' in o ? `unavailable: ${o.unavailable}` : o.actions.map((a) => String((a.data as { method?: string }).method)).join(' + ');
const calls = (method: string) => proxy.calls({ chain: 'evm', method }).length;

describe('EVM options over slow and throttling nodes', () => {
  it('one account × two assets: each read once, no head read per read, in one round trip; a second buyer soon after reads only its own', async () => {
    // The adapter's clock stands still: "soon after" is then within every shared read's lifetime
    // however slow a busy machine is (on the wall clock the head read once expired between the two calls).
    const at = Date.now();
    const port = adapter({ now: () => at });
    await bothAssets(port, Wallet.createRandom().address); // the token domain, read once per process
    proxy.clearCalls();
    exchanges = 0;
    const buyer = Wallet.createRandom().address;
    const [eip3009, permit2] = await bothAssets(port, buyer);
    expect(methodOf(eip3009)).toBe('eth_signTypedData_v4');
    expect(methodOf(permit2)).toBe('eth_sendTransaction + eth_signTypedData_v4');
    // before [2, 1, 3, 3]: getCode twice and the allowance, each batched with an eth_blockNumber, 3 exchanges;
    // after: the buyer's code and allowance, read once each, in one exchange.
    expect([calls('eth_getCode'), calls('eth_call'), calls('eth_blockNumber'), exchanges]).toEqual([1, 1, 0, 1]);
    // The same buyer again (a wallet refreshing): nothing read.
    proxy.clearCalls();
    await bothAssets(port, buyer);
    expect(proxy.calls({ chain: 'evm' })).toHaveLength(0);
  });

  it('a node that hangs costs an options call 1.5 s, not the pool timeout (8 s) past the chain bound (4 s)', async () => {
    const port = adapter(undefined, 8_000);
    await bothAssets(port, Wallet.createRandom().address);
    proxy.set('evm:0', { kind: 'hang' });
    const started = Date.now();
    const [eip3009, permit2] = await bothAssets(port, Wallet.createRandom().address);
    // before: 8,0xx ms (the pool's timeout on node 0, then node 1); after: about 1,500 ms.
    expect(Date.now() - started).toBeLessThan(4_000);
    expect([methodOf(eip3009), methodOf(permit2)]).toEqual(['eth_signTypedData_v4', 'eth_sendTransaction + eth_signTypedData_v4']);
  });

  it('every node failing eth_getCode: the gasless flow stays on offer (the submission reads the code again before paying)', async () => {
    const port = adapter();
    // The tokens' configuration is checked once first (self-checks.ts): unverifiable, an asset is not
    // offered at all. What fails here is the buyer's code read, on every node.
    await bothAssets(port, Wallet.createRandom().address);
    proxy.set('evm:*', { kind: 'rpc-error', code: -32603, message: 'internal error' }, { methods: ['eth_getCode'] });
    const [eip3009, permit2] = await bothAssets(port, Wallet.createRandom().address);
    // before: the direct transfer only (a buyer without gas cannot pay) and no USDT option at all; after: both gasless flows.
    expect(methodOf(eip3009)).toBe('eth_signTypedData_v4');
    expect(methodOf(permit2)).toBe('eth_sendTransaction + eth_signTypedData_v4');
  });

  it('the allowance unreadable on every node: no Permit2 option, and the answer says why', async () => {
    const port = adapter();
    await bothAssets(port, Wallet.createRandom().address);
    proxy.set('evm:*', { kind: 'rpc-error', code: -32603, message: 'internal error' }, { methods: ['eth_call'] });
    const [eip3009, permit2] = await bothAssets(port, Wallet.createRandom().address);
    expect(methodOf(eip3009)).toBe('eth_signTypedData_v4');
    // before: prepareOption threw (CALL_EXCEPTION), and the options call dropped the whole chain.
    expect(methodOf(permit2)).toMatch(/^unavailable: the service could not read the account's Permit2 allowance on eip155:31337; ask again shortly$/);
  });

  it('every node throttling (429, Retry-After: 1) after the relayer balance was read: its last balance weighs the gasless flow', async () => {
    let offsetMs = 0;
    const port = adapter({ now: () => Date.now() + offsetMs });
    await bothAssets(port, Wallet.createRandom().address);
    // Past the balance's shared time: it is read again, and every node refuses.
    offsetMs = 16_000;
    proxy.set('evm:*', { kind: 'throttle', retryAfter: 1 }, { methods: ['eth_getBalance'] });
    const [eip3009] = await bothAssets(port, Wallet.createRandom().address);
    expect(calls('eth_getBalance')).toBeGreaterThan(0);
    // before: "could not read eip155:31337": the direct transfer only; after: EIP-3009.
    expect(methodOf(eip3009)).toBe('eth_signTypedData_v4');
  });
});

describe('offer read cache', () => {
  it('shares a read per key for its time, drops a failed one, and keeps at most its number of keys', async () => {
    let t = 0;
    let reads = 0;
    let fail = false;
    const read = cachedByKey(
      1_000,
      2,
      async (key) => {
        reads++;
        if (fail) throw new Error('node down');
        return `${key}${reads}`;
      },
      () => t,
    );
    expect(await Promise.all([read('a'), read('a'), read('b')])).toEqual(['a1', 'a1', 'b2']);
    t += 1_001;
    expect(await read('a')).toBe('a3');
    fail = true;
    await expect(read('c')).rejects.toThrow('node down');
    fail = false;
    expect(await read('c')).toBe('c5');
    // 'b' was the oldest of three: dropped, read again.
    expect(await read('b')).toBe('b6');
  });
});

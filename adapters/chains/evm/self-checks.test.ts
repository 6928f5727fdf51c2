// The self-checks against the real sandbox EVM chain (FiatToken USDC, a plain ERC-20, Permit2),
// configured wrong on purpose: a domain version the token does not sign in, decimals it does not
// have, a Permit2 address without code. Each is reported, and what it would break is not offered.
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssetRegistry, type AssetConfig, type AssetInfo } from '../../../server/domain/assets.ts';
import { expectOption, type ChainPort, type OptionRequest } from '../../../server/ports/chains.ts';
import { createEvmChainAdapter, type EvmChainConfig } from './gateway-adapter.ts';
import { startHarness, type Harness } from './test-support.ts';
import { MULTICALL3_ADDRESS } from './multicall.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 120_000);
afterAll(async () => {
  await h?.sandbox.close();
});

const chain = (over: Partial<EvmChainConfig> = {}): EvmChainConfig => ({
  caip2: h.sandbox.caip2,
  provider: h.sandbox.ethersProvider,
  relayer: h.relayer,
  permit2: h.sandbox.permit2Address,
  confirmations: 1,
  ...over,
});

/** The sandbox's assets as configured, each changed by `over` (by symbol). */
function assets(over: Record<string, Partial<AssetConfig>> = {}): AssetInfo[] {
  const configs = h.sandbox.assets.map((a): AssetConfig => ({
    id: a.caip19,
    symbol: a.symbol,
    name: a.name,
    decimals: a.decimals,
    flows: [...a.flows],
    networkName: 'Sandbox',
    ...over[a.symbol],
  }));
  return createAssetRegistry(configs).all();
}

function request(asset: AssetInfo, n: number): OptionRequest {
  return {
    paymentId: `pay_selfcheck_${n}`,
    optionId: `opt_selfcheck_${n}`,
    account: `${h.sandbox.caip2}:${Wallet.createRandom().address}`,
    asset,
    amount: 5_000_000n,
    destination: `${h.sandbox.caip2}:${Wallet.createRandom().address}`,
    quotedAt: new Date(),
    deadline: new Date(Date.now() + 600_000),
  };
}

const outcomes = async (port: ChainPort, list: AssetInfo[]) => Object.fromEntries((await port.selfCheck!(list)).map((c) => [c.subject, c]));
const flowOf = async (port: ChainPort, asset: AssetInfo, n: number) => {
  const answer = await port.prepareOption(request(asset, n));
  return 'unavailable' in answer ? answer.unavailable : expectOption(answer).state.flow;
};
const usdc = (list: AssetInfo[]) => list.find((a) => a.symbol === 'USDC')!;

describe('EVM self-checks on the sandbox chain', () => {
  it('as configured: every token, Permit2, its spender contract and the node pass, and USDC is offered through EIP-3009', async () => {
    const port = createEvmChainAdapter([chain()]);
    const list = assets();
    const checks = await outcomes(port, list);
    expect(Object.keys(checks).sort()).toEqual(['head node', 'permit2', 'permit2 spender', ...list.map((a) => `token ${a.symbol}`)].sort());
    for (const c of Object.values(checks)) expect(c.outcome, `${c.subject}: ${c.detail}`).toBe('pass');
    expect(checks['token USDC']!.detail).toMatch(/EIP-712 domain matches its DOMAIN_SEPARATOR\(\)/);
    expect(await flowOf(port, usdc(list), 1)).toBe('eip3009');
    // The domain pinned as the token really has it passes too.
    const pinned = assets({ USDC: { eip712: { name: 'USD Coin', version: '2' } } });
    const again = createEvmChainAdapter([chain()]);
    expect((await outcomes(again, pinned))['token USDC']!.outcome).toBe('pass');
    expect(await flowOf(again, usdc(pinned), 2)).toBe('eip3009');
  }, 60_000);

  it('with batching on: Multicall3 is checked too; where it is missing batching is reported off, and nothing is refused', async () => {
    const list = assets();
    const on = await outcomes(createEvmChainAdapter([chain({ batchMax: 8 })]), list);
    expect(on['multicall3']).toMatchObject({ outcome: 'pass', refuses: false, detail: expect.stringMatching(/up to 8 EIP-3009 payments per relayer transaction/) });
    const code = await h.sandbox.ethersProvider.getCode(MULTICALL3_ADDRESS);
    await h.sandbox.provider.request({ method: 'hardhat_setCode', params: [MULTICALL3_ADDRESS, '0x'] });
    try {
      const off = await outcomes(createEvmChainAdapter([chain({ batchMax: 8 })]), list);
      expect(off['multicall3']).toMatchObject({ outcome: 'fail', refuses: false, detail: expect.stringMatching(/no contract at Multicall3's address.*one per transaction/) });
    } finally {
      await h.sandbox.provider.request({ method: 'hardhat_setCode', params: [MULTICALL3_ADDRESS, code] });
    }
  }, 60_000);

  it('a wrong EIP-712 domain version: reported, and USDC falls back to Permit2 instead of asking for signatures the token refuses', async () => {
    const port = createEvmChainAdapter([chain()]);
    const list = assets({ USDC: { eip712: { name: 'USD Coin', version: '1' } } });
    // Before the self-checks this offered eip3009 with the wrong domain.
    expect(await flowOf(port, usdc(list), 3)).toBe('permit2');
    const check = (await outcomes(port, list))['token USDC']!;
    expect(check.outcome).toBe('fail');
    expect(check.detail).toMatch(/DOMAIN_SEPARATOR\(\) is not the EIP-712 domain \{name "USD Coin", version "1", chainId 31337, .*eip3009 is not offered/);
  }, 60_000);

  it('wrong decimals: reported, and the asset is not offered at all (every amount would be off by a power of ten)', async () => {
    const port = createEvmChainAdapter([chain()]);
    const list = assets({ USDC: { decimals: 18 } });
    const check = (await outcomes(port, list))['token USDC']!;
    expect(check.outcome).toBe('fail');
    expect(check.detail).toMatch(/decimals\(\) is 6, configured 18: every amount would be off by 10\^12/);
    expect(await flowOf(port, usdc(list), 4)).toMatch(/decimals\(\) is 6, configured 18/);
    // The other assets of the chain are unaffected.
    expect(
      await flowOf(
        port,
        list.find((a) => a.symbol !== 'USDC' && a.flows.includes('permit2'))!,
        5,
      ),
    ).toBe('permit2');
  }, 60_000);

  it('a Permit2 address without code: reported, and only the flows that do not need it are offered', async () => {
    const empty = Wallet.createRandom().address;
    const port = createEvmChainAdapter([chain({ permit2: empty })]);
    const list = assets();
    const check = (await outcomes(port, list)).permit2!;
    expect(check.outcome).toBe('fail');
    expect(check.detail).toContain(`no contract at PERMIT2_ADDRESS ${empty}; permit2 is not offered on this chain`);
    const permit2Only = list.find((a) => a.symbol !== 'USDC' && a.flows.includes('permit2'))!;
    // Before the self-checks the buyer was asked to approve a spender with no code.
    expect(await flowOf(port, permit2Only, 6)).toBe('transfer');
    expect(await flowOf(port, usdc(list), 7)).toBe('eip3009');
    // An address with code that is not Permit2 (the USDC contract) is refused the same way.
    const impostor = createEvmChainAdapter([chain({ permit2: h.sandbox.usdcAddress })]);
    expect((await outcomes(impostor, list)).permit2!.detail).toMatch(/is not Permit2/);
  }, 60_000);

  it('a token address without a contract: reported, the asset not offered', async () => {
    const port = createEvmChainAdapter([chain()]);
    const ghost = createAssetRegistry([
      { id: `${h.sandbox.caip2}/erc20:${Wallet.createRandom().address}`, symbol: 'GHOST', name: 'Ghost', decimals: 6, flows: ['transfer'], networkName: 'Sandbox' },
    ]).all();
    expect((await outcomes(port, ghost))['token GHOST']).toMatchObject({ outcome: 'fail', detail: expect.stringMatching(/no contract at/) });
    expect(await flowOf(port, ghost[0]!, 8)).toMatch(/no contract at/);
  }, 60_000);
});

// OP-stack chains: the relayer pays an L1 data fee beside its L2 gas. The sandbox stands in for an
// OP chain with a GasPriceOracle at the predeploy address (a contract answering getL1Fee from the
// size of the bytes it is given), and a node layer that adds op-geth's `l1Fee` to receipts.
import { BrowserProvider, ContractFactory, Wallet, toQuantity } from 'ethers';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssetRegistry } from '../../../server/domain/assets.ts';
import type { OptionRequest } from '../../../server/ports/chains.ts';
import { relayerFeeSpent } from './fee-meter.ts';
import { createEvmChainAdapter } from './gateway-adapter.ts';
import { GAS_PRICE_ORACLE, l1DataFee } from './l1-fee.ts';
import { startHarness, type Harness } from './test-support.ts';

const require = createRequire(import.meta.url);
/** 0.1 ETH plus a gwei per byte: an L1 data fee far above the L2 gas of a small payment. */
const ORACLE = `// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.17;
contract StandInGasPriceOracle {
    function getL1Fee(bytes calldata data) external pure returns (uint256) { return 1e17 + data.length * 1e9; }
}`;
const L1_FEE_IN_RECEIPT = 123_456_789_000n;

describe('OP-stack L1 data fee', () => {
  let h: Harness;
  let provider: BrowserProvider;
  beforeAll(async () => {
    h = await startHarness();
    const solc = require('solc') as { compile(input: string): string };
    const input = {
      language: 'Solidity',
      sources: { 'O.sol': { content: ORACLE } },
      settings: { evmVersion: 'cancun', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
    };
    const c = (JSON.parse(solc.compile(JSON.stringify(input))) as { contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>> })
      .contracts['O.sol']!.StandInGasPriceOracle!;
    const deployed = await new ContractFactory(c.abi as never, `0x${c.evm.bytecode.object}`, h.relayer).deploy();
    await deployed.waitForDeployment();
    const code = await h.sandbox.ethersProvider.getCode(await deployed.getAddress());
    await h.sandbox.provider.request({ method: 'hardhat_setCode', params: [GAS_PRICE_ORACLE, code] });
    // op-geth puts the L1 data fee a transaction paid into its receipt.
    provider = new BrowserProvider(
      {
        request: async (args) => {
          const answer = await h.sandbox.provider.request(args);
          if (args.method === 'eth_getTransactionReceipt' && answer) return Object.assign({}, answer, { l1Fee: toQuantity(L1_FEE_IN_RECEIPT) });
          return answer;
        },
      },
      h.sandbox.chainId,
      { staticNetwork: true, cacheTimeout: -1 },
    );
  }, 120_000);
  afterAll(async () => {
    await h?.sandbox.close();
  });

  it('prices a flow’s transaction with the oracle, larger calldata costing more', async () => {
    const a = await l1DataFee(h.sandbox.ethersProvider, 'eip3009', 31337n, 150_000n, 10n ** 9n);
    const b = await l1DataFee(h.sandbox.ethersProvider, 'permit2', 31337n, 150_000n, 10n ** 9n);
    expect(a).toBeGreaterThan(10n ** 17n);
    expect(b - a).toBeGreaterThan(400n * 10n ** 9n);
  });

  it('weighs a gasless payment with its L1 data fee: out of proportion, the buyer pays the gas of a direct transfer', async () => {
    const caip19 = `${h.sandbox.caip2}/erc20:${h.sandbox.usdcAddress}`;
    const usdc = createAssetRegistry([{ id: caip19, symbol: 'USDC', name: 'USD Coin', decimals: 6, pegCurrency: 'USD', flows: ['eip3009', 'transfer'], networkName: 'OP' }]).get(
      caip19,
    )!;
    const req: OptionRequest = {
      paymentId: 'pay_l1',
      optionId: 'opt_l1',
      account: `${h.sandbox.caip2}:${Wallet.createRandom().address}`,
      asset: usdc,
      amount: 5_000_000n,
      destination: `${h.sandbox.caip2}:${Wallet.createRandom().address}`,
      quotedAt: new Date(),
      deadline: new Date(Date.now() + 600_000),
      valueUsdMicros: 5_000_000n,
    };
    // Ether at 10 USD: the L2 gas (~0.0001 ETH) is a tenth of a cent; the 0.1 ETH L1 fee is a dollar, 20% of 5 USD.
    const chain = { caip2: h.sandbox.caip2, provider, relayer: h.relayer, permit2: h.sandbox.permit2Address, confirmations: 1, nativeUsdMicros: 10_000_000n };
    const l2Only = await createEvmChainAdapter([chain]).prepareOption(req);
    const op = await createEvmChainAdapter([{ ...chain, l1DataFee: 'op-stack' }]).prepareOption(req);
    expect('state' in l2Only && l2Only.state.flow).toBe('eip3009');
    expect('state' in op && op.state.flow).toBe('transfer');
  });

  it('meters what a relayer transaction cost with the L1 data fee its receipt reports', async () => {
    const tx = await h.relayer.sendTransaction({ to: Wallet.createRandom().address, value: 1n });
    await tx.wait();
    const receipt = (await h.sandbox.ethersProvider.getTransactionReceipt(tx.hash))!;
    expect(await relayerFeeSpent(provider, h.relayer.address, tx.hash)).toEqual({
      account: h.relayer.address,
      txId: tx.hash,
      amount: receipt.gasUsed * receipt.gasPrice + L1_FEE_IN_RECEIPT,
    });
    expect(await relayerFeeSpent(provider, Wallet.createRandom().address, tx.hash)).toBeUndefined();
  });
});

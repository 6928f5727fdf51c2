// The EVM side of the relayer scenarios (adapters/chains/conformance/relayer-scenarios.ts): the
// sandbox chain behind a JSON-RPC fault layer that behaves like the nodes commercial providers run
// (geth estimates against the latest block, not the pool; broadcasts refused with the clients'
// own messages), real buyer keys, a buyer that can delegate its account (EIP-7702) to code whose
// isValidSignature loops, and a merchant that can sweep its address.
import { BrowserProvider, Contract, ContractFactory, Transaction, Wallet, parseEther, toQuantity, type HDNodeWallet } from 'ethers';
import { createRequire } from 'node:module';
import { createAssetRegistry, type AssetInfo } from '../../../../server/domain/assets.ts';
import type { ChainPort, WireAction } from '../../../../server/ports/chains.ts';
import { createEvmSandbox, type EvmSandbox } from '../../../sandbox/evm/index.ts';
import type { BroadcastRule, RelayerHarness, ScenarioBuyer } from '../../conformance/relayer-scenarios.ts';
import { createEvmChainAdapter, type EvmChainConfig } from '../gateway-adapter.ts';
import type { RelayerEvent } from '../relayer-submit.ts';
import { toEthersTypedData, type Eip712TypedData } from '../typed-data.ts';
import type { EthSendTransactionParams } from '../transfer.ts';

const require = createRequire(import.meta.url);

/**
 * Code a buyer's account may delegate to: its ERC-1271 check answers "valid" after a loop, so a
 * token checking the buyer's signature through it burns millions of gas and still pays.
 */
const LOOPING_SIGNER = `// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.17;
contract LoopingSigner {
    function isValidSignature(bytes32, bytes calldata) external view returns (bytes4) {
        uint256 i;
        while (i < 150000) { unchecked { i++; } }
        return 0x1626ba7e;
    }
}`;

function compileLoopingSigner(): { abi: unknown[]; bytecode: string } {
  const solc = require('solc') as { compile(input: string): string };
  const input = {
    language: 'Solidity',
    sources: { 'L.sol': { content: LOOPING_SIGNER } },
    settings: { evmVersion: 'cancun', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as { contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>> };
  const c = out.contracts['L.sol']!.LoopingSigner!;
  return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
}

const TOKEN_ABI = [
  'function transfer(address to, uint256 value)',
  'function approve(address spender, uint256 value)',
  'function allowance(address, address) view returns (uint256)',
];

/** The sandbox chain, a fault layer in front of it, and an adapter on top; `options` tune the adapter (fee policy). */
export async function openEvmRelayerHarness(options: Partial<EvmChainConfig> = {}): Promise<RelayerHarness & { sandbox: EvmSandbox }> {
  const sandbox = await createEvmSandbox();
  const rpc = (method: string, params: unknown[] = []) => sandbox.provider.request({ method, params });
  const rules: BroadcastRule[] = [];
  const broadcasts: string[] = [];
  const refusals: RelayerEvent[] = [];
  // A node as commercial providers run it: eth_estimateGas against the latest block (geth), and
  // broadcasts answered by the rules a test sets (each says whether the node keeps the bytes).
  const provider = new BrowserProvider(
    {
      request: async (args) => {
        const params = Array.isArray(args.params) ? args.params : [];
        if (args.method === 'eth_estimateGas') return sandbox.provider.request({ method: 'eth_estimateGas', params: [params[0], 'latest'] });
        if (args.method === 'eth_sendRawTransaction') {
          const raw = String(params[0]);
          broadcasts.push(raw);
          const tx = Transaction.from(raw);
          for (const rule of rules) {
            const answer = rule(tx);
            if (!answer) continue;
            if (answer.keep) await sandbox.provider.request(args);
            throw Object.assign(new Error(answer.error), { code: -32000 });
          }
        }
        return sandbox.provider.request(args);
      },
    },
    sandbox.chainId,
    { staticNetwork: true, pollingInterval: 100, cacheTimeout: -1 },
  );
  const relayer = new Wallet(sandbox.relayer.privateKey, provider);
  let offsetMs = 0;
  const now = () => Date.now() + offsetMs;
  const followChain = async () => {
    const block = await provider.getBlock('latest');
    offsetMs = Math.max(offsetMs, block!.timestamp * 1000 - Date.now());
  };
  const config: EvmChainConfig = { caip2: sandbox.caip2, provider, relayer, permit2: sandbox.permit2Address, confirmations: 1, clock: { now }, blockTimeMs: 1_000, ...options };
  const adapter = (extra: Partial<EvmChainConfig> = {}): ChainPort => createEvmChainAdapter([{ ...config, ...extra }], { onRefusal: (e) => refusals.push(e) });
  const looping = compileLoopingSigner();
  const looper = await new ContractFactory(looping.abi as never, looping.bytecode, new Wallet(sandbox.relayer.privateKey, sandbox.ethersProvider)).deploy();
  await looper.waitForDeployment();
  const looperAddress = await looper.getAddress();

  const assetOf = (flow: 'eip3009' | 'permit2' | 'transfer', token: 'usdc' | 'usdt'): AssetInfo => {
    const sandboxAsset = sandbox.assets.find((a) => a.address === (token === 'usdc' ? sandbox.usdcAddress : sandbox.plainTokenAddress))!;
    const flows = flow === 'transfer' ? (['transfer'] as const) : ([flow, 'transfer'] as const);
    return createAssetRegistry([
      {
        id: sandboxAsset.caip19,
        symbol: sandboxAsset.symbol,
        name: sandboxAsset.name,
        decimals: 6,
        pegCurrency: 'USD',
        flows: [...flows],
        networkName: 'Sandbox',
        ...(token === 'usdt' ? { approveFromZero: true } : {}),
      },
    ]).get(sandboxAsset.caip19)!;
  };

  const buyerOf = (wallet: HDNodeWallet): ScenarioBuyer => ({
    account: `${sandbox.caip2}:${wallet.address}`,
    async act(actions: WireAction[], opts = {}) {
      const results: string[] = [];
      for (const action of actions) {
        if (action.type !== 'walletRpc') throw new Error('walletRpc actions only');
        const { method, params } = action.data;
        if (method === 'eth_signTypedData_v4') {
          const { domain, types, message } = toEthersTypedData(JSON.parse(String(params[1])) as Eip712TypedData);
          results.push(await wallet.signTypedData(domain, types, message));
          continue;
        }
        const tx = params[0] as EthSendTransactionParams;
        const signed = await wallet.signTransaction(await wallet.populateTransaction({ to: tx.to, data: tx.data, value: 0n, gasLimit: 200_000n }));
        const answer = (await sandbox.handleJsonRpc({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [signed] })) as {
          result?: string;
          error?: { message: string };
        };
        if (!answer.result) throw new Error(`the wallet's transaction was refused: ${answer.error?.message ?? 'no result'}`);
        results.push(answer.result);
        if (opts.waitForEachTransaction) await sandbox.ethersProvider.waitForTransaction(answer.result);
      }
      return results;
    },
    async delegateToLoopingCode() {
      const auth = await wallet.authorize({
        address: looperAddress,
        nonce: (await sandbox.ethersProvider.getTransactionCount(wallet.address)) + 1,
        chainId: BigInt(sandbox.chainId),
      });
      const connected = wallet.connect(sandbox.ethersProvider);
      // The call itself reverts (the code has no fallback); the delegation stands all the same.
      const tx = await connected.sendTransaction({ type: 4, to: wallet.address, authorizationList: [auth], gasLimit: 100_000n });
      await sandbox.ethersProvider.waitForTransaction(tx.hash);
      if (!(await sandbox.ethersProvider.getCode(wallet.address)).startsWith('0xef0100')) throw new Error('the delegation did not take');
    },
  });

  return {
    sandbox,
    port: adapter(),
    adapter,
    caip2: sandbox.caip2,
    now,
    asset: assetOf,
    async newBuyer(asset, amount, opts = {}) {
      const wallet = Wallet.createRandom(sandbox.ethersProvider);
      await sandbox.fund(wallet.address, asset.parsed.assetReference, amount);
      await sandbox.fund(wallet.address, null, parseEther('1'));
      if (opts.leftoverAllowance) {
        const token = new Contract(asset.parsed.assetReference, TOKEN_ABI, wallet);
        await (await token.getFunction('approve').send(sandbox.permit2Address, opts.leftoverAllowance)).wait();
      }
      return buyerOf(wallet);
    },
    newDestination: () => `${sandbox.caip2}:${Wallet.createRandom().address}`,
    async sweepableDestination(asset, holding) {
      const merchant = Wallet.createRandom(sandbox.ethersProvider);
      await sandbox.fund(merchant.address, asset.parsed.assetReference, holding);
      await sandbox.fund(merchant.address, null, parseEther('1'));
      return {
        destination: `${sandbox.caip2}:${merchant.address}`,
        async sweep() {
          // A generous tip: the block takes the sweep before the relayer's transaction.
          const token = new Contract(asset.parsed.assetReference, TOKEN_ABI, merchant);
          const fees = await sandbox.ethersProvider.getFeeData();
          await token
            .getFunction('transfer')
            .send(Wallet.createRandom().address, holding, { maxPriorityFeePerGas: fees.maxFeePerGas! * 4n, maxFeePerGas: fees.maxFeePerGas! * 8n, gasLimit: 100_000n });
        },
      };
    },
    balance: (destination, asset) => sandbox.balanceOf(destination.split(':')[2]!, asset.parsed.assetReference),
    allowance: async (account, asset) =>
      (await new Contract(asset.parsed.assetReference, TOKEN_ABI, sandbox.ethersProvider).getFunction('allowance')(account.split(':')[2]!, sandbox.permit2Address)) as bigint,
    relayer: {
      account: relayer.address,
      balance: () => sandbox.ethersProvider.getBalance(relayer.address),
      setBalance: async (value) => void (await rpc('hardhat_setBalance', [relayer.address, toQuantity(value)])),
    },
    faults: {
      refuseBroadcasts: (rule) => void rules.push(rule),
      clear: () => void rules.splice(0),
      broadcasts: () => [...broadcasts],
      refusals: () => [...refusals],
    },
    gasUsed: async (txId) => (await sandbox.ethersProvider.getTransactionReceipt(txId))?.gasUsed ?? null,
    async mine(blocks = 1) {
      await rpc('hardhat_mine', [toQuantity(blocks)]);
      await followChain();
    },
    holdBroadcasts: async () => void (await rpc('evm_setAutomine', [false])),
    async releaseBroadcasts() {
      await rpc('evm_setAutomine', [true]);
      await rpc('evm_mine');
      await followChain();
    },
    async expire(deadline) {
      const head = await provider.getBlock('latest');
      await rpc('evm_setNextBlockTimestamp', [toQuantity(Math.max(head!.timestamp + 1, Math.ceil(deadline.getTime() / 1000) + 30))]);
      await rpc('evm_mine');
      await followChain();
      offsetMs = Math.max(offsetMs, deadline.getTime() + 60_000 - Date.now());
    },
    close: () => sandbox.close(),
  };
}

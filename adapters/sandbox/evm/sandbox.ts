// The sandbox EVM chain: EDR in process, with real USDC (FiatToken), Permit2, a Tether-like USDT and a plain ERC-20.
import { BrowserProvider, Contract, Wallet, id, parseEther, parseUnits, toQuantity } from 'ethers';
import { loadSandboxArtifacts } from './compile.ts';
import {
  SANDBOX_DEPLOYER_KEY,
  SANDBOX_RELAYER_KEY,
  SANDBOX_SPENDER_DEPLOYER_KEY,
  deployPermit2Spender,
  deploySandboxContracts,
  DIRECT_TOKEN_METADATA,
  PLAIN_TOKEN_METADATA,
  USDC_METADATA,
} from './deploy.ts';
import { startEdrNode } from './edr-node.ts';
import { eip1193, handleJsonRpcBody, type Eip1193Provider, type JsonRpcHandlerOptions } from './json-rpc.ts';

/** Which EVM payment flows an asset supports (see design: how EVM is paid). */
export type EvmFlow = 'eip3009' | 'permit2' | 'transfer';

export type SandboxAsset = {
  caip19: string;
  address: string;
  symbol: string;
  name: string;
  decimals: number;
  flows: EvmFlow[];
  /** Approvals change a non-zero allowance only through 0 (USDT, as Tether's). */
  approveFromZero?: boolean;
};

export type EvmSandboxOptions = {
  /** Default 31337 (the usual local-chain id). */
  chainId?: number;
  /** Where the compiled Permit2 is cached. Default `<repo>/.cache/evm-sandbox/`. */
  cacheDir?: string;
  /**
   * Interval mining: a block every this many ms, automine off, so transactions wait in the mempool
   * as on a real chain. Default none: a block per transaction (automine).
   */
  blockTimeMs?: number;
  /** Leaves the service's Permit2 spender undeployed (a chain an operator has not deployed it on yet); default deployed. */
  withoutPermit2Spender?: boolean;
};

export type EvmSandbox = {
  chainId: number;
  /** CAIP-2 id, e.g. `eip155:31337`. */
  caip2: string;
  /** EIP-1193 provider (all methods, including `hardhat_*`), for in-process code. */
  provider: Eip1193Provider;
  /** ethers provider over `provider`, ready for contracts and `new Wallet(key, ethersProvider)`. */
  ethersProvider: BrowserProvider;
  /** JSON-RPC endpoint body handler (single or batch); dev methods refused unless allowed. */
  handleJsonRpc(body: unknown, options?: JsonRpcHandlerOptions): Promise<unknown>;
  assets: SandboxAsset[];
  usdcAddress: string;
  plainTokenAddress: string;
  /** The token listed for direct transfer only (DTUSD). */
  directTokenAddress: string;
  permit2Address: string;
  /** Where the service's Permit2 spender is deployed (CREATE2 through the deterministic deployment proxy); null when left out. */
  permit2SpenderAddress: string | null;
  /** Prefunded (native coin) account the service may use as relayer / fee payer in the sandbox. */
  relayer: { address: string; privateKey: string };
  /** A relayer pool (EVM_RELAYER_KEYS): `relayer` first, then further prefunded keys. */
  relayerPool: { address: string; privateKey: string }[];
  /** Adds `value` to an account: native coin (token null) via set-balance, tokens by minting. */
  fund(address: string, token: string | null, value: bigint): Promise<void>;
  balanceOf(address: string, token: string | null): Promise<bigint>;
  close(): Promise<void>;
};

const ERC20_ABI = ['function balanceOf(address) view returns (uint256)', 'function mint(address to, uint256 amount)'];

/** Multicall3's canonical address, the same on every chain it is deployed on (an adapter family imports no other, so named here too). */
export const MULTICALL3_ADDRESS = '0xcA11bde05977b3631167028862bE2a173976CA11';

/** A faucet mint's fee cap and tip: mined at once even under a base-fee spike (see fund). */
const MINT_MAX_FEE = parseUnits('10000', 'gwei');
const MINT_TIP = parseUnits('1', 'gwei');

/**
 * Starts a fresh sandbox chain and deploys its contracts at deterministic addresses (same every
 * run). Cold start compiles Permit2 once (cached under .cache/); warm starts take about a second.
 */
export async function createEvmSandbox(options: EvmSandboxOptions = {}): Promise<EvmSandbox> {
  const chainId = options.chainId ?? 31337;
  const artifacts = await loadSandboxArtifacts(options.cacheDir);
  const deployerAddress = new Wallet(SANDBOX_DEPLOYER_KEY).address;
  const relayer = new Wallet(SANDBOX_RELAYER_KEY);
  // Public on purpose, like the relayer's: three more keys so the standalone chains can run a relayer pool.
  const relayerPool = [relayer, ...[1, 2, 3].map((n) => new Wallet(id(`merchant-payments-sandbox:evm:relayer:${n}`)))];
  const node = await startEdrNode({
    chainId: BigInt(chainId),
    prefunded: [
      { address: deployerAddress, balance: parseEther('1000000') },
      { address: new Wallet(SANDBOX_SPENDER_DEPLOYER_KEY).address, balance: parseEther('1') },
      ...relayerPool.map((k) => ({ address: k.address, balance: parseEther('1000000') })),
    ],
  });
  let closed = false;
  const guarded = {
    call: (method: string, params: readonly unknown[]) => {
      if (closed) return Promise.reject(new Error('EVM sandbox is closed'));
      return node.call(method, params);
    },
  };
  const provider = eip1193(guarded);
  const ethersProvider = new BrowserProvider(provider, chainId, { staticNetwork: true, pollingInterval: 100, cacheTimeout: -1 });
  const addresses = await deploySandboxContracts(ethersProvider, artifacts);
  // Multicall3 where every production chain has it (the relayer's batches); placed, not deployed, so no deployer nonce moves.
  await provider.request({ method: 'hardhat_setCode', params: [MULTICALL3_ADDRESS, artifacts.multicall3Runtime] });
  const permit2SpenderAddress = options.withoutPermit2Spender ? null : await deployPermit2Spender(ethersProvider, artifacts.permit2Spender, addresses.permit2);
  const deployer = new Wallet(SANDBOX_DEPLOYER_KEY, ethersProvider);
  // Deployed with automine (deterministic addresses, fast start); the chain's rhythm starts after.
  if (options.blockTimeMs !== undefined) {
    if (!Number.isInteger(options.blockTimeMs) || options.blockTimeMs < 1) throw new RangeError(`block time must be a positive integer of ms, got ${options.blockTimeMs}`);
    await provider.request({ method: 'evm_setAutomine', params: [false] });
    await provider.request({ method: 'evm_setIntervalMining', params: [options.blockTimeMs] });
  }

  // Minting goes through one deployer, so its sends are serialized to keep nonces in order.
  let deployerQueue: Promise<unknown> = Promise.resolve();
  let deployerNonce: number | undefined;
  const asDeployer = <T>(work: () => Promise<T>): Promise<T> => {
    const run = deployerQueue.then(work, work);
    deployerQueue = run.catch(() => undefined);
    return run;
  };

  const asset = (address: string, meta: { name: string; symbol: string; decimals: number }, flows: EvmFlow[], approveFromZero = false): SandboxAsset => ({
    caip19: `eip155:${chainId}/erc20:${address}`,
    address,
    symbol: meta.symbol,
    name: meta.name,
    decimals: meta.decimals,
    flows,
    ...(approveFromZero ? { approveFromZero } : {}),
  });

  const balanceOf = async (address: string, token: string | null): Promise<bigint> => {
    if (token === null) return ethersProvider.getBalance(address);
    const contract = new Contract(token, ERC20_ABI, ethersProvider);
    return (await contract.getFunction('balanceOf')(address)) as bigint;
  };

  return {
    chainId,
    caip2: `eip155:${chainId}`,
    provider,
    ethersProvider,
    handleJsonRpc: (body, handlerOptions) => handleJsonRpcBody(guarded, body, handlerOptions),
    assets: [
      asset(addresses.usdc, USDC_METADATA, ['eip3009', 'permit2', 'transfer']),
      asset(addresses.plainToken, PLAIN_TOKEN_METADATA, ['permit2', 'transfer'], true),
      asset(addresses.directToken, DIRECT_TOKEN_METADATA, ['transfer']),
    ],
    usdcAddress: addresses.usdc,
    plainTokenAddress: addresses.plainToken,
    directTokenAddress: addresses.directToken,
    permit2Address: addresses.permit2,
    permit2SpenderAddress,
    relayer: { address: relayer.address, privateKey: relayer.privateKey },
    relayerPool: relayerPool.map((k) => ({ address: k.address, privateKey: k.privateKey })),
    async fund(address, token, value) {
      if (value < 0n) throw new Error('fund value must not be negative');
      if (token === null) {
        const current = await ethersProvider.getBalance(address);
        await provider.request({ method: 'hardhat_setBalance', params: [address, toQuantity(current + value)] });
        return;
      }
      // Only the send is serialized (it takes the deployer's next nonce); the wait is not, so
      // with interval mining one block carries every mint sent before it, not one mint a block.
      // The nonce is counted here and the fee cap is far above any spike (the deployer holds a
      // million ETH): a mint priced under a spiked base fee would sit unmined, and the node's
      // pending count would give the next mint its nonce, replacing it.
      const mint = new Contract(token, ERC20_ABI, deployer).getFunction('mint');
      const send = async () => {
        deployerNonce ??= await deployer.getNonce('pending');
        const sent = await mint.send(address, value, { nonce: deployerNonce, maxFeePerGas: MINT_MAX_FEE, maxPriorityFeePerGas: MINT_TIP });
        deployerNonce++;
        return sent;
      };
      // A count gone stale (a test reverted the chain to a snapshot) is read again, once.
      const tx = await asDeployer(() =>
        send().catch(() => {
          deployerNonce = undefined;
          return send();
        }),
      );
      const receipt = await tx.wait();
      if (receipt?.status !== 1) throw new Error(`Minting ${token} failed`);
    },
    balanceOf,
    async close() {
      if (closed) return;
      // The interval miner runs on EDR's own threads: stopped, or it would mine on after close.
      if (options.blockTimeMs !== undefined) await node.call('evm_setIntervalMining', [0]).catch(() => undefined);
      closed = true;
      ethersProvider.destroy();
    },
  };
}

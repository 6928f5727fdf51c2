import { Wallet } from 'ethers';
import type { WalletChains } from '../pages/browser-wallet-section.ts';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { createEvmChainAdapter, type EvmRelayerTuning } from '../../adapters/chains/evm/gateway-adapter.ts';
import { evmChainsFromConfig } from '../../adapters/chains/evm/config.ts';
import type { RelayerEvent } from '../../adapters/chains/evm/relayer-submit.ts';
import { chainFinality, chainProfile, headFreshness, healWindowMs } from '../chain-profiles.ts';
import { evmFeePolicy } from '../config-chain-fees.ts';
import { createSolanaChainAdapter } from '../../adapters/chains/solana/gateway-adapter.ts';
import { solanaChainFromConfig } from '../../adapters/chains/solana/config.ts';
import { DEFAULT_FOLLOW_MS } from '../../adapters/chains/solana/follow.ts';
import { DEFAULT_EVM_FOLLOW_MS } from '../../adapters/chains/evm/receipt-follow.ts';
import { DEFAULT_SOLANA_FEE_POLICY } from '../../adapters/chains/solana/fees.ts';
import { solanaFeePolicy } from '../config-solana-fees.ts';
import { createPostgresSections } from '../../adapters/locks/postgres/index.ts';
import { openRelayerNonceLedger } from '../../adapters/storage/postgres/relayer-nonces.ts';
import type { AppConfig } from '../config.ts';
import { poolOptionsOf } from '../config-rpc.ts';
import type { AssetConfig } from '../domain/assets.ts';
import type { ChainPort } from '../ports/chains.ts';
import { walletChainsFromConfig } from './wallet-chains.ts';

/** The Solana fee payer's compute-unit price policy on `caip2`: the adapter's defaults with SOLANA_PRIORITY_FEES over them. */
export const solanaPriorityFeePolicy = (config: AppConfig, caip2: string) => solanaFeePolicy(config, caip2, DEFAULT_SOLANA_FEE_POLICY);

/** What the processes want to hear from the chain adapters. */
export interface ChainHooks {
  /** A node refused a relayer transaction (logged and counted; insufficient funds is an alert). */
  onRefusal?: (event: RelayerEvent) => void;
}

export interface OpenedChains {
  /** Assets the chains add to the registry (the sandbox's tokens). */
  assets: AssetConfig[];
  ports: ChainPort[];
  /** The sandbox's faucet, balances and JSON-RPC endpoint; absent in production. */
  routes?: RequestHandler;
  /** How a buyer's browser wallet adds these EVM chains (EIP-3085), for the payment page: the sandbox's, or production's WALLET_RPC_URLS. */
  walletChains?: WalletChains;
  close(): Promise<void>;
}

/**
 * The chains this process pays on. Sandbox mode starts the in-process EVM (real USDC and
 * Permit2) and Solana sandboxes and serves their faucet; production mode connects to the
 * configured RPC URLs. The sandbox code is imported only in sandbox mode.
 *
 * Every API and worker process with one PostgreSQL server may sign with the one relayer key, so
 * the relayer's submissions are serialized by advisory locks on that server (a small pool of its
 * own, closed with the chains). Embedded PGlite is one process: its in-process order suffices.
 * The Solana fee payer needs nothing of the kind (adapters/chains/solana/README.md).
 */
export async function openChains(config: AppConfig, logger?: Logger, hooks: ChainHooks = {}): Promise<OpenedChains> {
  /** One chain's tuning: its profile's fee policy with the configuration's overrides (server/config-chain-fees.ts). */
  const tuning = (caip2: string): EvmRelayerTuning => {
    const fees = evmFeePolicy(config, caip2);
    const finality = chainFinality(caip2, config.chainFinality);
    return {
      // A Solana commitment cannot name an EVM chain's (CHAIN_FINALITY refuses it); its kind's default applies.
      ...(finality.kind === 'commitment' ? {} : { finality }),
      healWindowMs: healWindowMs(caip2, config.chainFinality),
      replaceAfterMs: config.evmReplaceAfterS * 1000,
      maxFeePerGas: fees.maxFeePerGas,
      minPriorityFee: fees.minPriorityFee,
      minRelayerBalance: fees.minRelayerBalance,
      blockTimeMs: chainProfile(caip2).blockTimeMs,
      nativeUsdMicros: fees.nativeUsdMicros,
      gasBudgetPercent: fees.gasBudgetPercent,
      l1DataFee: fees.l1DataFee,
      headFreshness: headFreshness(caip2),
      batchMax: config.evmRelayerBatchMax,
      batchWindowMs: config.evmRelayerBatchWindowMs,
      followMs: DEFAULT_EVM_FOLLOW_MS,
    };
  };
  const adapterOpts = {
    ...(hooks.onRefusal ? { onRefusal: hooks.onRefusal } : {}),
    onBatchingOff: (chain: string, problem: string) =>
      logger?.warn({ chain, problem }, 'relayer batching is off on this chain: each EIP-3009 payment goes in a transaction of its own (EVM_RELAYER_BATCH_MAX)'),
  };
  /** A Solana cluster's final commitment: its CHAIN_FINALITY override, else `finalized` (server/chain-profiles.ts). */
  const solanaFinality = (caip2: string) => {
    const f = chainFinality(caip2, config.chainFinality);
    return f.kind === 'commitment' ? f.commitment : 'finalized';
  };
  if (config.mode === 'production') {
    const evm = config.evmRelayerKeys.length
      ? evmChainsFromConfig(config.evmRpcEndpoints, config.evmRelayerKeys, config.permit2Address, config.evmConfirmations, tuning, {
          pool: poolOptionsOf(config),
          head: { regressAfterMs: config.rpcHeadRegressMs },
        })
      : [];
    const sections =
      evm.length && config.databaseUrl
        ? createPostgresSections({
            url: config.databaseUrl,
            max: 4,
            onLost: (key, err) => logger?.warn({ err, key }, 'relayer lock: its connection failed during a submission; a nonce clash, if any, is re-signed by the next step'),
          })
        : undefined;
    // The relayer's nonces are the service's (migration 029), taken in the transaction that records each signed one.
    const nonces = evm.length && config.databaseUrl ? openRelayerNonceLedger(config.databaseUrl) : undefined;
    const ports: ChainPort[] = evm.length ? [createEvmChainAdapter(evm, { ...adapterOpts, ...(sections ? { sections } : {}), ...(nonces ? { nonces } : {}) })] : [];
    if (config.solanaRpcUrl && config.solanaFeePayerKey)
      ports.push(
        createSolanaChainAdapter([
          {
            ...solanaChainFromConfig(
              config.solanaRpcUrls,
              config.solanaFeePayerKey,
              config.solanaChainId,
              config.solanaFeePayerMinLamports,
              poolOptionsOf(config),
              solanaPriorityFeePolicy(config, config.solanaChainId),
            ),
            finality: solanaFinality(config.solanaChainId),
            headFreshness: headFreshness(config.solanaChainId),
          },
        ]),
      );
    return {
      assets: [],
      ports,
      walletChains: walletChainsFromConfig(config),
      close: async () => {
        await sections?.close();
        await nonces?.close();
      },
    };
  }
  const { createSandboxChains, createSandboxRouter } = await import('./sandbox/index.ts');
  const sandbox = await createSandboxChains();
  const evm = sandbox.evm;
  const relayer = new Wallet(evm.relayer.privateKey, evm.ethersProvider);
  return {
    assets: sandbox.assetConfigs(),
    ports: [
      createEvmChainAdapter(
        [{ caip2: evm.caip2, provider: evm.ethersProvider, relayer, permit2: evm.permit2Address, confirmations: 1, etaS: 2, ...tuning(evm.caip2) }],
        adapterOpts,
      ),
      createSolanaChainAdapter([
        {
          caip2: sandbox.solana.caip2,
          connection: sandbox.solana.connection,
          feePayer: sandbox.solana.feePayer,
          finality: solanaFinality(sandbox.solana.caip2),
          etaS: 2,
          followMs: DEFAULT_FOLLOW_MS,
          minFeePayerLamports: config.solanaFeePayerMinLamports,
          fees: solanaPriorityFeePolicy(config, sandbox.solana.caip2),
          headFreshness: headFreshness(sandbox.solana.caip2),
          // Sandbox SOL is free: a fresh test merchant is payable at once (production never opens one).
          openDestinationAccounts: true,
        },
      ]),
    ],
    routes: createSandboxRouter(sandbox, { publicBaseUrl: config.publicBaseUrl }),
    walletChains: sandboxWalletChains(sandbox, config.publicBaseUrl),
    close: () => sandbox.close(),
  };
}

/** The sandbox EVM chain as a browser wallet adds it: its JSON-RPC is this service's `/sandbox/rpc/<caip2>`. */
export function sandboxWalletChains(
  sandbox: { evm: { caip2: string }; names: { evm: string }; native: { evm: { symbol: string; decimals: number } } },
  publicBaseUrl: string,
): WalletChains {
  const { caip2 } = sandbox.evm;
  const { symbol, decimals } = sandbox.native.evm;
  return { [caip2]: { chainName: sandbox.names.evm, nativeCurrency: { name: symbol, symbol, decimals }, rpcUrls: [`${publicBaseUrl.replace(/\/+$/, '')}/sandbox/rpc/${caip2}`] } };
}

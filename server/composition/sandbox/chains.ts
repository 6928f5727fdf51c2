// The sandbox chains the service runs on in sandbox mode: one in-process EVM and one in-process
// Solana, started together so the asset registry, the gateway and the HTTP surface share them.
import { createEvmSandbox, type EvmSandbox, type EvmSandboxOptions } from '../../../adapters/sandbox/evm/index.ts';
import { createSolanaSandbox, type SolanaSandbox, type SolanaSandboxOptions } from '../../../adapters/sandbox/solana/index.ts';
import type { AssetConfig } from '../../domain/assets.ts';

/** A chain's native coin: what a faucet or balance call means with no asset. */
export interface NativeCoin {
  /** CAIP-19 id of the coin (SLIP-44), accepted wherever "no asset" is. */
  id: string;
  symbol: string;
  decimals: number;
}

export interface SandboxChains {
  evm: EvmSandbox;
  solana: SolanaSandbox;
  /** Human names used as `networkName` in the registry and in `GET /sandbox`. */
  names: { evm: string; solana: string };
  native: { evm: NativeCoin; solana: NativeCoin };
  /** The sandbox tokens in the asset registry's shape, ready for `createAssetRegistry`. */
  assetConfigs(): AssetConfig[];
  /** Stops both chains; safe to call twice. */
  close(): Promise<void>;
}

export interface SandboxChainsOptions {
  evm?: EvmSandboxOptions;
  solana?: SolanaSandboxOptions;
}

const EVM_NAME = 'Sandbox EVM';
const SOLANA_NAME = 'Sandbox Solana';

/**
 * Starts both sandbox chains once and describes their tokens for the registry.
 *
 * Why both in one place: the registry, the gateway's chain adapters and the sandbox HTTP surface
 * must all talk about the same running chains; starting them here and passing the handle around
 * keeps a second, unrelated sandbox from appearing anywhere. Every sandbox token is a USD
 * stablecoin, so each is pegged to USD.
 */
export async function createSandboxChains(opts: SandboxChainsOptions = {}): Promise<SandboxChains> {
  const solana = createSolanaSandbox(opts.solana);
  const evm = await createEvmSandbox(opts.evm);
  let closing: Promise<void> | null = null;

  const native = {
    evm: { id: `${evm.caip2}/slip44:60`, symbol: 'ETH', decimals: 18 },
    solana: { id: `${solana.caip2}/slip44:501`, symbol: 'SOL', decimals: 9 },
  };

  return {
    evm,
    solana,
    names: { evm: EVM_NAME, solana: SOLANA_NAME },
    native,
    assetConfigs() {
      const chains = [
        { assets: evm.assets, networkName: EVM_NAME },
        { assets: solana.assets, networkName: SOLANA_NAME },
      ];
      return chains.flatMap(({ assets, networkName }) =>
        assets.map((a): AssetConfig => ({
          id: a.caip19,
          symbol: a.symbol,
          name: a.name,
          decimals: a.decimals,
          pegCurrency: 'USD',
          flows: [...a.flows],
          ...('approveFromZero' in a && a.approveFromZero ? { approveFromZero: true } : {}),
          networkName,
        })),
      );
    },
    close() {
      closing ??= evm.close().finally(() => solana.close());
      return closing;
    },
  };
}

// The environment that points a production-mode API or worker at the standalone sandbox chains:
// the same variables a real deployment sets, with the sandbox's URLs, funded keys and assets.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SandboxChains } from '../../server/composition/sandbox/index.ts';

/**
 * The variables, in the order they are printed. ASSETS_FILE names `assetsFile`, which
 * `writeAssetsFile` fills; the Solana key is the JSON byte-array form `loadConfig` accepts.
 */
export function productionEnv(chains: SandboxChains, baseUrl: string, assetsFile: string): Record<string, string> {
  const { evm, solana } = chains;
  return {
    SERVICE_MODE: 'production',
    EVM_RPC_URLS: JSON.stringify({ [evm.caip2]: `${baseUrl}/evm` }),
    EVM_RELAYER_KEY: evm.relayer.privateKey,
    // The sandbox's relayer pool (its first key is EVM_RELAYER_KEY): several keys sign in parallel.
    EVM_RELAYER_KEYS: evm.relayerPool.map((k) => k.privateKey).join(','),
    EVM_CONFIRMATIONS: '1',
    PERMIT2_ADDRESS: evm.permit2Address,
    SOLANA_RPC_URL: `${baseUrl}/solana`,
    SOLANA_CHAIN_ID: solana.caip2,
    SOLANA_FEE_PAYER_KEY: JSON.stringify(Array.from(solana.feePayer.secretKey)),
    ASSETS_FILE: assetsFile,
  };
}

/** Writes the sandbox tokens as an ASSETS_FILE (the array `parseAssets` validates); returns its path. */
export function writeAssetsFile(chains: SandboxChains, dir: string): string {
  const path = join(dir, 'sandbox-assets.json');
  writeFileSync(path, `${JSON.stringify(chains.assetConfigs(), null, 2)}\n`);
  return path;
}

/** `KEY=VALUE` lines; values are single-line (JSON is compact), so no quoting is needed. */
export function envLines(env: Record<string, string>): string {
  return Object.entries(env)
    .map(([key, value]) => `${key}=${value}`)
    .join('\n');
}

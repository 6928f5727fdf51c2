import { evmChainReference } from './chain-ids.ts';
import type { EvmSigner } from './types.ts';

/** The minimal EIP-1193 surface (MetaMask, WalletConnect provider, injected wallets). */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

/** EIP-3085's `wallet_addEthereumChain` parameter, for a chain the wallet may not know yet. */
export interface AddEthereumChainParameter {
  chainId: string;
  chainName: string;
  nativeCurrency: { name: string; symbol: string; decimals: number };
  rpcUrls: string[];
  blockExplorerUrls?: string[];
}

export interface Eip1193SignerOptions {
  /** Chains to advertise accounts on; the provider's current chain when absent. */
  chainIds?: (number | string)[];
  /**
   * How to describe a chain the wallet cannot switch to, keyed by its decimal reference. Without
   * an entry, a refused switch is the answer.
   */
  addableChains?: Record<string, Omit<AddEthereumChainParameter, 'chainId'>>;
}

/**
 * Adapts any EIP-1193 provider. Signing requests are forwarded unchanged, so the wallet's own
 * confirmation UI shows exactly what the service asked for. Before a typed-data signature and
 * before a transaction the provider is moved to the action's chain: wallets refuse
 * `eth_signTypedData_v4` whose domain `chainId` is not the active chain (MetaMask does).
 */
export function eip1193Signer(provider: Eip1193Provider, options: Eip1193SignerOptions = {}): EvmSigner {
  const call = async (method: string, params: unknown[]): Promise<string> => {
    const result = await provider.request({ method, params });
    if (typeof result !== 'string') throw new Error(`${method} returned ${typeof result}, expected a string`);
    return result;
  };
  const ensureChain = (chainId: number | string) => ensureEvmChain(provider, chainId, options.addableChains);
  return {
    async accounts() {
      const addresses = await provider.request({ method: 'eth_accounts', params: [] });
      if (!Array.isArray(addresses)) throw new Error('eth_accounts did not return a list');
      const chains = options.chainIds ?? [await call('eth_chainId', [])];
      const references = chains.map(evmChainReference);
      return references.flatMap((reference) => addresses.filter((a) => typeof a === 'string').map((address) => `eip155:${reference}:${address}`));
    },
    async signTypedData(address, typedDataJson) {
      const domainChain = typedDataChainId(typedDataJson);
      if (domainChain !== undefined) await ensureChain(domainChain);
      return call('eth_signTypedData_v4', [address, typedDataJson]);
    },
    personalSign(address, message) {
      return call('personal_sign', [message, address]);
    },
    async sendTransaction(chainId, tx) {
      await ensureChain(chainId);
      return call('eth_sendTransaction', [tx]);
    },
    async waitForReceipt(_chainId, txHash) {
      // The provider is on the transaction's chain: sendTransaction switched it there.
      for (let waitMs = 500; ; waitMs = Math.min(waitMs * 2, 4_000)) {
        const receipt = (await provider.request({ method: 'eth_getTransactionReceipt', params: [txHash] })) as { status?: string } | null;
        if (receipt) {
          if (receipt.status !== '0x1') throw new Error(`transaction ${txHash} reverted`);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, waitMs));
      }
    },
  };
}

/**
 * Moves the provider to `chainId` unless it is there already. Wallets signal an unknown chain
 * with 4902, but some wrap it (-32603 with data.originalError) and mobile wallets answer other
 * codes: any refused switch gets one add-then-switch attempt when `addableChains` describes the
 * chain (keyed by decimal reference). A buyer's own rejection (4001) is final.
 */
export async function ensureEvmChain(
  provider: Eip1193Provider,
  chainId: number | string,
  addableChains?: Record<string, Omit<AddEthereumChainParameter, 'chainId'>>,
): Promise<void> {
  const wanted = evmChainReference(chainId);
  const active = await provider.request({ method: 'eth_chainId', params: [] });
  if (typeof active === 'string' && evmChainReference(active) === wanted) return;
  const hexId = `0x${BigInt(wanted).toString(16)}`;
  try {
    await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: hexId }] });
  } catch (switchError) {
    const addable = addableChains?.[wanted];
    if (!addable || errorCode(switchError) === 4001) throw switchError;
    await provider.request({ method: 'wallet_addEthereumChain', params: [{ chainId: hexId, ...addable }] });
    await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: hexId }] });
  }
}

/** The typed data's `domain.chainId` (number, decimal or hex string), or undefined when it names none. */
function typedDataChainId(typedDataJson: string): number | string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typedDataJson);
  } catch {
    return undefined;
  }
  const chainId = (parsed as { domain?: { chainId?: unknown } } | null)?.domain?.chainId;
  return typeof chainId === 'number' || typeof chainId === 'string' ? chainId : undefined;
}

function errorCode(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

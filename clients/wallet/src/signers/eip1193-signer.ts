import { evmChainReference } from './chain-ids.ts';
import type { EvmSigner } from './types.ts';

/** The minimal EIP-1193 surface (MetaMask, WalletConnect provider, injected wallets). */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

/**
 * Adapts any EIP-1193 provider. Signing requests are forwarded unchanged, so the wallet's own
 * confirmation UI shows exactly what the service asked for; before a transaction the
 * provider is switched to the action's chain when it is elsewhere.
 */
export function eip1193Signer(provider: Eip1193Provider, options: { chainIds?: (number | string)[] } = {}): EvmSigner {
  const call = async (method: string, params: unknown[]): Promise<string> => {
    const result = await provider.request({ method, params });
    if (typeof result !== 'string') throw new Error(`${method} returned ${typeof result}, expected a string`);
    return result;
  };
  return {
    async accounts() {
      const addresses = await provider.request({ method: 'eth_accounts', params: [] });
      if (!Array.isArray(addresses)) throw new Error('eth_accounts did not return a list');
      const chains = options.chainIds ?? [await call('eth_chainId', [])];
      const references = chains.map(evmChainReference);
      return references.flatMap((reference) => addresses.filter((a) => typeof a === 'string').map((address) => `eip155:${reference}:${address}`));
    },
    signTypedData(address, typedDataJson) {
      return call('eth_signTypedData_v4', [address, typedDataJson]);
    },
    personalSign(address, message) {
      return call('personal_sign', [message, address]);
    },
    async sendTransaction(chainId, tx) {
      const wanted = evmChainReference(chainId);
      const current = evmChainReference(await call('eth_chainId', []));
      if (current !== wanted) {
        await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: `0x${BigInt(wanted).toString(16)}` }] });
      }
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

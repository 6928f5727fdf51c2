import type { WalletSigners } from './types.ts';

/**
 * The accounts to send with the options call: every EVM account on every chain, plus Solana
 * accounts only when a Solana signer with keys exists, so a wallet without Solana keys is
 * never offered a Solana option it cannot sign.
 */
export async function walletAccounts(signers: WalletSigners, options: { solanaChainRefs?: string[] } = {}): Promise<string[]> {
  const evm = signers.evm ? await signers.evm.accounts() : [];
  const refs = options.solanaChainRefs ?? [];
  const solana = signers.solana && refs.length > 0 ? await signers.solana.accounts(refs) : [];
  return [...new Set([...evm, ...solana])];
}

import type { Eip1193Provider, PaymentOption, StandardAccount } from '../../../clients/wallet/src/index.ts';
import type { StandardWallet } from './discovery.ts';

export type AddableChains = Record<string, { chainName: string; nativeCurrency: { name: string; symbol: string; decimals: number }; rpcUrls: string[] }>;

/** Asks the wallet for its accounts (its own connect prompt); a wallet that answers none has refused. */
export async function evmAccounts(provider: Eip1193Provider): Promise<string[]> {
  const answer = await provider.request({ method: 'eth_requestAccounts', params: [] });
  const addresses = Array.isArray(answer) ? answer.filter((a): a is string => typeof a === 'string' && /^0x[0-9a-fA-F]{40}$/.test(a)) : [];
  if (!addresses.length) throw Object.assign(new Error('The wallet shared no account'), { code: 4001 });
  return addresses;
}

/**
 * The option's token balance of its account, read through the wallet's own node (`balanceOf`
 * by `eth_call`), the wallet being on the option's chain already. Null when the wallet cannot
 * say (no `eth_call`, a native coin): the service's own checks still stand behind the signature.
 */
export async function evmBalance(provider: Eip1193Provider, option: PaymentOption): Promise<bigint | null> {
  const token = /\/erc20:(0x[0-9a-fA-F]{40})$/.exec(option.amount.unit)?.[1];
  const owner = option.account.split(':')[2];
  if (!token || !owner) return null;
  try {
    const data = `0x70a08231${owner.slice(2).toLowerCase().padStart(64, '0')}`;
    const answer = await provider.request({ method: 'eth_call', params: [{ to: token, data }, 'latest'] });
    return typeof answer === 'string' && /^0x[0-9a-fA-F]+$/.test(answer) ? BigInt(answer) : null;
  } catch {
    return null;
  }
}

type ConnectFeature = { connect(input?: { silent?: boolean }): Promise<{ accounts: readonly StandardAccount[] }> };

/** `standard:connect`: the wallet's own prompt; its first account with a Solana chain pays. */
export async function solanaConnect(wallet: StandardWallet): Promise<StandardAccount> {
  const { accounts } = await (wallet.features['standard:connect'] as ConnectFeature).connect();
  const account = accounts.find((a) => !a.chains || a.chains.some((c) => c.startsWith('solana:'))) ?? accounts[0];
  if (!account) throw Object.assign(new Error('The wallet shared no account'), { code: 4001 });
  return account;
}

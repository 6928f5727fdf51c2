import type { Eip1193Provider, StandardAccount } from '../../../clients/wallet/src/index.ts';

/** One wallet the page found, EVM or Solana, as the buyer picks it. */
export type FoundWallet =
  { kind: 'evm'; id: string; name: string; icon: string; provider: Eip1193Provider } | { kind: 'solana'; id: string; name: string; icon: string; wallet: StandardWallet };

/** The part of a Wallet Standard wallet (`@wallet-standard/base`'s Wallet) the page uses. */
export interface StandardWallet {
  name: string;
  icon: string;
  chains: readonly string[];
  accounts: readonly StandardAccount[];
  features: Record<string, unknown>;
}

interface Eip6963Detail {
  info: { uuid: string; name: string; icon: string; rdns?: string };
  provider: Eip1193Provider;
}

/** How long announcements are awaited: wallets answer `requestProvider` synchronously; extensions injected late get this long. */
const ANNOUNCE_WAIT_MS = 400;

/**
 * The browser's wallets: EIP-6963 announcements (every EVM extension that supports it, each with
 * its own provider, so two wallets never fight over `window.ethereum`), `window.ethereum` only
 * when nothing announced itself (older extensions, wallets' in-app browsers), and Wallet Standard
 * wallets that can sign Solana transactions, registered before or after the page asked.
 * `onChange` fires as late wallets arrive.
 */
export function discoverWallets(onChange: (wallets: FoundWallet[]) => void): Promise<FoundWallet[]> {
  const found = new Map<string, FoundWallet>();
  const changed = () => onChange([...found.values()]);

  window.addEventListener('eip6963:announceProvider', (event) => {
    const detail = (event as CustomEvent<Eip6963Detail>).detail;
    if (!detail?.info?.uuid || typeof detail.provider?.request !== 'function') return;
    found.set(`evm:${detail.info.uuid}`, { kind: 'evm', id: `evm:${detail.info.uuid}`, name: detail.info.name, icon: detail.info.icon, provider: detail.provider });
    changed();
  });
  window.dispatchEvent(new Event('eip6963:requestProvider'));

  const register = (...wallets: StandardWallet[]) => {
    for (const wallet of wallets) {
      const solana = wallet.chains.some((chain) => chain.startsWith('solana:'));
      if (!solana || !wallet.features['standard:connect'] || !wallet.features['solana:signTransaction']) continue;
      found.set(`solana:${wallet.name}`, { kind: 'solana', id: `solana:${wallet.name}`, name: wallet.name, icon: wallet.icon, wallet });
    }
    changed();
    return () => {};
  };
  const api = Object.freeze({ register });
  // Wallets loaded before the page announce themselves on app-ready; later ones dispatch register-wallet.
  window.addEventListener('wallet-standard:register-wallet', (event) => {
    const callback = (event as CustomEvent<(api: { register: typeof register }) => void>).detail;
    if (typeof callback === 'function') callback(api);
  });
  window.dispatchEvent(new CustomEvent('wallet-standard:app-ready', { detail: api }));

  return new Promise((resolve) => {
    setTimeout(() => {
      const injected = (window as unknown as { ethereum?: Eip1193Provider }).ethereum;
      const anyEvm = [...found.values()].some((w) => w.kind === 'evm');
      if (!anyEvm && injected && typeof injected.request === 'function') {
        found.set('evm:injected', { kind: 'evm', id: 'evm:injected', name: 'Browser wallet', icon: '', provider: injected });
        changed();
      }
      resolve([...found.values()]);
    }, ANNOUNCE_WAIT_MS);
  });
}

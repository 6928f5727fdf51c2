import { esc } from './html.ts';

/**
 * "Open in your wallet" links for phones: each reopens the payment page in a wallet app's own
 * browser, where the page's browser-wallet flow can pay. One table, each format as its wallet
 * documents it (source beside it); wallet-links.test.ts checks each against the documentation's
 * own example. Plain links: the page never redirects by itself, the buyer taps one.
 */
export interface WalletLinkFormat {
  id: string;
  name: string;
  /** The CAIP-2 namespaces the wallet pays on through this page. */
  namespaces: readonly string[];
  /** The page where the wallet documents the format. */
  source: string;
  /** The link opening `url` (the payment page) in the wallet's browser. */
  link(url: string): string;
}

const origin = (url: string) => new URL(url).origin;

export const WALLET_LINKS: readonly WalletLinkFormat[] = [
  {
    id: 'metamask',
    name: 'MetaMask',
    namespaces: ['eip155'],
    // "Open a dapp inside the in-app browser": https://link.metamask.io/dapp/{dappUrl}, the URL without its scheme, not encoded.
    source: 'https://docs.metamask.io/sdk/guides/use-deeplinks/',
    link: (url) => `https://link.metamask.io/dapp/${url.replace(/^https?:\/\//, '')}`,
  },
  {
    id: 'coinbase',
    name: 'Coinbase Wallet',
    namespaces: ['eip155'],
    // "Dapp browser": https://go.cb-w.com/dapp?cb_url=[YOUR_URL], percent-encoded.
    source: 'https://docs.cdp.coinbase.com/coinbase-wallet/developer-guidance/mobile-dapp-integration',
    link: (url) => `https://go.cb-w.com/dapp?cb_url=${encodeURIComponent(url)}`,
  },
  {
    id: 'trust',
    name: 'Trust Wallet',
    namespaces: ['eip155'],
    // "DApp Browser": https://link.trustwallet.com/open_url?coin_id=60&url=…, coin_id the SLIP-44 index (60: Ethereum).
    source: 'https://developer.trustwallet.com/developer/develop-for-trust/deeplinking',
    link: (url) => `https://link.trustwallet.com/open_url?coin_id=60&url=${encodeURIComponent(url)}`,
  },
  {
    id: 'okx',
    name: 'OKX Wallet',
    namespaces: ['eip155'],
    // "App Universal Link": okx://wallet/dapp/url?dappUrl=<encoded>, itself encoded into https://web3.okx.com/download?deeplink=.
    source: 'https://web3.okx.com/build/docs/waas/app-universal-link',
    link: (url) => `https://web3.okx.com/download?deeplink=${encodeURIComponent(`okx://wallet/dapp/url?dappUrl=${encodeURIComponent(url)}`)}`,
  },
  {
    id: 'phantom',
    name: 'Phantom',
    namespaces: ['solana'],
    // "Browse": https://phantom.app/ul/browse/<url>?ref=<ref>, both URL-encoded; ref is the requesting app's URL.
    source: 'https://docs.phantom.com/phantom-deeplinks/other-methods/browse',
    link: (url) => `https://phantom.app/ul/browse/${encodeURIComponent(url)}?ref=${encodeURIComponent(origin(url))}`,
  },
  {
    id: 'solflare',
    name: 'Solflare',
    namespaces: ['solana'],
    // "Browse": https://solflare.com/ul/v1/browse/<url>?ref=<ref>, both URL-encoded.
    source: 'https://docs.solflare.com/solflare/technical/deeplinks/other-methods/browse',
    link: (url) => `https://solflare.com/ul/v1/browse/${encodeURIComponent(url)}?ref=${encodeURIComponent(origin(url))}`,
  },
  {
    id: 'backpack',
    name: 'Backpack',
    namespaces: ['solana'],
    // "Browse": https://backpack.app/ul/v1/browse/<url>?ref=<ref>, both URL-encoded (Phantom's shape, under /ul/v1/).
    source: 'https://docs.backpack.app/deeplinks/other-methods/browse',
    link: (url) => `https://backpack.app/ul/v1/browse/${encodeURIComponent(url)}?ref=${encodeURIComponent(origin(url))}`,
  },
];

/** The wallets that can pay on one of `namespaces`, with their link to `pageUrl`. */
export function walletLinksFor(pageUrl: string, namespaces: ReadonlySet<string>): Array<{ id: string; name: string; href: string }> {
  return WALLET_LINKS.filter((w) => w.namespaces.some((n) => namespaces.has(n))).map((w) => ({ id: w.id, name: w.name, href: w.link(pageUrl) }));
}

/** The page's "Open in your wallet" section; empty when no listed wallet pays the payment's chains. */
export function renderWalletLinksSection(pageUrl: string, namespaces: ReadonlySet<string>): string {
  const links = walletLinksFor(pageUrl, namespaces);
  if (!links.length) return '';
  const items = links.map((l) => `<li><a class="wallet-link" data-wallet="${esc(l.id)}" href="${esc(l.href)}" rel="noopener">${esc(l.name)}</a></li>`).join('');
  return `<section class="wallet-links" id="wallet-links" aria-labelledby="wallet-links-title">
<h2 id="wallet-links-title">On your phone? Open this page in your wallet</h2>
<p class="muted">Opens this payment in the wallet app’s own browser, where it can pay.</p>
<ul class="wallet-links-list">${items}</ul>
</section>`;
}

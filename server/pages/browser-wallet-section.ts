import { attrs } from './html.ts';
import type { PaymentPageData } from './payment-data.ts';

/** EIP-3085's description of an EVM chain a wallet may not know, keyed by CAIP-2 (`eip155:8453`). */
export type WalletChains = Record<
  string,
  { chainName: string; nativeCurrency: { name: string; symbol: string; decimals: number }; rpcUrls: string[]; blockExplorerUrls?: string[] }
>;

/**
 * "Pay with a browser wallet": a section the page's wallet script (static/wallet.js, built from
 * server/pages/wallet-page/) brings to life. It is `hidden` in the HTML, so a browser without
 * JavaScript shows only the QR code and the link; the script reveals it once it runs. Everything
 * the script needs is in data attributes (no inline script: the CSP is `script-src 'self'`):
 * where the keyless gateway routes are, the payment id, the chains the merchant accepts, and how
 * to add an EVM chain a wallet does not know yet.
 */
export function renderBrowserWalletSection(d: PaymentPageData, wallet: { apiBase: string; chains: WalletChains }): string {
  if (d.unpayable || d.state.isFinal) return '';
  const accepted = [...new Set(d.accepted.map((a) => a.chain))];
  const networks = Object.fromEntries(d.accepted.map((a) => [a.chain, a.network]));
  const addable = Object.fromEntries(Object.entries(wallet.chains).filter(([caip2]) => accepted.includes(caip2)));
  return `<section id="browser-wallet" class="browser-wallet" aria-labelledby="bw-title" hidden${attrs({
    'data-api-base': wallet.apiBase,
    'data-payment-id': d.paymentId,
    'data-chains': JSON.stringify(accepted),
    'data-networks': JSON.stringify(networks),
    'data-addable': JSON.stringify(addable),
  })}>
<h2 id="bw-title">Pay with a browser wallet</h2>
<p class="muted" id="bw-intro">Looking for wallets in this browser…</p>
<div id="bw-wallets" class="bw-wallets"></div>
<div id="bw-review" class="bw-review" hidden>
<h3>Your wallet will be asked to approve</h3>
<dl class="bw-facts"><dt>Amount</dt><dd id="bw-amount"></dd><dt>Network</dt><dd id="bw-network"></dd><dt>Recipient</dt><dd id="bw-recipient"></dd><dt>From</dt><dd id="bw-account"></dd><dt>Wallet steps</dt><dd id="bw-steps"></dd></dl>
<form id="bw-form" class="bw-form" novalidate><div id="bw-fields"></div><button type="submit" id="bw-pay" class="button">Pay</button></form>
</div>
<p id="bw-message" class="bw-message" role="status" aria-live="polite"></p>
</section>`;
}

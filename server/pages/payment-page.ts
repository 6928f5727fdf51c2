import QRCode from 'qrcode';
import { attrs, esc, layout } from './html.ts';
import type { PaymentPageData } from './payment-data.ts';
import { renderBrowserWalletSection, type WalletChains } from './browser-wallet-section.ts';

/** What each state says to the buyer; the script uses the same words (static/pay.js). */
export const STATUS_TEXT: Record<string, { title: string; detail: string }> = {
  requires_action: { title: 'Waiting for payment', detail: 'Scan the code with your wallet, or open the link in it.' },
  processing: { title: 'Payment received — confirming', detail: 'Your wallet sent the payment; the network is confirming it.' },
  succeeded: { title: 'Paid', detail: 'The payment is complete. You can close this page.' },
  failed: { title: 'Payment failed', detail: 'The payment did not go through. No funds were taken; you can try again with a new link.' },
  expired: { title: 'This payment link has expired', detail: 'Ask the merchant for a new link.' },
  cancelled: { title: 'Payment cancelled', detail: 'This payment was cancelled. Ask the merchant for a new link if you still want to pay.' },
};

/** A payment waiting for a payment no accepted asset can make (payment-data.ts `unpayable`). */
export const UNPAYABLE_TEXT = {
  title: 'This payment cannot be paid',
  detail: 'None of the assets this merchant accepts can pay this amount, so no wallet can pay it. No funds were taken; ask the merchant for a new link.',
};

/** The hosted payment page. `assetBase` is where its script and style are served (under the pay path). */
export async function renderPaymentPage(
  d: PaymentPageData,
  urls: {
    assetBase: string;
    stateUrl: string;
    wallet?: { apiBase: string; chains: WalletChains };
    /** wallet-sections.ts (Solana Pay, phone wallets), rendered by the caller. */
    walletSections?: string;
  },
): Promise<string> {
  const qr = await QRCode.toString(d.link, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  const text = d.unpayable ? UNPAYABLE_TEXT : (STATUS_TEXT[d.state.status] ?? { title: d.state.status, detail: '' });
  const initial = d.merchant.name.trim().charAt(0).toUpperCase() || '?';
  const logo = d.merchant.iconUrl
    ? `<img class="logo" src="${esc(d.merchant.iconUrl)}" alt="" width="64" height="64">`
    : `<span class="logo logo-initial" aria-hidden="true">${esc(initial)}</span>`;
  const accepted = d.accepted.length
    ? `<ul class="accepted">${d.accepted.map((a) => `<li>${esc(a.symbol)} <span class="network">on ${esc(a.network)}</span></li>`).join('')}</ul>`
    : '<p class="muted">This merchant accepts no asset at the moment.</p>';
  const body = `<main id="payment" class="card"${attrs({
    'data-state-url': urls.stateUrl,
    'data-status': d.state.status,
    'data-expires-at': d.expiresAt,
    'data-now': d.state.now,
    'data-final': String(d.state.isFinal),
    'data-payable': d.unpayable ? 'false' : undefined,
    'data-poll-ms': d.state.pollInMs ?? undefined,
  })}>
<header class="merchant">${logo}<div><p class="muted">Pay</p><h1>${esc(d.merchant.name || 'Merchant')}</h1></div></header>
<p class="amount" aria-label="Amount due">${esc(d.amountText)}</p>
<section class="status" aria-labelledby="status-title">
<div id="status" role="status" aria-live="polite" aria-atomic="true"><h2 id="status-title">${esc(text.title)}</h2><p id="status-detail">${esc(text.detail)}</p></div>
<p class="countdown" id="countdown-wrap">Expires in <time id="countdown" datetime="${esc(new Date(d.expiresAt * 1000).toISOString())}">${esc(remaining(d.expiresAt * 1000 - d.state.now))}</time></p>
</section>
<section class="scan" id="scan" aria-labelledby="scan-title">
<h2 id="scan-title">Scan with your wallet</h2>
<figure class="qr" role="img" aria-label="QR code of the payment link">${qr}</figure>
<p class="link"><a id="wallet-link" href="${esc(d.link)}">${esc(d.link)}</a></p>
</section>
${urls.wallet ? renderBrowserWalletSection(d, urls.wallet) : ''}
${urls.walletSections ?? ''}
<section aria-labelledby="accepted-title"><h2 id="accepted-title">Accepted</h2>${accepted}</section>
<footer class="muted small">Payment ${esc(d.paymentId)}</footer>
</main>`;
  return layout({
    title: `Pay ${d.merchant.name || 'merchant'} — ${d.amountText}`,
    styles: [`${urls.assetBase}/pages.css`],
    scripts: [`${urls.assetBase}/pay.js`, ...(urls.wallet ? [`${urls.assetBase}/wallet.js`] : [])],
    body,
  });
}

/** "4:59", "1:02:03"; the script formats it the same way. */
export function remaining(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return hh ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

/** The page of an id that names no payment: a 404 that tells the buyer what to do. */
export function renderNotFoundPage(assetBase: string): string {
  const body = `<main class="card" id="not-found">
<h1>Payment not found</h1>
<p>This link does not point to a payment we know. Check that you opened the whole link, or ask the merchant for a new one.</p>
</main>`;
  return layout({ title: 'Payment not found', styles: [`${assetBase}/pages.css`], body });
}

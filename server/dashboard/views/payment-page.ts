import { attrs, esc } from '../../pages/html.ts';
import type { AssetRegistry } from '../../domain/assets.ts';
import type { MerchantRecord } from '../../domain/merchants/records.ts';
import type { PaymentEventRecord, PaymentRecord } from '../../domain/payments/records.ts';
import { effectiveStatus } from '../../domain/payments/view.ts';
import { can } from '../../domain/users/permissions.ts';
import type { Signed } from '../signed.ts';
import { problemList } from './merchant-form.ts';
import { assetText, paidText, priceText } from './money.ts';
import { named, networkName } from './names.ts';
import { statusTag } from './payments-page.ts';
import { buttonForm, shell, when } from './shell.ts';

/** The explorer page of a transaction, the id URL-encoded into the chain's template; none configured: undefined. */
function explorerUrl(urls: Readonly<Record<string, string>>, network: string | null, txId: string | null): string | undefined {
  if (!network || !txId || !Object.hasOwn(urls, network)) return undefined;
  return urls[network]!.replace('{txId}', encodeURIComponent(txId));
}

function transaction(urls: Readonly<Record<string, string>>, network: string | null, txId: string | null): string {
  if (!txId) return '—';
  const href = explorerUrl(urls, network, txId);
  const id = `<code>${esc(txId)}</code>`;
  return href ? `<a${attrs({ href, rel: 'noopener noreferrer' })}>${id}</a>` : id;
}

/** Transactions that paid the merchant again after success (paid twice): each with its amount, for the owner to settle with the buyer. */
function paidAgain(urls: Readonly<Record<string, string>>, p: PaymentRecord, assets: AssetRegistry): string {
  const rows = (p.extraPayments ?? []).map((e) => `<li>${esc(assetText(e.asset, e.value, assets))} by ${transaction(urls, e.network, e.txId)}, found ${esc(when(e.foundAt))}</li>`);
  return `<span class="tag bad">paid twice</span> The merchant received these too; settle with the buyer.<ul>${rows.join('')}</ul>`;
}

const fact = (label: string, value: string, id?: string) => `<dt>${esc(label)}</dt><dd${attrs({ id })}>${value}</dd>`;

function actions(s: Signed, p: PaymentRecord, now: number): string {
  if (!can(s.user.role, 'payments:write')) return '';
  const st = effectiveStatus(p, now);
  const base = `/dashboard/payments/${p.id}`;
  const out: string[] = [];
  if (st === 'requires_action')
    out.push(buttonForm(s, `${base}/cancel`, 'Cancel payment', { confirm: 'Cancel this payment? The buyer can no longer pay it.', className: 'danger' }));
  if (st === 'succeeded' && !p.refundedAt)
    out.push(
      buttonForm(s, `${base}/refund`, 'Mark refunded', {
        confirm: 'Mark this payment refunded? Return the funds to the buyer from the merchant’s wallet; this cannot be undone.',
        className: 'danger',
      }),
    );
  return out.length ? `<div class="actions">${out.join('')}</div>` : '';
}

export function paymentPage(
  s: Signed,
  o: {
    payment: PaymentRecord;
    merchant: MerchantRecord | null;
    events: PaymentEventRecord[];
    assets: AssetRegistry;
    explorerTxUrls: Readonly<Record<string, string>>;
    now: number;
    notice?: string;
    problems?: string[];
  },
): string {
  const p = o.payment;
  const timeline = o.events
    .map((e) => `<li${attrs({ 'data-event': e.type })}><time${attrs({ datetime: e.createdAt.toISOString() })}>${esc(when(e.createdAt))}</time> <code>${esc(e.type)}</code></li>`)
    .join('');
  const buyer = p.buyerAccount ? `<code>${esc(p.buyerAccount)}</code>${p.buyerProviderName ? ` <span class="muted">via ${esc(p.buyerProviderName)}</span>` : ''}` : '—';
  return shell(s, {
    title: `Payment ${p.referenceId}`,
    tab: 'payments',
    body: `<p><a href="/dashboard/payments">← All payments</a></p>
${o.notice ? `<p class="notice" role="status">${esc(o.notice)}</p>` : ''}
${problemList(o.problems)}
<section class="card wide" aria-labelledby="facts">
<h2 id="facts">${statusTag(p, o.now)}</h2>
<dl class="facts">
${fact('Payment id', `<code>${esc(p.id)}</code>`)}
${fact('Merchant', o.merchant ? `<a${attrs({ href: `/dashboard/merchants/${o.merchant.id}` })}>${esc(o.merchant.name)}</a>` : esc(p.merchantId))}
${fact('Reference', esc(p.referenceId))}
${fact('Amount', esc(priceText(p, o.assets)), 'amount')}
${fact('Paid', esc(paidText(p, o.assets) || '—'), 'paid')}
${fact('Network', p.network ? named(networkName(o.assets, p.network), p.network) : '—')}
${fact('Buyer', buyer, 'buyer')}
${fact('Transaction', transaction(o.explorerTxUrls, p.network, p.txId), 'tx')}
${p.extraPayments?.length ? fact('Paid again', paidAgain(o.explorerTxUrls, p, o.assets), 'paid-again') : ''}
${fact('Created', esc(when(p.createdAt)))}
${fact('Expires', esc(when(p.expiresAt)))}
${p.succeededAt ? fact('Succeeded', esc(when(p.succeededAt))) : ''}
${p.refundedAt ? fact('Refunded', esc(when(p.refundedAt))) : ''}
${p.finality ? fact('Finality', p.finality === 'reversed' ? `<span class="tag bad">reversed by a reorg</span> ${esc(p.finalityReason ?? '')}` : esc(p.finality), 'finality') : ''}
${p.cancelledAt ? fact('Cancelled', esc(`${when(p.cancelledAt)} (${p.cancelledReason ?? ''})`)) : ''}
${p.failureCode ? fact('Failure', `<code>${esc(p.failureCode)}</code>`) : ''}
</dl>
${actions(s, p, o.now)}
</section>
<section class="card wide" aria-labelledby="timeline">
<h2 id="timeline">Timeline</h2>
<p class="muted">The events your webhooks receive, oldest first.</p>
${timeline ? `<ol class="timeline">${timeline}</ol>` : '<p>No events yet.</p>'}
</section>`,
  });
}

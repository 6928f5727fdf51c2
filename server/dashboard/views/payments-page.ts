import { attrs, esc } from '../../pages/html.ts';
import type { AssetRegistry } from '../../domain/assets.ts';
import { currencyExponent, formatMinor } from '../../domain/currencies.ts';
import type { MerchantRecord } from '../../domain/merchants/records.ts';
import type { PaymentRecord, PaymentStatsRecord } from '../../domain/payments/records.ts';
import { PAYMENT_STATUSES } from '../../domain/payments/state-machine.ts';
import { effectiveStatus } from '../../domain/payments/view.ts';
import { filterQuery, type PaymentFilters } from '../payments-query.ts';
import type { Signed } from '../signed.ts';
import { problemList } from './merchant-form.ts';
import { paidText, priceText } from './money.ts';
import { networkName } from './names.ts';
import { shell, when } from './shell.ts';

/** A status as a tag; refunded, reversed and paid twice shown beside it. */
export const statusTag = (p: PaymentRecord, now: number) => {
  const st = effectiveStatus(p, now);
  const tone = st === 'succeeded' ? ' ok' : st === 'failed' || st === 'expired' || st === 'cancelled' ? ' bad' : '';
  return `<span class="tag${tone}">${esc(st.replace('_', ' '))}</span>${p.refundedAt ? ' <span class="tag">refunded</span>' : ''}${p.finality === 'reversed' ? ' <span class="tag bad">reversed</span>' : ''}${p.extraPayments?.length ? ' <span class="tag bad">paid twice</span>' : ''}`;
};

function filterForm(f: PaymentFilters, merchants: MerchantRecord[], networks: string[], assets: AssetRegistry): string {
  const opt = (value: string, label: string, selected: boolean) => `<option${attrs({ value })}${selected ? ' selected' : ''}>${esc(label)}</option>`;
  return `<form method="get" action="/dashboard/payments" class="filters" role="search">
<div class="field"><label for="f-merchant">Merchant</label><select id="f-merchant" name="merchant">${opt('', 'All merchants', !f.merchant)}${merchants.map((m) => opt(m.id, m.name, m.id === f.merchant)).join('')}</select></div>
<fieldset><legend>Status</legend>${PAYMENT_STATUSES.map((st) => `<label class="check"><input type="checkbox" name="status"${attrs({ value: st })}${f.statuses.includes(st) ? ' checked' : ''}> ${esc(st.replace('_', ' '))}</label>`).join('')}</fieldset>
<div class="field"><label for="f-from">Created from</label><input id="f-from" name="from" type="date"${attrs({ value: f.from })}></div>
<div class="field"><label for="f-to">Created to</label><input id="f-to" name="to" type="date"${attrs({ value: f.to })}></div>
<div class="field"><label for="f-network">Network</label><select id="f-network" name="network">${opt('', 'Any network', !f.network)}${networks.map((n) => opt(n, networkName(assets, n), n === f.network)).join('')}</select></div>
<div class="field"><label for="f-ref">Reference contains</label><input id="f-ref" name="reference" maxlength="256"${attrs({ value: f.reference })}></div>
<button type="submit">Filter</button>
</form>`;
}

function statsBlock(st: PaymentStatsRecord): string {
  const revenue = st.revenue.length ? st.revenue.map((r) => `${formatMinor(r.minor, currencyExponent(r.currency) ?? 2)} ${r.currency}`).join(', ') : '—';
  return `<dl class="stats" aria-label="Totals of the filtered payments"><div><dt>Revenue</dt><dd id="stat-revenue">${esc(revenue)}</dd></div><div><dt>Transactions</dt><dd id="stat-transactions">${st.transactions}</dd></div><div><dt>Customers</dt><dd id="stat-customers">${st.customers}</dd></div></dl>`;
}

export function paymentsPage(
  s: Signed,
  o: {
    payments: PaymentRecord[];
    stats: PaymentStatsRecord;
    filters: PaymentFilters;
    problems: string[];
    merchants: MerchantRecord[];
    networks: string[];
    assets: AssetRegistry;
    now: number;
    next?: string;
  },
): string {
  const names = new Map(o.merchants.map((m) => [m.id, m.name]));
  const rows = o.payments
    .map(
      (p) => `<tr${attrs({ 'data-payment-id': p.id })}>
<td data-label="Reference"><a${attrs({ href: `/dashboard/payments/${p.id}` })}>${esc(p.referenceId)}</a></td>
<td data-label="Merchant">${esc(names.get(p.merchantId) ?? p.merchantId)}</td>
<td data-label="Amount">${esc(priceText(p, o.assets))}</td>
<td data-label="Paid">${esc(paidText(p, o.assets) || '—')}</td>
<td data-label="Status">${statusTag(p, o.now)}</td>
<td data-label="Created">${esc(when(p.createdAt))}</td>
</tr>`,
    )
    .join('\n');
  const q = filterQuery(o.filters).toString();
  const nextHref = o.next ? `/dashboard/payments?${q ? `${q}&` : ''}after=${encodeURIComponent(o.next)}` : '';
  return shell(s, {
    title: 'Payments',
    tab: 'payments',
    body: `<section class="card wide" aria-labelledby="payment-filters">
<h2 id="payment-filters">Filter</h2>
${problemList(o.problems)}
${filterForm(o.filters, o.merchants, o.networks, o.assets)}
${statsBlock(o.stats)}
<p><a id="export-csv"${attrs({ href: `/dashboard/payments.csv${q ? `?${q}` : ''}` })} download>Export these payments as CSV</a></p>
</section>
<section class="card wide" aria-labelledby="payment-list">
<h2 id="payment-list">Payments</h2>
${o.payments.length ? `<table class="list"><thead><tr><th scope="col">Reference</th><th scope="col">Merchant</th><th scope="col">Amount</th><th scope="col">Paid</th><th scope="col">Status</th><th scope="col">Created</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>No payments match.</p>'}
${nextHref ? `<p><a${attrs({ href: nextHref })}>Older payments</a></p>` : ''}
</section>`,
  });
}

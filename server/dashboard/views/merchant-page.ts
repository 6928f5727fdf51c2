import { assetName, named } from './names.ts';
import { attrs, esc } from '../../pages/html.ts';
import type { AssetInfo } from '../../domain/assets.ts';
import type { CryptoSettlementRecord, MerchantRecord } from '../../domain/merchants/records.ts';
import { can } from '../../domain/users/permissions.ts';
import type { Signed } from '../signed.ts';
import { merchantFields, problemList, valuesOf, type MerchantFormValues } from './merchant-form.ts';
import { buttonForm, csrfField, shell, when } from './shell.ts';

export type { MerchantFormValues } from './merchant-form.ts';

function settlementRows(s: Signed, m: MerchantRecord, list: CryptoSettlementRecord[], writer: boolean, assets: AssetInfo[]): string {
  return list
    .map((st) => {
      const base = `/dashboard/merchants/${encodeURIComponent(m.id)}/settlements/${encodeURIComponent(st.id)}`;
      const change = writer
        ? `<form method="post"${attrs({ action: base, class: 'inline' })}>${csrfField(s)}<label class="sr-only"${attrs({ for: `dest-${st.id}` })}>New destination for ${esc(assetName(assets, st.asset))}</label><input name="destination" required maxlength="200"${attrs({ id: `dest-${st.id}`, value: st.destination })}><button type="submit">Change</button></form>${buttonForm(s, `${base}/remove`, 'Remove', { confirm: `Stop settling ${assetName(assets, st.asset)} to this merchant?`, className: 'danger' })}`
        : '';
      return `<tr${attrs({ 'data-settlement-id': st.id })}><td data-label="Asset">${named(assetName(assets, st.asset), st.asset)}</td><td data-label="Destination"><code>${esc(st.destination)}</code></td><td data-label="Since">${esc(when(st.createdAt))}</td><td data-label="">${change}</td></tr>`;
    })
    .join('\n');
}

export function merchantPage(
  s: Signed,
  o: { merchant: MerchantRecord; settlements: CryptoSettlementRecord[]; assets: AssetInfo[]; problems?: string[]; notice?: string; values?: MerchantFormValues },
): string {
  const m = o.merchant;
  const writer = can(s.user.role, 'merchants:write');
  const v = o.values ?? valuesOf(m);
  const edit = writer
    ? `<section class="card" aria-labelledby="edit">
<h2 id="edit">Details</h2>
<form method="post"${attrs({ action: `/dashboard/merchants/${m.id}` })} class="stack">
${csrfField(s)}
${merchantFields('edit', v)}
<button type="submit" id="save-merchant">Save</button>
</form>
${buttonForm(s, `/dashboard/merchants/${m.id}/delete`, 'Delete merchant', { confirm: `Delete ${m.name}? Its payments stay readable; no new payment can be made for it.`, className: 'danger' })}
</section>`
    : `<section class="card" aria-labelledby="edit"><h2 id="edit">Details</h2><dl class="facts">
<dt>Email</dt><dd>${esc(m.email ?? '—')}</dd><dt>Logo</dt><dd>${esc(m.iconUrl ?? '—')}</dd>
<dt>Buyer details</dt><dd>${esc(v.collect === 'off' ? 'never asked' : v.collect === 'all' ? 'asked on every payment' : `asked from ${v.collectMinor} (minor units) ${v.collectCurrency}`)}</dd></dl></section>`;
  const add = writer
    ? `<form method="post"${attrs({ action: `/dashboard/merchants/${m.id}/settlements` })} class="stack">
${csrfField(s)}
<label for="st-asset">Asset</label>
<select id="st-asset" name="asset">${o.assets.map((a) => `<option${attrs({ value: a.id })}>${esc(`${a.symbol} on ${a.networkName} (${a.name})`)}</option>`).join('')}</select>
<label for="st-dest">Destination <span class="muted">(CAIP-10 account on the asset's chain)</span></label>
<input id="st-dest" name="destination" required maxlength="200" placeholder="eip155:8453:0x…">
<button type="submit" id="add-settlement">Add settlement</button>
</form>`
    : '';
  return shell(s, {
    title: m.name,
    tab: 'merchants',
    body: `<p><a href="/dashboard/merchants">← All merchants</a> · <code>${esc(m.id)}</code> · <span class="tag${m.status === 'active' ? ' ok' : ''}">${esc(m.status)}</span> · created ${esc(when(m.createdAt))}</p>
${o.notice ? `<p class="notice" role="status">${esc(o.notice)}</p>` : ''}
${problemList(o.problems)}
${edit}
<section class="card wide" aria-labelledby="settlements">
<h2 id="settlements">Crypto settlements</h2>
<p class="muted">Where this merchant is paid, one destination per asset.</p>
${o.settlements.length ? `<table class="list"><thead><tr><th scope="col">Asset</th><th scope="col">Destination</th><th scope="col">Since</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead><tbody>${settlementRows(s, m, o.settlements, writer, o.assets)}</tbody></table>` : '<p>No settlements yet.</p>'}
${add}
</section>`,
  });
}

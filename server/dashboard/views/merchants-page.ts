import { attrs, esc } from '../../pages/html.ts';
import type { MerchantRecord, MerchantStatus } from '../../domain/merchants/records.ts';
import { can } from '../../domain/users/permissions.ts';
import type { Signed } from '../signed.ts';
import { merchantFields, problemList, type MerchantFormValues } from './merchant-form.ts';
import { csrfField, shell, when } from './shell.ts';

const STATUS_OPTIONS: Array<[MerchantStatus | '', string]> = [
  ['', 'Any status'],
  ['active', 'Active'],
  ['inactive', 'Inactive'],
  ['suspended', 'Suspended'],
];

export function merchantsPage(
  s: Signed,
  o: { merchants: MerchantRecord[]; totalCount: number; search: string; status: MerchantStatus | ''; next?: string; problems?: string[]; values?: MerchantFormValues },
): string {
  const writer = can(s.user.role, 'merchants:write');
  const rows = o.merchants
    .map(
      (m) => `<tr${attrs({ 'data-merchant-id': m.id })}>
<td data-label="Name"><a${attrs({ href: `/dashboard/merchants/${m.id}` })}>${esc(m.name)}</a></td>
<td data-label="Email">${esc(m.email ?? '—')}</td>
<td data-label="Status"><span class="tag${m.status === 'active' ? ' ok' : ''}">${esc(m.status)}</span></td>
<td data-label="Created">${esc(when(m.createdAt))}</td>
</tr>`,
    )
    .join('\n');
  const keep = new URLSearchParams({ ...(o.search ? { search: o.search } : {}), ...(o.status ? { status: o.status } : {}) });
  const create = writer
    ? `<section class="card" aria-labelledby="new-merchant">
<h2 id="new-merchant">Add a merchant</h2>
${problemList(o.problems)}
<form method="post" action="/dashboard/merchants" class="stack">
${csrfField(s)}
${merchantFields('new', o.values ?? {})}
<button type="submit" id="create-merchant">Add merchant</button>
</form>
</section>`
    : '<p class="muted">Your role can see merchants but not change them.</p>';
  return shell(s, {
    title: 'Merchants',
    tab: 'merchants',
    body: `${create}
<section class="card wide" aria-labelledby="merchant-list">
<h2 id="merchant-list">Merchants <span class="muted">(${o.totalCount})</span></h2>
<form method="get" action="/dashboard/merchants" class="filters" role="search">
<div class="field"><label for="m-search">Name or email</label><input id="m-search" name="search" maxlength="256"${attrs({ value: o.search })}></div>
<div class="field"><label for="m-status">Status</label><select id="m-status" name="status">${STATUS_OPTIONS.map(([v, l]) => `<option${attrs({ value: v })}${v === o.status ? ' selected' : ''}>${esc(l)}</option>`).join('')}</select></div>
<button type="submit">Filter</button>
</form>
${o.merchants.length ? `<table class="list"><thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Status</th><th scope="col">Created</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>No merchants match.</p>'}
${o.next ? `<p><a${attrs({ href: `/dashboard/merchants?${keep.toString() ? `${keep.toString()}&` : ''}before=${encodeURIComponent(o.next)}` })}>Next page</a></p>` : ''}
</section>`,
  });
}

import { attrs, esc } from '../../pages/html.ts';
import type { AuditEntry } from '../../domain/audit/records.ts';
import type { Signed } from '../signed.ts';
import { shell, whenIn } from './shell.ts';

const detailText = (d: AuditEntry['detail']) =>
  Object.entries(d)
    .map(([k, v]) => `${k}: ${v === null ? '—' : String(v)}`)
    .join(', ');

export function auditPage(s: Signed, o: { entries: AuditEntry[]; next?: string }): string {
  const rows = o.entries
    .map(
      (e) => `<tr${attrs({ 'data-action': e.action })}>
<td data-label="When" class="nowrap">${esc(whenIn(e.at, s.partner.timeZone))}</td>
<td data-label="Who"><span>${esc(e.actor.display)} <span class="muted">(${esc(e.actor.kind === 'api_key' ? 'API key' : 'user')})</span></span></td>
<td data-label="Action"><code>${esc(e.action)}</code></td>
<td data-label="Target"><code>${esc(e.target.id)}</code></td>
<td data-label="Detail">${esc(detailText(e.detail))}</td>
</tr>`,
    )
    .join('\n');
  return shell(s, {
    title: 'Audit log',
    tab: 'audit',
    body: `<section class="card wide" aria-labelledby="log">
<h2 id="log">Who did what</h2>
<p class="muted">Newest first, times in ${esc(s.partner.timeZone ?? 'UTC')}. Entries are kept at least a year.</p>
${o.entries.length ? `<table class="list"><thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">Detail</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>Nothing recorded yet.</p>'}
${o.next ? `<p><a${attrs({ href: `/dashboard/audit?before=${o.next}` })}>Older entries</a></p>` : ''}
</section>`,
  });
}

import { attrs, esc } from '../../pages/html.ts';
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from '../../domain/webhooks/records.ts';
import { WEBHOOK_EVENT_TYPES } from '../../domain/webhooks/event-types.ts';
import { declaresEvent } from '../../domain/payments/wire-versions.ts';
import { can } from '../../domain/users/permissions.ts';
import type { Signed } from '../signed.ts';
import { shownError } from '../../handlers/webhooks.ts';
import { buttonForm, csrfField, shell, whenIn } from './shell.ts';

const base = (e: Pick<WebhookEndpointRecord, 'id'>) => `/dashboard/webhooks/${encodeURIComponent(e.id)}`;
const state = (e: WebhookEndpointRecord) =>
  e.enabled ? '<span class="tag ok">Enabled</span>' : `<span class="tag bad">Disabled${e.disabledReason ? ` (${esc(e.disabledReason)})` : ''}</span>`;

/** The URL field and one checkbox per event type of the account's pinned version, for create and edit alike. */
function endpointFields(version: string, o: { url?: string; events?: readonly string[] }): string {
  const boxes = WEBHOOK_EVENT_TYPES.filter((t) => declaresEvent(t, version))
    .map((t) => `<label class="check"><input type="checkbox" name="events"${attrs({ value: t })}${o.events?.includes(t) ? ' checked' : ''}> ${esc(t)}</label>`)
    .join('\n');
  return `<label for="hook-url">URL (HTTPS)</label>
<input id="hook-url" name="url" type="url" required maxlength="2048" placeholder="https://example.com/webhooks"${attrs({ value: o.url })}>
<fieldset><legend>Events</legend>
${boxes}
</fieldset>`;
}

export function webhooksPage(s: Signed, o: { endpoints: WebhookEndpointRecord[]; error?: string; url?: string; events?: readonly string[]; deleted?: string }): string {
  const writer = can(s.user.role, 'webhooks:write');
  const rows = o.endpoints
    .map(
      (e) => `<tr${attrs({ 'data-endpoint-id': e.id })}>
<td data-label="URL"><a${attrs({ href: base(e) })}>${esc(e.url)}</a></td>
<td data-label="Events">${esc(e.enabledEvents.join(', '))}</td>
<td data-label="Status">${state(e)}</td>
<td data-label="Created">${esc(whenIn(e.createdAt, s.partner.timeZone))}</td>
</tr>`,
    )
    .join('\n');
  const form = writer
    ? `<section class="card" aria-labelledby="new-hook">
<h2 id="new-hook">Add an endpoint</h2>
${o.error ? `<p class="error" role="alert">${esc(o.error)}</p>` : ''}
<form method="post" action="/dashboard/webhooks" class="stack">
${csrfField(s)}
${endpointFields(s.partner.defaultVersion, { ...(o.url !== undefined ? { url: o.url } : {}), events: o.events ?? ['payment.succeeded'] })}
<button type="submit" id="create-endpoint">Add endpoint</button>
</form>
</section>`
    : '<p class="muted">Your role can see webhook endpoints and their deliveries but not change them.</p>';
  return shell(s, {
    title: 'Webhooks',
    tab: 'webhooks',
    body: `${o.deleted ? `<p class="notice" role="status">Endpoint ${esc(o.deleted)} deleted.</p>` : ''}
${form}
<section class="card wide" aria-labelledby="hook-list">
<h2 id="hook-list">Endpoints</h2>
${o.endpoints.length ? `<table class="list"><thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Status</th><th scope="col">Created</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>No endpoints yet.</p>'}
</section>`,
  });
}

/** The signing secret, shown once: after create and after rotate. */
export function secretShownPage(s: Signed, o: { endpoint: WebhookEndpointRecord; rotated: boolean }): string {
  return shell(s, {
    title: o.rotated ? 'Secret rotated' : 'Endpoint added',
    tab: 'webhooks',
    body: `<section class="card" aria-labelledby="secret">
<h2 id="secret">${esc(o.endpoint.url)}</h2>
<p><strong>Copy this signing secret now: it is shown only once.</strong> Verify each delivery's signature with it.${
      o.rotated ? ' Deliveries are signed with the previous secret too until it expires, so receivers can switch over.' : ''
    }</p>
<div class="secret"><code id="new-secret-value">${esc(o.endpoint.secret)}</code><button type="button" data-copy="new-secret-value">Copy</button></div>
<p class="muted" role="status" id="copy-status" aria-live="polite"></p>
<p><a${attrs({ href: base(o.endpoint) })}>Done, see the endpoint</a></p>
</section>`,
  });
}

function deliveryRow(s: Signed, e: WebhookEndpointRecord, d: WebhookDeliveryRecord, writer: boolean): string {
  const attempts = d.attempts.length
    ? `<ol class="attempts">${d.attempts
        .map(
          (a) =>
            `<li>${esc(whenIn(a.at, s.partner.timeZone))}: ${esc(a.statusCode !== null ? `HTTP ${a.statusCode}` : (shownError(a.error) ?? '—'))} <span class="muted">(${esc(a.durationMs)} ms)</span></li>`,
        )
        .join('')}</ol>`
    : '<span class="muted">not attempted yet</span>';
  const redeliver =
    writer && d.eventType !== 'webhook.test' // a test event is not stored, so only sent anew
      ? buttonForm(s, `${base(e)}/deliveries/${encodeURIComponent(d.eventId)}/redeliver`, 'Redeliver', { className: 'link' })
      : '';
  return `<tr${attrs({ 'data-delivery-id': d.id, 'data-status': d.status })}>
<td data-label="Event"><code>${esc(d.eventType)}</code><br><span class="muted">${esc(d.eventId)}</span></td>
<td data-label="Status">${esc(d.status)}${d.lastStatusCode !== null ? ` · HTTP ${esc(d.lastStatusCode)}` : ''}</td>
<td data-label="Attempts">${attempts}</td>
<td data-label="Created">${esc(whenIn(d.createdAt, s.partner.timeZone))}</td>
<td data-label="">${redeliver}</td>
</tr>`;
}

export function endpointPage(s: Signed, o: { endpoint: WebhookEndpointRecord; deliveries: WebhookDeliveryRecord[]; notice?: string; error?: string }): string {
  const e = o.endpoint;
  const writer = can(s.user.role, 'webhooks:write');
  const actions = writer
    ? `<section class="card" aria-labelledby="edit">
<h2 id="edit">Edit</h2>
${o.error ? `<p class="error" role="alert">${esc(o.error)}</p>` : ''}
<form method="post"${attrs({ action: base(e) })} class="stack">
${csrfField(s)}
${endpointFields(s.partner.defaultVersion, { url: e.url, events: e.enabledEvents })}
<button type="submit" id="save-endpoint">Save</button>
</form>
<div class="row">
${buttonForm(s, `${base(e)}/test`, 'Send a test event')}
${buttonForm(s, `${base(e)}/${e.enabled ? 'disable' : 'enable'}`, e.enabled ? 'Disable' : 'Enable')}
${buttonForm(s, `${base(e)}/rotate`, 'Rotate secret', { confirm: 'Rotate the signing secret? The new one is shown once.' })}
${buttonForm(s, `${base(e)}/delete`, 'Delete', { confirm: 'Delete this endpoint? Its deliveries stop.', className: 'danger' })}
</div>
</section>`
    : '';
  const rows = o.deliveries.map((d) => deliveryRow(s, e, d, writer)).join('\n');
  return shell(s, {
    title: 'Webhook endpoint',
    tab: 'webhooks',
    body: `${o.notice ? `<p class="notice" role="status">${esc(o.notice)}</p>` : ''}
<section class="card" aria-labelledby="about">
<h2 id="about">${esc(e.url)}</h2>
<p>${state(e)} · <code>${esc(e.id)}</code> · events: ${esc(e.enabledEvents.join(', '))}</p>
<p><a href="/dashboard/webhooks">All endpoints</a></p>
</section>
${actions}
<section class="card wide" aria-labelledby="log">
<h2 id="log">Deliveries</h2>
<p class="muted">Newest first, the last 50, each with its attempts and the receiver's HTTP status.</p>
${o.deliveries.length ? `<table class="list"><thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Created</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead><tbody>${rows}</tbody></table>` : '<p>No deliveries yet.</p>'}
</section>`,
  });
}

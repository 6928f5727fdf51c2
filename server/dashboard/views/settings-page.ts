import { attrs, esc } from '../../pages/html.ts';
import { newerVersions, VERSION_NOTES } from '../../domain/partners/settings.ts';
import type { Signed } from '../signed.ts';
import { csrfField, shell, whenIn } from './shell.ts';

export function settingsPage(s: Signed, o: { now: Date; notice?: string; error?: string; zone?: string }): string {
  const current = s.partner.defaultVersion;
  const newer = newerVersions(current);
  const upgrade = newer.length
    ? `<form method="post" action="/dashboard/settings/api-version" class="stack" data-confirm="Move this account's pinned API version? Requests without a version header then get the new behaviour, and the pin cannot be moved back.">
${csrfField(s)}
<label for="version">Upgrade to</label>
<select id="version" name="version">${newer.map((v) => `<option${attrs({ value: v })}>${esc(v)}</option>`).join('')}</select>
<dl class="notes">${newer.map((v) => `<dt>${esc(v)}</dt><dd>${esc(VERSION_NOTES[v] ?? '')}</dd>`).join('')}</dl>
<button type="submit" id="upgrade-version">Upgrade</button>
</form>`
    : '<p>This is the newest version.</p>';
  return shell(s, {
    title: 'Settings',
    tab: 'settings',
    body: `${o.notice ? `<p class="notice" role="status">${esc(o.notice)}</p>` : ''}
${o.error ? `<p class="error" role="alert">${esc(o.error)}</p>` : ''}
<section class="card" aria-labelledby="api-version">
<h2 id="api-version">API version</h2>
<p>Pinned: <code id="pinned-version">${esc(current)}</code>. ${esc(VERSION_NOTES[current] ?? '')}</p>
<p class="muted">Requests without a <code>Svc-Version</code> header run under the pinned version; a request may ask for a newer one, never an older one. API processes pick up a new pin within a second.</p>
${upgrade}
</section>
<section class="card" aria-labelledby="time-zone">
<h2 id="time-zone">Time zone</h2>
<p>Dashboard times are shown in <strong>${esc(s.partner.timeZone ?? 'UTC')}</strong>: now ${esc(whenIn(o.now, s.partner.timeZone))}.</p>
<form method="post" action="/dashboard/settings/time-zone" class="stack">
${csrfField(s)}
<label for="zone">IANA time zone</label>
<input id="zone" name="timeZone" required maxlength="64" placeholder="Europe/Berlin"${attrs({ value: o.zone ?? s.partner.timeZone ?? 'UTC' })}>
<button type="submit" id="save-zone">Save time zone</button>
</form>
</section>`,
  });
}

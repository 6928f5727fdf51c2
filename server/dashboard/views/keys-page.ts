import { attrs, esc } from '../../pages/html.ts';
import type { ApiKeyRecord, KeyScope } from '../../domain/partners/records.ts';
import { can, keyPermissionsOf } from '../../domain/users/permissions.ts';
import type { Signed } from '../signed.ts';
import { buttonForm, csrfField, shell, whenIn } from './shell.ts';

const TYPE: Record<KeyScope, string> = { partner: 'Partner key', wallet: 'Wallet key', app: 'App-Id (public)' };
const prefix = (scope: KeyScope, live: boolean) => (scope === 'partner' ? (live ? 'sk_live_' : 'sk_test_') : scope === 'wallet' ? 'wk_' : 'app_');

function createForm(s: Signed, o: { error?: string; name?: string }): string {
  return `<section class="card" aria-labelledby="new-key">
<h2 id="new-key">Create a key</h2>
${o.error ? `<p class="error" role="alert">${esc(o.error)}</p>` : ''}
<form method="post" action="/dashboard/keys" class="stack">
${csrfField(s)}
<label for="key-name">Name</label>
<input id="key-name" name="name" required maxlength="80" placeholder="e.g. Production checkout"${attrs({ value: o.name })}>
<label for="key-scope">Type</label>
<select id="key-scope" name="scope">
<option value="partner">Partner key: merchants, payments, webhooks (secret)</option>
<option value="wallet">Wallet key: gateway operations (secret)</option>
<option value="app">App-Id: gateway operations from a wallet app (public)</option>
</select>
<fieldset><legend>A partner key may (your role's permissions)</legend>
${keyPermissionsOf(s.user.role)
  .map((p) => `<label><input type="checkbox" name="permissions"${attrs({ value: p })} checked> ${esc(p)}</label>`)
  .join('\n')}
</fieldset>
<button type="submit" id="create-key">Create key</button>
</form>
</section>`;
}

/** An App-Id's origins, and for writers a form to change them (one a line; empty: any origin). */
function originsCell(s: Signed, k: ApiKeyRecord, writer: boolean, problem: string | undefined): string {
  if (k.scope !== 'app') return '';
  const list = k.allowedOrigins?.length ? k.allowedOrigins.map((o) => `<code>${esc(o)}</code>`).join(' ') : '<span class="muted">any origin</span>';
  const fieldId = `origins-${k.id}`;
  const form =
    writer && !k.revokedAt
      ? `<details${problem ? ' open' : ''}><summary>Edit origins</summary>
<form method="post"${attrs({ action: `/dashboard/keys/${encodeURIComponent(k.id)}/origins` })} class="stack">
${csrfField(s)}
${problem ? `<p class="error" role="alert">${esc(problem)}</p>` : ''}
<label${attrs({ for: fieldId })}>Allowed web origins, one a line (https://host[:port]); empty: any</label>
<textarea${attrs({ id: fieldId })} name="origins" rows="3">${esc((k.allowedOrigins ?? []).join('\n'))}</textarea>
<button type="submit">Save origins</button>
</form></details>`
      : '';
  return `<div class="origins" data-origins>Origins: ${list}</div>${form}`;
}

export function keysPage(
  s: Signed,
  o: { keys: ApiKeyRecord[]; live: boolean; keyTrustMs: number; revoked?: string; error?: string; name?: string; originsError?: { keyId: string; problem: string } },
): string {
  const writer = can(s.user.role, 'keys:write');
  const delay = `at once on this server, and within ${o.keyTrustMs <= 1000 ? 'a second' : `${Math.ceil(o.keyTrustMs / 1000)} seconds`} on any other`;
  const rows = o.keys
    .map((k) => {
      const status = k.revokedAt ? `<span class="tag bad">Revoked ${esc(whenIn(k.revokedAt, s.partner.timeZone))}</span>` : '<span class="tag ok">Active</span>';
      const action =
        writer && !k.revokedAt
          ? buttonForm(s, `/dashboard/keys/${encodeURIComponent(k.id)}/revoke`, 'Revoke', {
              confirm: `Revoke "${k.name ?? k.id}"? Requests with it will be refused.`,
              className: 'danger',
            })
          : '';
      return `<tr${attrs({ 'data-key-id': k.id })}>
<td data-label="Name">${esc(k.name ?? '(unnamed)')}</td>
<td data-label="Type">${esc(TYPE[k.scope])}${k.permissions ? ` <small data-permissions>(${esc(k.permissions.join(', ') || 'nothing')})</small>` : ''}${originsCell(s, k, writer, o.originsError?.keyId === k.id ? o.originsError.problem : undefined)}</td>
<td data-label="Key"><code>${esc(prefix(k.scope, o.live))}…${esc(k.hint)}</code></td>
<td data-label="Created">${esc(whenIn(k.createdAt, s.partner.timeZone))}</td>
<td data-label="Last used">${esc(k.lastUsedAt ? whenIn(k.lastUsedAt, s.partner.timeZone) : 'never')}</td>
<td data-label="Status">${status}</td>
<td data-label="">${action}</td>
</tr>`;
    })
    .join('\n');
  return shell(s, {
    title: 'API keys',
    tab: 'keys',
    body: `${o.revoked ? `<p class="notice" role="status">Key ${esc(o.revoked)} revoked. The API refuses it ${esc(delay)}.</p>` : ''}
${writer ? createForm(s, o) : '<p class="muted">Your role can see keys but not create or revoke them.</p>'}
<section class="card wide" aria-labelledby="key-list">
<h2 id="key-list">Keys</h2>
<p class="muted">Only the last characters of each key are kept; a lost key cannot be shown again, only revoked and replaced. "Last used" is to the minute. An App-Id with origins is refused to web pages on any other origin; native apps (which send no Origin) are not limited.</p>
${o.keys.length ? `<table class="list"><thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead><tbody>${rows}</tbody></table>` : '<p>No keys yet.</p>'}
</section>`,
  });
}

export function keyCreatedPage(s: Signed, o: { record: ApiKeyRecord; apiKey: string }): string {
  return shell(s, {
    title: 'Key created',
    tab: 'keys',
    body: `<section class="card" aria-labelledby="created">
<h2 id="created">${esc(o.record.name ?? 'New key')} · ${esc(TYPE[o.record.scope])}</h2>
<p><strong>Copy this key now: it is shown only once.</strong> Store it in a secret manager; anyone holding it can act for this account.</p>
<div class="secret"><code id="new-key-value">${esc(o.apiKey)}</code><button type="button" data-copy="new-key-value">Copy</button></div>
<p class="muted" role="status" id="copy-status" aria-live="polite"></p>
<p><a href="/dashboard/keys">Done, back to the keys</a></p>
</section>`,
  });
}

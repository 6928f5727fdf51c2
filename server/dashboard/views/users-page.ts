import { attrs, esc } from '../../pages/html.ts';
import { ROLES, type Role, type UserRecord } from '../../domain/users/records.ts';
import type { Signed } from '../signed.ts';
import { buttonForm, csrfField, shell, whenIn } from './shell.ts';

const ROLE_TEXT: Record<Role, string> = { owner: 'Owner: everything', developer: 'Developer: keys and reading', viewer: 'Viewer: read only' };

const roleOptions = (selected?: Role) => ROLES.map((r) => `<option${attrs({ value: r })}${r === selected ? ' selected' : ''}>${esc(ROLE_TEXT[r])}</option>`).join('');

export function usersPage(s: Signed, o: { users: UserRecord[]; error?: string }): string {
  const rows = o.users
    .map((u) => {
      const self = u.id === s.user.id;
      const controls = self
        ? '<span class="muted">you</span>'
        : `<form method="post"${attrs({ action: `/dashboard/users/${encodeURIComponent(u.id)}/role`, class: 'inline' })}>${csrfField(s)}<label class="sr-only"${attrs({ for: `role-${u.id}` })}>Role of ${esc(u.email)}</label><select name="role"${attrs({ id: `role-${u.id}` })}>${roleOptions(u.role)}</select><button type="submit">Change</button></form>${buttonForm(s, `/dashboard/users/${encodeURIComponent(u.id)}/remove`, 'Remove', { confirm: `Remove ${u.email}? They are signed out at once.`, className: 'danger' })}`;
      const temporary = u.passwordExpiresAt
        ? `<br><span class="muted" data-temporary>temporary password until ${esc(whenIn(u.passwordExpiresAt, s.partner.timeZone))}: invite again for a new one</span>`
        : '';
      return `<tr><td data-label="Email">${esc(u.email)}${temporary}</td><td data-label="Role">${esc(u.role)}</td><td data-label="Since">${esc(whenIn(u.createdAt, s.partner.timeZone))}</td><td data-label="">${controls}</td></tr>`;
    })
    .join('\n');
  return shell(s, {
    title: 'Users',
    tab: 'users',
    body: `${o.error ? `<p class="error" role="alert">${esc(o.error)}</p>` : ''}
<section class="card" aria-labelledby="invite">
<h2 id="invite">Invite a user</h2>
<p class="muted">They get a temporary password, shown to you once, to hand over in person or through your password manager. It expires, and they choose their own at their first sign-in.</p>
<form method="post" action="/dashboard/users" class="stack">
${csrfField(s)}
<label for="invite-email">Email</label>
<input id="invite-email" name="email" type="email" required maxlength="254">
<label for="invite-role">Role</label>
<select id="invite-role" name="role">${roleOptions('viewer')}</select>
<button type="submit">Invite</button>
</form>
</section>
<section class="card wide" aria-labelledby="user-list">
<h2 id="user-list">Users of ${esc(s.partner.name)}</h2>
<table class="list"><thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Since</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead><tbody>${rows}</tbody></table>
</section>`,
  });
}

export function invitedPage(s: Signed, o: { user: UserRecord; password: string }): string {
  return shell(s, {
    title: 'User invited',
    tab: 'users',
    body: `<section class="card" aria-labelledby="invited">
<h2 id="invited">${esc(o.user.email)} · ${esc(o.user.role)}</h2>
<p><strong>Temporary password, shown only once:</strong></p>
<div class="secret"><code id="temp-password">${esc(o.password)}</code><button type="button" data-copy="temp-password">Copy</button></div>
${o.user.passwordExpiresAt ? `<p class="muted" id="temp-password-ends">It works until ${esc(o.user.passwordExpiresAt.toISOString().replace('T', ' ').slice(0, 16))} UTC, and they choose their own at their first sign-in.</p>` : ''}
<p class="muted" role="status" id="copy-status" aria-live="polite"></p>
<p><a href="/dashboard/users">Back to the users</a></p>
</section>`,
  });
}

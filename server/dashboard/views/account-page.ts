import { esc } from '../../pages/html.ts';
import type { Signed } from '../signed.ts';
import { csrfField, shell } from './shell.ts';

export function accountPage(s: Signed, o: { error?: string; notice?: string }): string {
  const until = s.user.passwordExpiresAt;
  const temporary = until
    ? `<p class="notice" role="status" id="temporary-password">You signed in with a temporary password. Choose your own before anything else; the temporary one ends ${esc(until.toISOString().replace('T', ' ').slice(0, 16))} UTC.</p>`
    : '';
  return shell(s, {
    title: 'Your account',
    tab: 'account',
    body: `${temporary}${o.error ? `<p class="error" role="alert">${esc(o.error)}</p>` : ''}${o.notice ? `<p class="notice" role="status">${esc(o.notice)}</p>` : ''}
<section class="card" aria-labelledby="password">
<h2 id="password">Change your password</h2>
<p class="muted">At least 12 characters. Your other sessions are signed out.</p>
<form method="post" action="/dashboard/account/password" class="stack">
${csrfField(s)}
<input type="text" name="username" autocomplete="username" value="${esc(s.user.email)}" hidden>
<label for="current">Current password</label>
<input id="current" name="current" type="password" autocomplete="current-password" required maxlength="256">
<label for="next">New password</label>
<input id="next" name="next" type="password" autocomplete="new-password" required minlength="12" maxlength="256">
<button type="submit">Change password</button>
</form>
</section>`,
  });
}

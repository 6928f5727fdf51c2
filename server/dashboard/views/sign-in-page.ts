import { attrs, esc } from '../../pages/html.ts';
import { bare } from './shell.ts';

export function signInPage(o: { token: string; email?: string; error?: string }): string {
  return bare(
    'Sign in',
    `<div class="card">
<h1>Sign in</h1>
<p class="muted">Partner dashboard</p>
${o.error ? `<p class="error" role="alert">${esc(o.error)}</p>` : ''}
<form method="post" action="/dashboard/sign-in" class="stack">
<input type="hidden" name="_csrf"${attrs({ value: o.token })}>
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254"${attrs({ value: o.email })}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256">
<button type="submit">Sign in</button>
</form>
</div>`,
  );
}

/**
 * The same address and password open accounts at several partners: one button per partner, each
 * posting the sign-in again with that partner. The password travels back in the form (this page is
 * not stored, as every dashboard page): keeping it server-side would be a pre-session to guard.
 */
export function chooseAccountPage(o: { token: string; email: string; password: string; partners: Array<{ id: string; name: string }> }): string {
  const forms = o.partners
    .map(
      (p) => `<form method="post" action="/dashboard/sign-in">
<input type="hidden" name="_csrf"${attrs({ value: o.token })}>
<input type="hidden" name="email"${attrs({ value: o.email })}>
<input type="hidden" name="password"${attrs({ value: o.password })}>
<input type="hidden" name="partner"${attrs({ value: p.id })}>
<button type="submit" data-partner="${esc(p.id)}">${esc(p.name)}</button>
</form>`,
    )
    .join('\n');
  return bare(
    'Choose a partner',
    `<div class="card">
<h1>Choose a partner</h1>
<p class="muted">${esc(o.email)} has an account at each of these partners.</p>
<div class="stack">
${forms}
</div>
</div>`,
  );
}

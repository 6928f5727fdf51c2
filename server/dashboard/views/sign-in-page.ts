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

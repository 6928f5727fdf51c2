import type { Response } from 'express';
import { attrs, esc, layout } from '../../pages/html.ts';
import { setPageHeaders } from '../../pages/page-csp.ts';
import { can } from '../../domain/users/permissions.ts';
import type { Signed } from '../signed.ts';

export const ASSETS = '/dashboard/_assets';

/** A hidden CSRF field for a signed-in form. */
export const csrfField = (s: Signed) => `<input type="hidden" name="_csrf"${attrs({ value: s.session.csrfToken })}>`;

/** A POST form of one button (revoke, remove, sign out), with its CSRF field and an optional confirmation. */
export function buttonForm(s: Signed, action: string, label: string, opts: { confirm?: string; className?: string } = {}): string {
  return `<form method="post"${attrs({ action, class: 'inline', 'data-confirm': opts.confirm })}>${csrfField(s)}<button type="submit"${attrs({ class: opts.className })}>${esc(label)}</button></form>`;
}

/** UTC, to the minute: what a log reader compares across people in different zones. */
export const when = (d: Date | null | undefined) => (d ? `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC` : '—');

/** In the partner's display time zone (settings), to the minute, named; UTC when none is set. */
export function whenIn(d: Date | null | undefined, zone: string | undefined): string {
  if (!d || !zone) return when(d);
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(d);
  const v = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${v('year')}-${v('month')}-${v('day')} ${v('hour')}:${v('minute')} ${zone}`;
}

type Tab = 'keys' | 'merchants' | 'payments' | 'webhooks' | 'users' | 'audit' | 'settings' | 'account';

/** Sends a page: the buyer pages' strict CSP (scripts and styles from 'self' only, no framing), never cached. */
export function sendPage(res: Response, status: number, html: string): void {
  setPageHeaders(res);
  res.status(status).send(html);
}

/** A signed-in page: header with the partner, the tabs this role may open, and the sign-out forms. */
export function shell(s: Signed, o: { title: string; tab: Tab; body: string }): string {
  const tabs: Array<[Tab, string, boolean]> = [
    ['keys', 'API keys', true],
    ['merchants', 'Merchants', true],
    ['payments', 'Payments', true],
    ['webhooks', 'Webhooks', true],
    ['users', 'Users', can(s.user.role, 'users:manage')],
    ['audit', 'Audit log', can(s.user.role, 'audit:read')],
    ['settings', 'Settings', can(s.user.role, 'settings:manage')],
    ['account', 'Your account', true],
  ];
  const nav = tabs
    .filter(([, , shown]) => shown)
    .map(([tab, label]) => `<a href="/dashboard/${tab}"${tab === o.tab ? ' aria-current="page"' : ''}>${esc(label)}</a>`)
    .join('');
  return layout({
    title: `${o.title} · ${s.partner.name} · Dashboard`,
    styles: [`${ASSETS}/dashboard.css`],
    scripts: [`${ASSETS}/dashboard.js`],
    body: `${s.sandbox ? '<p class="sandbox-mark" role="note"><strong>Sandbox</strong> · test keys and sandbox chains: no real money moves here</p>\n' : ''}<header class="top">
<div class="who"><strong>${esc(s.partner.name)}</strong><span class="muted">${esc(s.user.email)} · ${esc(s.user.role)}</span></div>
<nav aria-label="Dashboard">${nav}</nav>
<div class="out">${buttonForm(s, '/dashboard/sign-out', 'Sign out', { className: 'link' })}${buttonForm(s, '/dashboard/sign-out-everywhere', 'Sign out everywhere', { className: 'link' })}</div>
</header>
<main id="main">
<h1>${esc(o.title)}</h1>
${o.body}
</main>`,
  });
}

/** A page outside the signed-in shell (sign-in, errors). */
export function bare(title: string, body: string): string {
  return layout({ title: `${title} · Dashboard`, styles: [`${ASSETS}/dashboard.css`], scripts: [`${ASSETS}/dashboard.js`], body: `<main id="main" class="narrow">${body}</main>` });
}

import { attrs, esc } from '../../pages/html.ts';
import { newerVersions, VERSION_NOTES } from '../../domain/partners/settings.ts';
import type { Signed } from '../signed.ts';
import { csrfField, shell, whenIn } from './shell.ts';

/** The partner's spending from the shared fee accounts over the budget period, per chain. */
export interface FeeSpendingView {
  periodS: number;
  chains: Array<{ chain: string; amount: bigint; transactions: number; budget: bigint }>;
}

/** Native base units as a decimal of the coin (18 places on EVM chains, 9 on Solana). */
function nativeAmount(chain: string, amount: bigint): string {
  const places = chain.startsWith('solana:') ? 9 : 18;
  const whole = amount / 10n ** BigInt(places);
  const fraction = (amount % 10n ** BigInt(places)).toString().padStart(places, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole.toString();
}

function feeSection(fees: FeeSpendingView): string {
  const hours = fees.periodS % 3600 === 0 ? `${fees.periodS / 3600} h` : `${fees.periodS} s`;
  const rows = fees.chains
    .map(
      (c) =>
        `<tr><td data-label="Chain"><code>${esc(c.chain)}</code></td><td data-label="Transactions">${c.transactions}</td><td data-label="Spent">${esc(nativeAmount(c.chain, c.amount))}</td><td data-label="Budget">${esc(nativeAmount(c.chain, c.budget))}</td><td data-label="Gasless">${c.amount >= c.budget ? '<strong>paused</strong>' : 'offered'}</td></tr>`,
    )
    .join('');
  return `<section class="card" aria-labelledby="fee-spending">
<h2 id="fee-spending">Network fees paid for your payments</h2>
<p class="muted">The service pays the gas of gasless payments (EIP-3009, Permit2) and the Solana network fee from accounts shared by every partner. Over the last ${esc(hours)}, your payments' share on each chain, in the chain's native coin, against your budget: past it, buyers are offered only payments where they pay the fee themselves until older spending leaves the period.</p>
${rows ? `<table id="fee-spending-table"><thead><tr><th>Chain</th><th>Transactions</th><th>Spent</th><th>Budget</th><th>Gasless</th></tr></thead><tbody>${rows}</tbody></table>` : '<p id="fee-spending-none">Nothing spent in this period.</p>'}
</section>`;
}

export function settingsPage(s: Signed, o: { now: Date; notice?: string; error?: string; zone?: string; fees?: FeeSpendingView }): string {
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
</section>
${o.fees ? feeSection(o.fees) : ''}`,
  });
}

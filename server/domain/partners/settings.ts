import { API_VERSIONS, type ApiVersion } from '../vocabulary.ts';
import type { StoragePort } from '../../ports/storage/index.ts';
import type { PartnerRecord } from './records.ts';

/**
 * What a partner moving its pin to a version gains or must handle, per version (the spec's
 * `@added` changes; docs/partner-integration.md "API versions"). A version missing here fails typecheck.
 */
export const VERSION_NOTES: Readonly<Record<string, string>> = {
  '2026-02-18': 'The stable version: payments, merchants, settlements, refunds, webhooks.',
  '2026-02-19.preview':
    'Adds checkout: {successUrl, errorUrl} on payment creation (the payment page sends the buyer there once final), and lists a cancelled payment as cancelled (before, it listed as expired with a cancelledAt).',
  '2026-11-27':
    "Everything of the preview, and: a succeeded payment says where it stands against its chain's finality (finality: pending, final or reversed) on its details, list items and status, and webhook endpoints may subscribe to payment.reversed (a reorg took the paying transaction off the chain and it could not be sent again).",
  '2026-11-28':
    'Everything of 2026-11-27, and: a payment paid again after it succeeded (a second transfer reached the merchant) lists those transactions in extraPayments on its details, and webhook endpoints may subscribe to payment.paid_twice.',
} satisfies Record<ApiVersion, string>;

/** The versions a partner pinned to `current` may move to: newer ones only, as a request may. */
export function newerVersions(current: string): string[] {
  const at = (API_VERSIONS as readonly string[]).indexOf(current);
  return API_VERSIONS.slice(at + 1);
}

/** An IANA time zone name this runtime knows (Intl refuses any other), as it spells it. */
export function canonicalTimeZone(name: string): string | null {
  if (!name || name.length > 64) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

export type SettingsResult = { ok: true; partner: PartnerRecord } | { ok: false; problem: string };

/** Moves the partner's pin forward; never back (requests already rely on what the pin gives). */
export async function upgradeApiVersion(storage: StoragePort, partner: PartnerRecord, version: string): Promise<SettingsResult> {
  if (!newerVersions(partner.defaultVersion).includes(version)) return { ok: false, problem: `Choose a version newer than ${partner.defaultVersion}.` };
  const updated = await storage.partners.updateSettings(partner.id, { defaultVersion: version });
  return updated ? { ok: true, partner: updated } : { ok: false, problem: 'This account no longer exists.' };
}

export async function setTimeZone(storage: StoragePort, partner: PartnerRecord, name: string): Promise<SettingsResult> {
  const zone = canonicalTimeZone(name.trim());
  if (!zone) return { ok: false, problem: 'Give an IANA time zone name, such as Europe/Berlin or America/New_York.' };
  const updated = await storage.partners.updateSettings(partner.id, { timeZone: zone === 'UTC' ? null : zone });
  return updated ? { ok: true, partner: updated } : { ok: false, problem: 'This account no longer exists.' };
}

import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** Secrets are `whsec_` + base64 of 24 random bytes: the Standard Webhooks format receivers expect. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * The three Standard Webhooks headers for one attempt. Each secret signs (`v1,<base64>`); during
 * a rotation's overlap the new and the old one both do, space-separated, so a receiver still
 * holding the old secret keeps verifying.
 */
export function signedHeaders(msgId: string, timestampMs: number, body: string, secrets: string[]): Record<string, string> {
  const at = new Date(Math.floor(timestampMs / 1000) * 1000);
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(timestampMs / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(msgId, at, body)).join(' '),
  };
}

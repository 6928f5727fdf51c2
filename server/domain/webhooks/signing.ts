import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

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
  const seconds = String(Math.floor(timestampMs / 1000));
  return {
    'webhook-id': msgId,
    'webhook-timestamp': seconds,
    'webhook-signature': secrets.map((s) => `v1,${createHmac('sha256', secretKey(s)).update(`${msgId}.${seconds}.${body}`).digest('base64')}`).join(' '),
  };
}

/**
 * The HMAC key of a secret as the Standard Webhooks libraries read it: the base64 after `whsec_`.
 * Signed with node:crypto rather than the `standardwebhooks` package, whose HMAC is SHA-256 in
 * JavaScript: the same bytes (signing.test.ts checks them against the package), a fraction of the
 * CPU per delivery.
 */
function secretKey(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= MAX_CACHED_KEYS) keys.clear();
    key = createSecretKey(Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64'));
    keys.set(secret, key);
  }
  return key;
}

/**
 * KeyObjects by secret: createHmac with a Buffer key spends more CPU checking whether it is a
 * KeyObject (an exception per call in node:crypto) than hashing a webhook body; a KeyObject is
 * taken as is. Bounded (cleared when full) so rotated-away secrets do not accumulate.
 */
const keys = new Map<string, KeyObject>();
const MAX_CACHED_KEYS = 4096;

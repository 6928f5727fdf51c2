/**
 * Verifying webhook deliveries (Standard Webhooks): `webhook-signature` holds one or more
 * space-separated `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`; during a secret rotation the
 * service sends two, and any one that matches is enough. Web Crypto only, so it runs in Node.js,
 * Deno, Bun, browsers and edge runtimes alike.
 */

/** What a verified delivery carries. */
export interface WebhookEvent<T = unknown> {
  /** `evt_…`: equal to the `webhook-id` header; the same on every retry, so deduplicate on it. */
  id: string;
  type: string;
  api_version: string;
  created_at: string;
  data: T;
}

/** The delivery is not authentic, or too old to accept. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** Signatures older or newer than this are refused, so a captured delivery cannot be replayed later. */
const TOLERANCE_S = 5 * 60;

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string {
  const v = headers instanceof Headers ? headers.get(name) : (headers[name] ?? headers[name.toLowerCase()]);
  const value = Array.isArray(v) ? v[0] : v;
  if (!value) throw new WebhookVerificationError(`missing ${name} header`);
  return value;
}

function base64ToBytes(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * Checks a delivery and answers its parsed event. Pass the body exactly as received (before any
 * JSON parsing), the request's headers, and the endpoint's `whsec_…` secret. Throws
 * {@link WebhookVerificationError} when no signature matches or the timestamp is off by more than
 * five minutes.
 */
export async function verifyWebhook<T = unknown>(headers: HeaderSource, rawBody: string | Uint8Array, secret: string, now: Date = new Date()): Promise<WebhookEvent<T>> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  const ts = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || Math.abs(now.getTime() / 1000 - ts) > TOLERANCE_S) throw new WebhookVerificationError('timestamp too old or too new');
  let keyBytes: Uint8Array<ArrayBuffer>;
  try {
    keyBytes = base64ToBytes(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret);
  } catch {
    throw new WebhookVerificationError('the secret is not a whsec_ base64 secret');
  }
  const body = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  const key = await crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const signed = new TextEncoder().encode(`${id}.${timestamp}.${body}`);
  for (const part of signatures.split(' ')) {
    const [version, sig] = part.split(',', 2);
    if (version !== 'v1' || !sig) continue;
    let mac: Uint8Array<ArrayBuffer>;
    try {
      mac = base64ToBytes(sig);
    } catch {
      continue;
    }
    // subtle.verify compares in constant time.
    if (await crypto.subtle.verify('HMAC', key, mac, signed)) return JSON.parse(body) as WebhookEvent<T>;
  }
  throw new WebhookVerificationError('no matching signature');
}

import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The data-collection page's capability: a token naming one payment and one option, signed with
 * the service's secret and expiring with the option's quote. Whoever holds it can fill that one
 * form and read nothing else, so no other payment is reachable from it.
 */
export interface CollectScope {
  paymentId: string;
  optionId: string;
  /** Unix seconds. */
  exp: number;
}

const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64url');
const mac = (secret: string, body: string) => createHmac('sha256', secret).update(`collect-data.v1.${body}`).digest();

export function signCollectToken(secret: string, scope: CollectScope): string {
  const body = b64(JSON.stringify([scope.paymentId, scope.optionId, scope.exp]));
  return `${body}.${b64(mac(secret, body))}`;
}

/** The scope of a genuine, unexpired token; null for anything else (tampered, expired, malformed). */
export function verifyCollectToken(secret: string, token: string, nowMs: number): CollectScope | null {
  const [body, sig, extra] = token.split('.');
  if (!body || !sig || extra !== undefined || token.length > 600) return null;
  const expected = mac(secret, body);
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const [paymentId, optionId, exp] = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown[];
    if (typeof paymentId !== 'string' || typeof optionId !== 'string' || typeof exp !== 'number') return null;
    return exp * 1000 > nowMs ? { paymentId, optionId, exp } : null;
  } catch {
    return null;
  }
}

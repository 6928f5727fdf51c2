import { hash, randomBytes } from 'node:crypto';
import type { KeyScope } from '../domain/partners/records.ts';

/**
 * API key formats. Partner keys are `sk_test_…` in sandbox mode and `sk_live_…` in production,
 * so a key pasted into the wrong environment is recognisable; wallet keys are `wk_…`; public
 * wallet app ids are `app_…`.
 * Only the SHA-256 of a key is stored.
 */
export function generateApiKey(scope: KeyScope, live: boolean): string {
  const secret = randomBytes(24).toString('base64url');
  if (scope === 'app') return `app_${secret}`;
  return scope === 'wallet' ? `wk_${secret}` : `sk_${live ? 'live' : 'test'}_${secret}`;
}

/** SHA-256 of the key, hex. Every request hashes its key: the one-shot `hash` is about twice as fast as a Hash object. */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** Last characters of a key, enough to tell keys apart in a listing and useless to an attacker. */
export function keyHint(key: string): string {
  return key.slice(-4);
}

export const looksLikeApiKey = (s: string) => /^(sk_(live|test)|wk|app)_[A-Za-z0-9_-]{16,128}$/.test(s);

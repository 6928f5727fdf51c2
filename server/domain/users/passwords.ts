import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashing with scrypt (node:crypto, no native dependency). Each hash carries its own salt
 * and cost parameters, so the cost can be raised later without invalidating stored hashes.
 * N = 2^15, r = 8, p = 1 (OWASP's scrypt minimum is N = 2^17 with r = 8, p = 1 or an equivalent;
 * 2^15 with 32 MiB keeps a sign-in near 100 ms on a small server; raise `COST` when hardware allows).
 */
const COST = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LEN = 32;

function derive(password: string, salt: Buffer, o: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { N: o.N, r: o.r, p: o.p, maxmem: 256 * o.N * o.r + 1024 * 1024 };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFKC'), salt, KEY_LEN, options, (err, key) => (err ? reject(err) : resolve(key))));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return `scrypt$${COST.N}$${COST.r}$${COST.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** Whether `password` matches `stored`; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = /^scrypt\$(\d{1,8})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9_-]{16,64})\$([A-Za-z0-9_-]{40,90})$/.exec(stored);
  if (!m) return false;
  const [N, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // Parameters come from our own column, but a tampered row must not make one sign-in cost minutes.
  if (N > 2 ** 20 || r > 32 || p > 16 || (N & (N - 1)) !== 0) return false;
  const expected = Buffer.from(m[5]!, 'base64url');
  const key = await derive(password, Buffer.from(m[4]!, 'base64url'), { N, r, p });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * A hash no password matches, verified against when the email is unknown: the answer takes as
 * long as for a real account, so timing does not tell which emails have one.
 */
export const DUMMY_HASH = `scrypt$${COST.N}$${COST.r}$${COST.p}$${'A'.repeat(22)}$${'A'.repeat(43)}`;

const COMMON = new Set(['password', 'password1', 'passw0rd', '123456789012', 'qwertyuiop', 'letmein', 'iloveyou', 'administrator', 'changeme', 'welcome']);

/** Why a new password is refused, or null. Length over composition rules (NIST SP 800-63B). */
export function passwordProblem(password: string): string | null {
  if (password.length < 12) return 'The password must be at least 12 characters long.';
  if (password.length > 256) return 'The password must be at most 256 characters long.';
  if (new Set(password).size < 5) return 'The password repeats too few different characters.';
  if (COMMON.has(password.toLowerCase().replace(/\d+$/, '')) || COMMON.has(password.toLowerCase())) return 'The password is too common.';
  return null;
}

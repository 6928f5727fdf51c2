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

/**
 * A hash no password matches, verified against when the email is unknown: the answer takes as
 * long as for a real account, so timing does not tell which emails have one.
 */
export const DUMMY_HASH = `scrypt$${COST.N}$${COST.r}$${COST.p}$${'A'.repeat(22)}$${'A'.repeat(43)}`;

interface ParsedHash {
  N: number;
  r: number;
  p: number;
  salt: string;
  key: Buffer;
}

function parseHash(stored: string): ParsedHash | undefined {
  const m = /^scrypt\$(\d{1,8})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9_-]{16,64})\$([A-Za-z0-9_-]{40,90})$/.exec(stored);
  if (!m) return undefined;
  const [N, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // Parameters come from our own column, but a tampered row must not make one sign-in cost minutes.
  if (N > 2 ** 20 || r > 32 || p > 16 || (N & (N - 1)) !== 0) return undefined;
  return { N, r, p, salt: m[4]!, key: Buffer.from(m[5]!, 'base64url') };
}

/**
 * A new hash of `password`. `saltOf`: an existing hash whose salt to reuse. The accounts one email
 * has at several partners share their salt, so sign-in derives one key for all of them and takes
 * the same time whether the address has one account or several (issue 30 item 5: no enumeration
 * across partners by timing). The salt stays random per address; what sharing gives away is only
 * that the same person used the same password at two partners, to whoever reads the table.
 */
export async function hashPassword(password: string, opts: { saltOf?: string | undefined } = {}): Promise<string> {
  const shared = opts.saltOf ? parseHash(opts.saltOf) : undefined;
  const salt = shared && shared.N === COST.N && shared.r === COST.r && shared.p === COST.p ? Buffer.from(shared.salt, 'base64url') : randomBytes(16);
  const key = await derive(password, salt, COST);
  return `scrypt$${COST.N}$${COST.r}$${COST.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** Whether `password` matches `stored`; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  return (await verifyPasswordAmong(password, [stored]))[0]!;
}

/**
 * Which of `stored` the password matches, deriving one key per distinct salt and cost (one, for the
 * accounts of one address: hashPassword's `saltOf`). With nothing to check it still derives once
 * against DUMMY_HASH, so an unknown address costs what a known one does.
 */
export async function verifyPasswordAmong(password: string, stored: readonly string[]): Promise<boolean[]> {
  const parsed = stored.map(parseHash);
  const derived = new Map<string, Promise<Buffer>>();
  const keyFor = (h: ParsedHash) => {
    const group = `${h.N}$${h.r}$${h.p}$${h.salt}`;
    let key = derived.get(group);
    if (!key) derived.set(group, (key = derive(password, Buffer.from(h.salt, 'base64url'), h)));
    return key;
  };
  const results = await Promise.all(parsed.map(async (h) => (h ? matches(await keyFor(h), h.key) : false)));
  if (!derived.size) await keyFor(parseHash(DUMMY_HASH)!);
  return results;
}

const matches = (key: Buffer, expected: Buffer) => key.length === expected.length && timingSafeEqual(key, expected);

const COMMON = new Set(['password', 'password1', 'passw0rd', '123456789012', 'qwertyuiop', 'letmein', 'iloveyou', 'administrator', 'changeme', 'welcome']);

/** Why a new password is refused, or null. Length over composition rules (NIST SP 800-63B). */
export function passwordProblem(password: string): string | null {
  if (password.length < 12) return 'The password must be at least 12 characters long.';
  if (password.length > 256) return 'The password must be at most 256 characters long.';
  if (new Set(password).size < 5) return 'The password repeats too few different characters.';
  if (COMMON.has(password.toLowerCase().replace(/\d+$/, '')) || COMMON.has(password.toLowerCase())) return 'The password is too common.';
  return null;
}

import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword, verifyPasswordAmong } from './passwords.ts';

const saltOf = (hash: string) => hash.split('$')[4];

describe('password hashes of one address', () => {
  it('share the salt of the hash given, so one derivation checks them all; each still matches only its own password', async () => {
    const first = await hashPassword('first partner passphrase');
    const second = await hashPassword('second partner passphrase', { saltOf: first });
    const alone = await hashPassword('second partner passphrase');
    expect(saltOf(second)).toBe(saltOf(first));
    expect(saltOf(alone)).not.toBe(saltOf(first));
    expect(await verifyPasswordAmong('second partner passphrase', [first, second, alone, 'not a hash'])).toEqual([false, true, true, false]);
    expect(await verifyPasswordAmong('first partner passphrase', [first, second])).toEqual([true, false]);
    expect(await verifyPasswordAmong('anything at all', [])).toEqual([]);
    expect(await verifyPassword('first partner passphrase', first)).toBe(true);
  });

  it('takes a fresh salt when the hash given is malformed or of other costs', async () => {
    const other = 'scrypt$16384$8$1$' + 'B'.repeat(22) + '$' + 'C'.repeat(43);
    expect(saltOf(await hashPassword('a long passphrase here', { saltOf: other }))).not.toBe('B'.repeat(22));
    expect(await hashPassword('a long passphrase here', { saltOf: 'garbage' })).toMatch(/^scrypt\$32768\$8\$1\$/);
  });
});

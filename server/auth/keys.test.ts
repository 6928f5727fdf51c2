import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashApiKey } from './keys.ts';

describe('hashApiKey', () => {
  it('is the SHA-256 of the key in hex, as stored since the first keys (a change would lock every key out)', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    for (const key of ['sk_test_0123456789abcdefghijklmnopqrstuvwxyz', 'wk_ünïcödé', '']) {
      expect(hashApiKey(key)).toBe(createHash('sha256').update(key, 'utf8').digest('hex'));
    }
  });
});

import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from './base64.ts';

describe('base64 codec', () => {
  it('matches Node for every length 0..64 and round-trips', () => {
    for (let length = 0; length <= 64; length += 1) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 37 + length) & 0xff);
      const encoded = bytesToBase64(bytes);
      expect(encoded).toBe(Buffer.from(bytes).toString('base64'));
      expect(base64ToBytes(encoded)).toEqual(bytes);
    }
  });

  it('refuses characters outside the alphabet and impossible lengths', () => {
    expect(() => base64ToBytes('ab$d')).toThrow(TypeError);
    expect(() => base64ToBytes('abcde')).toThrow(TypeError);
  });
});

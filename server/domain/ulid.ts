import { randomFillSync } from 'node:crypto';

/**
 * Monotonic ULIDs (48-bit millisecond time + 80 random bits, Crockford base32), as the `ulid`
 * package makes them, but with randomness drawn from a pooled buffer: that package asks the
 * system for one random byte per character, sixteen calls per id, which showed up on the
 * create-payment profile. Within one millisecond the random part is incremented, so ids made by
 * one process always sort in the order they were made.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const POOL = Buffer.alloc(4096);
let poolAt = POOL.length;

function random40(): number {
  if (poolAt + 5 > POOL.length) {
    randomFillSync(POOL);
    poolAt = 0;
  }
  const b = POOL;
  const i = poolAt;
  poolAt += 5;
  return b[i]! * 2 ** 32 + ((b[i + 1]! << 24) >>> 0) + (b[i + 2]! << 16) + (b[i + 3]! << 8) + b[i + 4]!;
}

function encode(value: number, chars: number): string {
  let out = '';
  for (let i = 0; i < chars; i++) {
    out = ALPHABET[value % 32]! + out;
    value = Math.floor(value / 32);
  }
  return out;
}

const TWO_40 = 2 ** 40;

/** A generator of monotonic ULIDs; `now` in milliseconds. */
export function monotonicUlid(): (now?: number) => string {
  let lastTime = -1;
  let hi = 0;
  let lo = 0;
  return (now = Date.now()) => {
    if (!Number.isInteger(now) || now < 0 || now >= 2 ** 48) throw new RangeError(`ulid: time must be a millisecond count, got ${now}`);
    if (now <= lastTime) {
      // Same (or an earlier) millisecond: keep the last time and count up, so order holds.
      lo += 1;
      if (lo === TWO_40) {
        lo = 0;
        hi += 1;
        if (hi === TWO_40) throw new RangeError('ulid: random part overflowed within one millisecond');
      }
    } else {
      lastTime = now;
      hi = random40();
      lo = random40();
    }
    return encode(lastTime, 10) + encode(hi, 8) + encode(lo, 8);
  };
}

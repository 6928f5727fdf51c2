import { randomFillSync } from 'node:crypto';

/**
 * ULIDs (48-bit millisecond time + 80 random bits, Crockford base32), as the `ulid` package makes
 * them, but with randomness drawn from a pooled buffer: that package asks the system for one
 * random byte per character, sixteen calls per id, which showed up on the create-payment profile.
 *
 * Every id gets 80 fresh random bits, never a counter: ids are bearer capabilities (a payment id
 * opens its pay page and gateway calls), so one id must tell nothing about the next. The price is
 * that ids made in the same millisecond sort in random order among themselves; they still sort by
 * millisecond, which is what keyset pagination needs (ids are unique, so pages neither skip nor
 * repeat). Code that needs order within a millisecond orders by another column.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 10 random bytes per id; a pool of 4,000 ids per system call. */
const RANDOM_BYTES = 10;
const POOL = Buffer.alloc(RANDOM_BYTES * 4000);
let poolAt = POOL.length;

/** The next 10 unused bytes of the pool (each byte handed out once), refilled when spent. */
function freshBytes(): number {
  if (poolAt + RANDOM_BYTES > POOL.length) {
    randomFillSync(POOL);
    poolAt = 0;
  }
  const at = poolAt;
  poolAt += RANDOM_BYTES;
  return at;
}

/** 80 bits as 16 base32 characters: five bits per character, two 40-bit halves. */
function encodeRandom(at: number): string {
  let out = '';
  for (let half = 0; half < 2; half++) {
    const i = at + half * 5;
    const b = POOL;
    let v = b[i]! * 2 ** 32 + ((b[i + 1]! << 24) >>> 0) + (b[i + 2]! << 16) + (b[i + 3]! << 8) + b[i + 4]!;
    let chunk = '';
    for (let c = 0; c < 8; c++) {
      chunk = ALPHABET[v % 32]! + chunk;
      v = Math.floor(v / 32);
    }
    out += chunk;
  }
  return out;
}

function encodeTime(value: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[value % 32]! + out;
    value = Math.floor(value / 32);
  }
  return out;
}

/**
 * A generator of ULIDs; `now` in milliseconds. The id carries exactly the time given: callers pass
 * their clock's time (a test's manual clock, the record's `createdAt`), and an id must sort with
 * the records made at that time, not after ids another clock made in the same process.
 */
export function monotonicUlid(): (now?: number) => string {
  return (now = Date.now()) => {
    if (!Number.isInteger(now) || now < 0 || now >= 2 ** 48) throw new RangeError(`ulid: time must be a millisecond count, got ${now}`);
    return encodeTime(now) + encodeRandom(freshBytes());
  };
}

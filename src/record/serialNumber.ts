import { randomFillSync } from 'node:crypto';

/**
 * Application serial numbers (`busi_water_no`): 32 characters of Crockford base32 (`0-9`, `A-Z`
 * without I, L, O, U), laid out as
 *
 *   TTTTTTTTTT SSSSSS RRRRRRRRRRRRRRRR
 *   10 chars: milliseconds since the Unix epoch (50 bits, enough until the year 37,000)
 *    6 chars: a sequence (30 bits) that starts at a random value below 2^29 in each new millisecond
 *             and counts up within it, so that serials made by one process are strictly increasing
 *   16 chars: 80 fresh random bits for every serial
 *
 * So the string order is the creation order to the millisecond (and exact within one process);
 * instances need no coordination, since two serials of the same millisecond differ with
 * overwhelming probability in their random part; and no serial can be derived from another one,
 * not even the next one of the same millisecond (unlike a ULID, whose monotonic mode adds 1 to
 * the random part).
 */

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const DECODE = new Map<string, number>([...ALPHABET].map((c, i) => [c, i]));
const TIME_CHARS = 10;
const SEQ_CHARS = 6;
const RANDOM_CHARS = 16;
export const SERIAL_LENGTH = TIME_CHARS + SEQ_CHARS + RANDOM_CHARS;
const MAX_TIME = 2 ** 50 - 1;
const SEQ_LIMIT = 2 ** 30;
const SHAPE = /^[0-9A-HJKMNP-TV-Z]{32}$/;

function encodeNumber(value: number, chars: number): string {
  let out = '';
  let v = value;
  for (let i = 0; i < chars; i++) {
    out = ALPHABET[v % 32]! + out;
    v = Math.floor(v / 32);
  }
  return out;
}

/** A source of random bytes; the default is the CSPRNG. Tests pass their own to model reseeding. */
export type RandomFill = (buffer: Uint8Array) => void;

export interface SerialGenerator {
  /** A new serial; `now` (ms) defaults to `Date.now()`. */
  next(now?: number): string;
}

/**
 * A generator with its own monotonic state. The module keeps one for `newSerialNumber`; separate
 * generators (as in separate processes) are ordered only to the millisecond among each other.
 */
export function createSerialGenerator(randomFill: RandomFill = (b) => randomFillSync(b)): SerialGenerator {
  // Random bytes are drawn in batches: 10 per serial (80 bits), plus 4 per new millisecond.
  const pool = new Uint8Array(4096);
  let poolPos = pool.length;
  const take = (n: number): number => {
    if (poolPos + n > pool.length) {
      randomFill(pool);
      poolPos = 0;
    }
    const start = poolPos;
    poolPos += n;
    return start;
  };

  let lastTime = -1;
  let seq = 0;

  return {
    next(now: number = Date.now()): string {
      if (!Number.isSafeInteger(now) || now < 0 || now > MAX_TIME) {
        throw new Error('serial number: time must be a non-negative integer number of milliseconds');
      }
      let time = now;
      if (time > lastTime) {
        const at = take(4);
        // 29 random bits: a seed below 2^29 leaves 2^29 increments before the 30-bit field overflows.
        seq = (pool[at]! | (pool[at + 1]! << 8) | (pool[at + 2]! << 16) | (pool[at + 3]! << 24)) >>> 3;
      } else {
        // Same millisecond, or the clock went back: stay on the last time and count up.
        time = lastTime;
        seq += 1;
        if (seq >= SEQ_LIMIT) {
          // Not reachable in practice (2^29 serials in one millisecond); move to the next one.
          if (time >= MAX_TIME) throw new Error('serial number: time overflow');
          time += 1;
          seq = 0;
        }
      }
      lastTime = time;

      // 80 random bits as 16 base32 characters, 5 bits each, from 10 bytes.
      const at = take(10);
      let random = '';
      let bits = 0;
      let acc = 0;
      for (let i = 0; i < 10; i++) {
        acc = (acc << 8) | pool[at + i]!;
        bits += 8;
        while (bits >= 5) {
          bits -= 5;
          random += ALPHABET[(acc >>> bits) & 31]!;
        }
        acc &= (1 << bits) - 1;
      }
      return encodeNumber(time, TIME_CHARS) + encodeNumber(seq, SEQ_CHARS) + random;
    },
  };
}

const processGenerator = createSerialGenerator();

/** A new `busi_water_no`, strictly greater than every other one made by this process. */
export function newSerialNumber(now?: number): string {
  return processGenerator.next(now);
}

/** True when `s` has the shape of a serial number (32 Crockford base32 capitals). */
export function isSerialNumber(s: string): boolean {
  return SHAPE.test(s);
}

/** The creation time of a serial, in ms since the epoch. Throws when `s` is not a serial. */
export function serialTime(serial: string): number {
  if (!isSerialNumber(serial)) throw new Error('serialTime: not a serial number');
  let t = 0;
  for (let i = 0; i < TIME_CHARS; i++) t = t * 32 + DECODE.get(serial[i]!)!;
  return t;
}

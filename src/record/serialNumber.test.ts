import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import {
  createSerialGenerator,
  isSerialNumber,
  newSerialNumber,
  SERIAL_LENGTH,
  serialTime,
} from './serialNumber.ts';

const SHAPE = /^[0-9A-HJKMNP-TV-Z]{32}$/;

describe('newSerialNumber', () => {
  test('has the shape: 32 Crockford base32 capitals', () => {
    assert.equal(SERIAL_LENGTH, 32);
    for (let i = 0; i < 1000; i++) {
      const s = newSerialNumber();
      assert.match(s, SHAPE);
      assert.ok(isSerialNumber(s));
    }
  });

  test('carries its time to the millisecond', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 50 - 1 }), (t) => {
        const g = createSerialGenerator();
        assert.equal(serialTime(g.next(t)), t);
      }),
    );
    const before = Date.now();
    const s = newSerialNumber();
    assert.ok(serialTime(s) >= before && serialTime(s) <= Date.now());
  });

  test('orders by time across milliseconds, also across generators', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 50 - 2 }), fc.integer({ min: 1, max: 1e6 }), (t, d) => {
        const a = createSerialGenerator().next(t);
        const b = createSerialGenerator().next(Math.min(t + d, 2 ** 50 - 1));
        assert.ok(a < b);
      }),
    );
  });

  test('is strictly increasing within one millisecond and when the clock goes back', () => {
    const g = createSerialGenerator();
    const now = Date.now();
    let prev = g.next(now);
    for (let i = 0; i < 10_000; i++) {
      const s = g.next(i % 3 === 0 ? now - 5 : now);
      assert.ok(s > prev, `${s} <= ${prev}`);
      prev = s;
    }
    // A tight loop on the real clock: many serials share a millisecond.
    prev = newSerialNumber();
    const seen = new Set<string>([prev]);
    for (let i = 0; i < 10_000; i++) {
      const s = newSerialNumber();
      assert.ok(s > prev);
      seen.add(s);
      prev = s;
    }
    assert.equal(seen.size, 10_001);
  });

  test('two generators in the same millisecond differ in sequence and random part', () => {
    const t = 1_750_000_000_000;
    const a = createSerialGenerator().next(t);
    const b = createSerialGenerator().next(t);
    assert.equal(a.slice(0, 10), b.slice(0, 10));
    assert.notEqual(a.slice(10, 16), b.slice(10, 16));
    assert.notEqual(a.slice(16), b.slice(16));
  });

  test('two processes in the same millisecond differ', () => {
    const t = 1_750_000_000_000;
    const script = `import { newSerialNumber } from ${JSON.stringify(import.meta.resolve('./serialNumber.ts'))};
      console.log(newSerialNumber(${t}));`;
    const run = () => execFileSync(process.execPath, ['--input-type=module', '-e', script]).toString().trim();
    const a = run();
    const b = run();
    assert.ok(isSerialNumber(a) && isSerialNumber(b));
    assert.equal(serialTime(a), t);
    assert.notEqual(a, b);
  });

  test('the random part is fresh for every serial, even within one millisecond', () => {
    // 50,000 serials of one millisecond: the random parts are pairwise distinct and every bit of
    // the 80 is set in about half of them.
    const g = createSerialGenerator();
    const t = Date.now();
    const randoms = new Set<string>();
    const ones = new Array<number>(80).fill(0);
    const n = 50_000;
    for (let i = 0; i < n; i++) {
      const r = g.next(t).slice(16);
      randoms.add(r);
      for (let c = 0; c < 16; c++) {
        const v = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'.indexOf(r[c]!);
        for (let b = 0; b < 5; b++) if ((v >> (4 - b)) & 1) ones[c * 5 + b]!++;
      }
    }
    assert.equal(randoms.size, n);
    for (const count of ones) assert.ok(Math.abs(count - n / 2) < 1000, String(count)); // sd ~112
  });

  test('a reseeded generator with the same random stream repeats; another stream does not', () => {
    let counter = 0;
    const fixed = (b: Uint8Array) => b.fill(7);
    const counting = (b: Uint8Array) => {
      for (let i = 0; i < b.length; i++) b[i] = (counter++ * 31) & 255;
    };
    assert.equal(createSerialGenerator(fixed).next(5), createSerialGenerator(fixed).next(5));
    assert.notEqual(createSerialGenerator(fixed).next(5), createSerialGenerator(counting).next(5));
  });

  test('refuses a time it cannot encode', () => {
    const g = createSerialGenerator();
    for (const bad of [-1, 1.5, 2 ** 50, Number.NaN]) assert.throws(() => g.next(bad));
  });
});

describe('isSerialNumber / serialTime', () => {
  test('refuses other shapes', () => {
    const good = newSerialNumber();
    for (const bad of [
      '',
      good.slice(1),
      good + '0',
      good.toLowerCase(),
      good.slice(0, 31) + 'I',
      good.slice(0, 31) + 'L',
      good.slice(0, 31) + 'O',
      good.slice(0, 31) + 'U',
      ' ' + good.slice(1),
    ]) {
      assert.equal(isSerialNumber(bad), false, bad);
      assert.throws(() => serialTime(bad));
    }
  });
});

import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  assertCardProduct,
  checkRequestedCardNo,
  generateCardNumber,
  isLuhnValid,
  luhnCheckDigit,
  maskCardNumber,
} from './cardNumber.ts';
import { underServiceFlags } from '../../test/helpers/promoted.ts';

const digits = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });

const productArb = fc.record({ bin: digits(6, 8), length: fc.integer({ min: 12, max: 19 }) });

describe('Luhn', () => {
  test('known numbers', () => {
    assert.equal(isLuhnValid('79927398713'), true);
    assert.equal(isLuhnValid('4111111111111111'), true);
    assert.equal(isLuhnValid('5555555555554444'), true);
    assert.equal(isLuhnValid('4111111111111112'), false);
    assert.equal(luhnCheckDigit('7992739871'), '3');
    assert.equal(luhnCheckDigit('411111111111111'), '1');
  });

  test('refuses what is not a string of digits', () => {
    for (const bad of [
      '',
      '0',
      '4111 1111 1111 1111',
      '４１１１１１１１１１１１１１１１',
      '41111111111111a1',
      '-18',
    ]) {
      assert.equal(isLuhnValid(bad), false, bad);
    }
    assert.throws(() => luhnCheckDigit(''));
    assert.throws(() => luhnCheckDigit('12a'));
  });

  test('appending the check digit always gives a valid number', () => {
    fc.assert(fc.property(digits(1, 30), (p) => isLuhnValid(p + luhnCheckDigit(p))));
  });

  test('any single-digit change of a valid number fails', () => {
    fc.assert(
      fc.property(productArb, fc.nat(), fc.integer({ min: 1, max: 9 }), (product, pos, delta) => {
        const n = generateCardNumber(product);
        const i = pos % n.length;
        const changed = String((Number(n[i]) + delta) % 10);
        const m = n.slice(0, i) + changed + n.slice(i + 1);
        assert.equal(isLuhnValid(m), false);
      }),
    );
  });
});

describe('generateCardNumber', () => {
  test('is Luhn-valid, has the BIN and the length', () => {
    fc.assert(
      fc.property(productArb, (product) => {
        const n = generateCardNumber(product);
        assert.match(n, /^[0-9]+$/);
        assert.equal(n.length, product.length);
        assert.ok(n.startsWith(product.bin));
        assert.ok(isLuhnValid(n));
        assert.deepEqual(checkRequestedCardNo(n, product), []);
      }),
      { numRuns: 2000 },
    );
  });

  test('refuses products out of range', () => {
    assert.throws(() => generateCardNumber({ bin: '12345', length: 16 }), /BIN/);
    assert.throws(() => generateCardNumber({ bin: '123456789', length: 16 }), /BIN/);
    assert.throws(() => generateCardNumber({ bin: '12345a', length: 16 }), /BIN/);
    assert.throws(() => generateCardNumber({ bin: '123456', length: 11 }), /length/);
    assert.throws(() => generateCardNumber({ bin: '123456', length: 20 }), /length/);
    assert.throws(() => generateCardNumber({ bin: '123456', length: 16.5 }), /length/);
    assert.doesNotThrow(() => assertCardProduct({ bin: '12345678', length: 12 }));
  });

  // Draws 100,000 numbers and compares the collisions with the birthday expectation n^2 / 2N: a
  // generator with less entropy than claimed, or a bias, collides far more often.
  function collisions(product: { bin: string; length: number }): { seen: number; expected: number } {
    const n = 100_000;
    const space = 10 ** (product.length - product.bin.length - 1);
    const seen = new Set<string>();
    for (let i = 0; i < n; i++) seen.add(generateCardNumber(product));
    return { seen: n - seen.size, expected: (n * n) / (2 * space) };
  }

  test('100,000 numbers of 19 digits in one BIN are distinct', () => {
    // 10^12 numbers: about 0.005 collisions expected; 4 or more has probability ~1e-11.
    const { seen } = collisions({ bin: '621234', length: 19 });
    assert.ok(seen <= 3, `${seen} collisions`);
  });

  test('100,000 numbers of 16 digits in a 6-digit BIN collide only as often as chance says', () => {
    // Only 10^9 numbers exist here, so about 5 collisions are expected among 100,000 draws:
    // uniqueness must come from the store (retry on conflict), not from luck.
    const { seen, expected } = collisions({ bin: '621234', length: 16 });
    assert.ok(seen <= expected + 6 * Math.sqrt(expected) + 3, `${seen} collisions, ~${expected} expected`);
  });

  // Leading zeros too: the draw's digits are written out, not converted, and must keep their width.
  test('keeps the leading zeros of a short draw', () => {
    const product = { bin: '621234', length: 16 };
    let short = 0;
    for (let i = 0; i < 20_000; i++) if (generateCardNumber(product)[6] === '0') short++;
    assert.ok(short > 1_500 && short < 2_500, `${short} of 20,000 with a leading zero after the BIN`);
  });

  // A number drawn for a submission lives as long as its request. String(draw) kept every draw's
  // digits in V8's number-to-string cache until another number took its place, promoted to the old
  // generation on the way: 26 to 29 bytes a number here, under the service's flags (the cache's
  // size follows the heap's), after full collections have let the cache grow as a running
  // service's do.
  test('keeps nothing of a drawn number past its use', () => {
    const count = 20_000;
    const printed = underServiceFlags(`
      import { runInNewContext } from 'node:vm';
      import { promotedBytes, scavenge } from './test/helpers/promoted.ts';
      import { generateCardNumber } from './src/cards/cardNumber.ts';
      const product = { bin: '621234', length: 16 };
      const fullCollection = runInNewContext('gc');
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 20_000; i++) generateCardNumber(product);
        fullCollection();
      }
      // Scavenges between the draws, as a request's work brings them: one every hundred draws.
      const promoted = await promotedBytes('cards/cardNumber.ts', () => {
        for (let i = 0; i < ${count}; i++) {
          generateCardNumber(product);
          if (i % 100 === 99) scavenge();
        }
      });
      console.log(promoted);
    `);
    const perNumber = Number(printed) / count;
    assert.ok(perNumber < 5, `${perNumber.toFixed(1)} bytes a number kept past the scavenges`);
  });

  test('each random digit position is near-uniform', () => {
    const product = { bin: '621234', length: 16 };
    const counts = Array.from({ length: 9 }, () => new Array<number>(10).fill(0));
    for (let i = 0; i < 100_000; i++) {
      const n = generateCardNumber(product);
      for (let p = 0; p < 9; p++) counts[p]![Number(n[6 + p])]!++;
    }
    // Expected 10,000 per digit and position, standard deviation ~95.
    for (const row of counts) for (const c of row) assert.ok(Math.abs(c - 10_000) < 600, String(c));
  });
});

describe('maskCardNumber', () => {
  test('keeps the first 6 and last 4 digits', () => {
    assert.equal(maskCardNumber('4111111111111111'), '411111******1111');
    fc.assert(
      fc.property(productArb, (product) => {
        const n = generateCardNumber(product);
        const m = maskCardNumber(n);
        assert.equal(m.length, n.length);
        assert.equal(m.slice(0, 6), n.slice(0, 6));
        assert.equal(m.slice(-4), n.slice(-4));
        assert.match(m.slice(6, -4), /^\*+$/);
      }),
    );
  });

  test('masks short input entirely', () => {
    assert.equal(maskCardNumber('1234567890'), '**********');
    assert.equal(maskCardNumber(''), '');
  });
});

describe('checkRequestedCardNo', () => {
  const product = { bin: '622848', length: 16 };
  const valid = '6228480000000000'.slice(0, 15);
  const good = valid + luhnCheckDigit(valid);

  test('accepts a good number', () => {
    assert.deepEqual(checkRequestedCardNo(good, product), []);
  });

  test('reports the first problem only', () => {
    const cases: [string, string, Record<string, unknown> | undefined][] = [
      ['', 'cardNoFormat', { length: 16 }],
      [good.slice(0, 15), 'cardNoFormat', { length: 16 }],
      [good + '0', 'cardNoFormat', { length: 16 }],
      [good.slice(0, 15) + 'x', 'cardNoFormat', { length: 16 }],
      [' ' + good.slice(1), 'cardNoFormat', { length: 16 }],
      ['1234567812345670', 'cardNoBin', { bin: '622848' }], // Luhn-valid, wrong BIN
      ['1234567812345678', 'cardNoBin', { bin: '622848' }], // wrong BIN and Luhn: BIN first
      [good.slice(0, 15) + String((Number(good[15]) + 1) % 10), 'cardNoLuhn', undefined],
    ];
    for (const [cardNo, error, params] of cases) {
      const problems = checkRequestedCardNo(cardNo, product);
      assert.equal(problems.length, 1, cardNo);
      assert.equal(problems[0]!.field, 'card_no');
      assert.equal(problems[0]!.error, error, cardNo);
      assert.deepEqual(problems[0]!.params, params);
    }
  });
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pooledRandomBytes } from './randomPool.ts';

test('pooled random bytes are never handed out twice, across refills', () => {
  const seen = new Set<string>();
  // 12-byte draws across ~30 refills of the 4 KiB pool, plus sizes that straddle a refill.
  for (let i = 0; i < 10_000; i++) {
    const n = i % 97 === 0 ? 4096 : 12;
    const bytes = pooledRandomBytes(n);
    assert.equal(bytes.length, n);
    const hex = bytes.toString('hex');
    assert.ok(!seen.has(hex), 'a repeated draw');
    seen.add(hex);
  }
});

test('the bytes look uniform: each bit set about half the time', () => {
  const ones = new Array<number>(8).fill(0);
  const draws = 20_000;
  for (let i = 0; i < draws; i++) {
    const byte = pooledRandomBytes(1)[0]!;
    for (let bit = 0; bit < 8; bit++) if (byte & (1 << bit)) ones[bit]!++;
  }
  // Binomial(20000, 0.5): sd ~71; 6 sd either side.
  for (const count of ones)
    assert.ok(Math.abs(count - draws / 2) < 430, `bit set ${count} times of ${draws}`);
});

test('a returned buffer is its own: changing it changes no later draw', () => {
  const first = pooledRandomBytes(16);
  first.fill(0);
  assert.notDeepEqual(pooledRandomBytes(16), Buffer.alloc(16));
});

test('sizes outside 0..4096 are refused', () => {
  assert.throws(() => pooledRandomBytes(4097), RangeError);
  assert.throws(() => pooledRandomBytes(-1), RangeError);
});

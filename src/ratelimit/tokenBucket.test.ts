import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { decide, MemoryBuckets } from './tokenBucket.ts';

describe('token bucket', () => {
  const policy = { ratePerSecond: 5, burst: 10 };

  test('a burst, then the refill rate', async () => {
    let now = 1_000_000;
    const buckets = new MemoryBuckets(() => now);
    const allowed = async (n: number) => {
      let count = 0;
      for (let i = 0; i < n; i++) if ((await buckets.take('a', policy, 1)).allowed) count++;
      return count;
    };
    assert.equal(await allowed(15), 10);
    now += 1000;
    assert.equal(await allowed(15), 5);
    now += 60_000;
    assert.equal(await allowed(15), 10, 'never more than the burst');
    assert.equal(await allowed(1), 0);
    assert.equal((await buckets.take('b', policy, 1)).allowed, true, 'buckets are separate');
  });

  test('looking (cost 0) takes nothing', async () => {
    const buckets = new MemoryBuckets(() => 0);
    for (let i = 0; i < 20; i++) assert.equal((await buckets.take('a', policy, 0)).tokens, 10);
  });

  test('header values: limit, remaining, reset and retry-after', () => {
    assert.deepEqual(decide({ allowed: true, tokens: 9 }, policy), {
      allowed: true,
      limit: 10,
      remaining: 9,
      resetSeconds: 1,
      retryAfterSeconds: 1,
    });
    const refused = decide({ allowed: false, tokens: 0.2 }, { ratePerSecond: 0.1, burst: 3 });
    assert.equal(refused.remaining, 0);
    assert.equal(refused.retryAfterSeconds, 8);
    assert.equal(refused.resetSeconds, 28);
  });

  test('over any sequence of requests, no more pass than burst + rate × time', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 100 }),
        fc.array(fc.integer({ min: 0, max: 500 }), { minLength: 1, maxLength: 300 }),
        (rate, burst, gaps) => {
          let now = 0;
          const buckets = new MemoryBuckets(() => now);
          let passed = 0;
          for (const gap of gaps) {
            now += gap;
            if (buckets.takeNow('k', { ratePerSecond: rate, burst }, 1).allowed) passed++;
          }
          assert.ok(passed <= burst + Math.floor((rate * now) / 1000) + 1e-9);
        },
      ),
    );
  });
});

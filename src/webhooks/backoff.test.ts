import assert from 'node:assert/strict';
import { test } from 'node:test';
import { retryDelayMs, verdict } from './backoff.ts';

const config = { backoffBaseMs: 1000, backoffMaxMs: 60_000 };

test('full jitter: between 0 and min(max, base * 2^(n-1))', () => {
  const ceilings: number[] = [];
  for (let n = 1; n <= 10; n++) ceilings.push(retryDelayMs(n, config, (ceiling) => ceiling));
  assert.deepEqual(ceilings, [1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000, 60_000]);
  assert.equal(
    retryDelayMs(5, config, () => 0),
    0,
  );
  for (let i = 0; i < 200; i++) {
    const delay = retryDelayMs(3, config);
    assert.ok(delay >= 0 && delay <= 4000);
  }
  assert.equal(
    retryDelayMs(1000, config, (c) => c),
    60_000,
    'no overflow for large counts',
  );
});

test('2xx delivers; otherwise retry until the window ends, the last attempt at its end', () => {
  assert.deepEqual(verdict({ ok: true }, { attempt_count: 9, give_up_at: 0 }, 5, config), {
    status: 'delivered',
  });
  const retry = verdict({ ok: false }, { attempt_count: 1, give_up_at: 1_000_000 }, 0, config);
  assert.equal(retry.status, 'pending');
  assert.ok(retry.status === 'pending' && retry.nextAttemptAt <= 1000);
  const capped = verdict({ ok: false }, { attempt_count: 20, give_up_at: 10 }, 5, config);
  assert.ok(capped.status === 'pending' && capped.nextAttemptAt <= 10);
  assert.deepEqual(verdict({ ok: false }, { attempt_count: 20, give_up_at: 10 }, 10, config), {
    status: 'failed',
  });
  // Begun before the end and answered after it: one more attempt, due at once (the window's end).
  assert.deepEqual(verdict({ ok: false }, { attempt_count: 20, give_up_at: 10 }, 12, config, 9), {
    status: 'pending',
    nextAttemptAt: 10,
  });
  assert.deepEqual(verdict({ ok: false }, { attempt_count: 20, give_up_at: 10 }, 12, config, 10), {
    status: 'failed',
  });
});

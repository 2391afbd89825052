import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TokenWithApp } from './appRepository.ts';
import { TokenCache } from './tokenCache.ts';

const row: TokenWithApp = {
  app_id: 'app_x',
  expires_at: Date.now() + 60_000,
  revoked_at: null,
  app_status: 'active',
  rate_limit_per_second: null,
  rate_limit_burst: null,
  concurrency_limit: null,
};

test('an entry lives its time and no longer', async () => {
  const cache = new TokenCache(50);
  cache.set('h', row, cache.generation);
  assert.equal(cache.get('h'), row);
  await new Promise((resolve) => setTimeout(resolve, 70));
  assert.equal(cache.get('h'), undefined);
});

test('a lookup begun before an invalidation is not kept; clear drops everything', () => {
  const cache = new TokenCache(1000);
  const before = cache.generation;
  cache.set('a', row, before);
  cache.clear();
  assert.equal(cache.get('a'), undefined);
  cache.set('b', row, before);
  assert.equal(cache.get('b'), undefined, 'read before the change: not kept');
  cache.set('b', row, cache.generation);
  assert.equal(cache.get('b'), row);
});

test('it never grows past its bound', () => {
  const cache = new TokenCache(1000, 3);
  for (const hash of ['a', 'b', 'c', 'd']) cache.set(hash, row, cache.generation);
  assert.equal(['a', 'b', 'c', 'd'].filter((h) => cache.get(h) !== undefined).length, 1);
});

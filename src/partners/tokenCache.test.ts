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

test('lookups that miss together share one; a failed one is not kept', async () => {
  const cache = new TokenCache(1000);
  let finds = 0;
  let answer!: (found: TokenWithApp | undefined) => void;
  const find = () => {
    finds += 1;
    return new Promise<TokenWithApp | undefined>((resolve) => (answer = resolve));
  };
  const together = Array.from({ length: 32 }, () => cache.lookup('h', find));
  assert.equal(finds, 1, 'thirty-two requests missing at once: one store read');
  answer(row);
  assert.deepEqual(await Promise.all(together), Array(32).fill(row));

  // Settled: the next miss reads again (the row was not kept here: `find` keeps it, this one did not).
  const failing = cache.lookup('h', () => {
    finds += 1;
    return Promise.reject(new Error('store down'));
  });
  await assert.rejects(failing, /store down/);
  const after = cache.lookup('h', find);
  assert.equal(finds, 3, 'a failed lookup is not shared with later requests');
  answer(undefined);
  assert.equal(await after, undefined);
});

test('a lookup begun before an invalidation is not shared after it', async () => {
  const cache = new TokenCache(1000);
  const generations: number[] = [];
  const answers: ((found: TokenWithApp | undefined) => void)[] = [];
  const find = (generation: number) => {
    generations.push(generation);
    return new Promise<TokenWithApp | undefined>((resolve) => answers.push(resolve));
  };
  const before = cache.lookup('h', find);
  cache.clear(); // a revocation on this instance
  const after = cache.lookup('h', find);
  assert.equal(generations.length, 2, 'the request after the revocation reads the store itself');
  assert.notEqual(generations[0], generations[1]);
  const revoked = { ...row, revoked_at: Date.now() };
  answers[1]!(revoked);
  answers[0]!(row);
  assert.equal(await after, revoked);
  assert.equal(await before, row);
});

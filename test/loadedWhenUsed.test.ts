import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { spawnService } from './helpers/process.ts';
import { createStoreTarget, storeNames } from './helpers/stores.ts';

/**
 * Clients the service needs only for some deployments or some operations are loaded when used, not
 * with the service: a process on the embedded store that never sees Redis, a sanctions list's XML or
 * an operator's second factor holds none of those libraries, nor the PostgreSQL driver
 * (docs/PERFORMANCE.md, "Loaded when used"). The modules a real service process loaded are
 * recorded by a module hook preloaded into it.
 */
const HOOK = fileURLToPath(new URL('./helpers/recordLoads.mjs', import.meta.url));

async function modulesLoadedBy(store: 'sqlite' | 'postgres', env: Record<string, string>): Promise<string[]> {
  const target = createStoreTarget(store);
  const file = join(target.dataDir, 'loaded.txt');
  try {
    const service = await spawnService({
      ...target.env,
      ...env,
      NODE_OPTIONS: `--import=${HOOK}`,
      LOADED_MODULES_FILE: file,
    });
    service.child.kill('SIGTERM');
    assert.equal(await service.exited, 0);
    return readFileSync(file, 'utf8').split('\n');
  } finally {
    await target.cleanup();
  }
}

const from = (urls: string[], pkg: string) => urls.filter((url) => url.includes(`/node_modules/${pkg}/`));

test('a service on SQLite without REDIS_URL loads no Redis client, XML parser, PostgreSQL driver or TOTP library', async () => {
  const urls = await modulesLoadedBy('sqlite', {});
  // The record is shown to see packages: the service's own HTTP framework is in it.
  assert.ok(from(urls, 'fastify').length > 0, `fastify not among ${urls.length} modules`);
  assert.deepEqual(from(urls, 'ioredis'), []);
  assert.deepEqual(from(urls, 'saxes'), []);
  assert.deepEqual(from(urls, 'pg'), []);
  // The operators' second factor: an operator's first sign-in or enrolment loads them.
  assert.deepEqual(from(urls, 'otpauth'), []);
  assert.deepEqual(from(urls, 'qr'), []);
});

test('the control: a service with REDIS_URL loads the Redis client', async () => {
  // Unreachable: the service starts anyway, limiting per instance, with the client loaded.
  const urls = await modulesLoadedBy('sqlite', { REDIS_URL: 'redis://127.0.0.1:1' });
  assert.ok(from(urls, 'ioredis').length > 0, 'ioredis was not loaded');
});

test(
  'the control: a service on PostgreSQL loads its driver',
  { skip: storeNames().includes('postgres') ? false : 'needs PostgreSQL (DATABASE_URL)' },
  async () => {
    assert.ok(from(await modulesLoadedBy('postgres', {}), 'pg').length > 0, 'pg was not loaded');
  },
);

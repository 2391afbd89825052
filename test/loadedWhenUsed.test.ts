import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { spawnService } from './helpers/process.ts';

/**
 * Clients the service needs only for some deployments or some operations are loaded when used, not
 * with the service: a process that never sees Redis or a sanctions list's XML keeps neither
 * library in its memory (README, "Loaded when used"). The modules a real service process loaded
 * are recorded by a module hook preloaded into it.
 */
const HOOK = fileURLToPath(new URL('./helpers/recordLoads.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'cardapply-loads-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function modulesLoadedBy(env: Record<string, string>, name: string): Promise<string[]> {
  const file = join(dir, `${name}.txt`);
  const service = await spawnService({
    ...env,
    DATA_DIR: join(dir, name),
    DATABASE_URL: '',
    NODE_OPTIONS: `--import=${HOOK}`,
    LOADED_MODULES_FILE: file,
  });
  service.child.kill('SIGTERM');
  assert.equal(await service.exited, 0);
  return readFileSync(file, 'utf8').split('\n');
}

const from = (urls: string[], pkg: string) => urls.filter((url) => url.includes(`/node_modules/${pkg}/`));

test('a service without REDIS_URL loads neither the Redis client nor the XML parser', async () => {
  const urls = await modulesLoadedBy({}, 'plain');
  // The record is shown to see packages: the service's own HTTP framework is in it.
  assert.ok(from(urls, 'fastify').length > 0, `fastify not among ${urls.length} modules`);
  assert.deepEqual(from(urls, 'ioredis'), []);
  assert.deepEqual(from(urls, 'saxes'), []);
});

test('a service with REDIS_URL loads the Redis client (the control)', async () => {
  // Unreachable: the service starts anyway, limiting per instance, with the client loaded.
  const urls = await modulesLoadedBy({ REDIS_URL: 'redis://127.0.0.1:1' }, 'redis');
  assert.ok(from(urls, 'ioredis').length > 0, 'ioredis was not loaded');
});

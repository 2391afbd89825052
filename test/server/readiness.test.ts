import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ERRORS } from '../../src/errors/catalogue.ts';
import { startPrivatePostgres } from '../helpers/privatePostgres.ts';
import { spawnService } from '../helpers/process.ts';
import { startService } from '../helpers/service.ts';
import { createStoreTarget, storeNames, TEST_ENCRYPTION_KEYS } from '../helpers/stores.ts';
import { skipWithout } from '../helpers/components.ts';

/**
 * /healthz says the process lives; /readyz says the instance can serve: the store answers, every
 * migration is applied, every worker it should run runs. PostgreSQL is stopped and started again
 * under a running service (a private server: the shared one is never touched).
 */
async function get(
  url: string,
): Promise<{ status: number; body: { code: number; data: { reasons?: string[] } } }> {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as never };
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('readiness', () => {
  test(
    '/readyz turns 503 with its reason when PostgreSQL stops, and 200 again when it is back',
    { skip: skipWithout('postgresBinaries') },
    async () => {
      const pg = await startPrivatePostgres();
      const target = createStoreTarget('sqlite'); // for its private data dir only
      const service = await spawnService({
        ...target.env,
        DATABASE_URL: pg.url,
        DATABASE_SCHEMA: 'ready_test',
        ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
        DATABASE_POOL_SIZE: '4',
      });
      try {
        assert.equal((await get(`${service.baseUrl}/readyz`)).status, 200);

        pg.stop();
        const down = await get(`${service.baseUrl}/readyz`);
        assert.equal(down.status, 503);
        assert.equal(down.body.code, ERRORS.notReady.code);
        assert.deepEqual(down.body.data.reasons, ['store unreachable']);
        // The process itself lives, and still answers for its metrics.
        assert.equal((await get(`${service.baseUrl}/healthz`)).status, 200);
        assert.equal((await fetch(`${service.baseUrl}/metrics`)).status, 200);

        pg.start();
        await until('/readyz 200', async () => (await get(`${service.baseUrl}/readyz`)).status === 200);
      } finally {
        service.child.kill('SIGTERM');
        await service.exited;
        pg.cleanup();
        await target.cleanup();
      }
    },
  );

  test('SIGUSR2 switches the log level to debug and back', async () => {
    const target = createStoreTarget('sqlite');
    const service = await spawnService(target.env);
    try {
      const levelChanges = () =>
        service.output
          .map((line) => JSON.parse(line) as { msg?: string; log_level?: string })
          .filter((line) => line.msg === 'log level changed');
      service.child.kill('SIGUSR2');
      await until('debug', async () => levelChanges().length === 1);
      service.child.kill('SIGUSR2');
      await until('back to info', async () => levelChanges().length === 2);
      assert.deepEqual(
        levelChanges().map((line) => line.log_level),
        ['debug', 'info'],
      );
      assert.equal((await get(`${service.baseUrl}/healthz`)).status, 200);
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
      await target.cleanup();
    }
  });

  for (const storeName of storeNames()) {
    test(`a worker that should run and does not makes the instance not ready (${storeName})`, async () => {
      const service = await startService(storeName);
      try {
        assert.equal((await get(`${service.baseUrl}/readyz`)).status, 200);
        let running = false;
        service.ctx.workers.register('test worker', () => running);
        const down = await get(`${service.baseUrl}/readyz`);
        assert.equal(down.status, 503);
        assert.deepEqual(down.body.data.reasons, ['test worker not running']);
        running = true;
        assert.equal((await get(`${service.baseUrl}/readyz`)).status, 200);
        assert.equal((await get(`${service.baseUrl}/healthz`)).status, 200);
      } finally {
        await service.close();
      }
    });
  }
});

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../config.ts';
import { openStore, type Store } from './connect.ts';

/** Group commit on the embedded store: shared commits, isolated failures, nothing half-done. */
async function withStore(work: (store: Store) => Promise<void>): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cardapply-gc-'));
  const store = await openStore(loadConfig({ DATA_DIR: dataDir }));
  await store.migrate();
  try {
    await work(store);
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const app = (id: string) => ({
  app_id: id,
  name: id,
  status: 'active' as const,
  rate_limit_per_second: null,
  rate_limit_burst: null,
  concurrency_limit: null,
  created_at: 1,
  updated_at: 1,
});

test('concurrent transactions share commits, and each is acknowledged only with its data stored', async () => {
  await withStore(async (store) => {
    const ids = Array.from({ length: 200 }, (_, i) => `app_${i}`);
    await Promise.all(
      ids.map((id) => store.transaction((trx) => trx.insertInto('apps').values(app(id)).execute())),
    );
    const stats = store.groupCommitStats!();
    assert.equal(stats.units, 200);
    assert.ok(stats.commits < 50, `200 concurrent transactions took ${stats.commits} commits`);
    const rows = await store.db.selectFrom('apps').select('app_id').execute();
    assert.equal(rows.length, 200);
  });
});

test('a failing transaction is rolled back alone; its neighbours in the batch commit', async () => {
  await withStore(async (store) => {
    const results = await Promise.allSettled([
      store.transaction((trx) => trx.insertInto('apps').values(app('a')).execute()),
      store.transaction(async (trx) => {
        await trx.insertInto('apps').values(app('b')).execute();
        throw new Error('refused after writing');
      }),
      store.transaction((trx) => trx.insertInto('apps').values(app('a')).execute()), // duplicate key
      store.transaction((trx) => trx.insertInto('apps').values(app('c')).execute()),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'rejected', 'fulfilled'],
    );
    const rows = await store.db.selectFrom('apps').select('app_id').orderBy('app_id').execute();
    assert.deepEqual(
      rows.map((r) => r.app_id),
      ['a', 'c'],
    );
  });
});

test('a later transaction of a batch sees what an earlier one wrote', async () => {
  await withStore(async (store) => {
    const [, count] = await Promise.all([
      store.transaction((trx) => trx.insertInto('apps').values(app('first')).execute()),
      store.transaction(async (trx) => (await trx.selectFrom('apps').selectAll().execute()).length),
    ]);
    assert.equal(count, 1);
  });
});

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Kysely, sql } from 'kysely';
import { openSqliteConnection } from './sqliteConnection.ts';
import { NodeSqliteDialect } from './sqliteDialect.ts';

/**
 * The service's connection waits for another writer's lock on a timer, never in SQLite's busy
 * handler, which sleeps the whole thread: here a second connection (as the writer thread or the
 * CLI would) holds the write lock while the event loop is watched.
 */
describe('the embedded dialect waiting for the write lock', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dialect-busy-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'busy.db');
  const service = openSqliteConnection(file);
  service.exec('CREATE TABLE t (x INTEGER)');
  service.exec('PRAGMA busy_timeout = 0');
  const other = openSqliteConnection(file);
  const db = new Kysely<{ t: { x: number } }>({ dialect: new NodeSqliteDialect(service) });

  /** Runs `work` while `other` holds the write lock for `holdMs`; counts timer ticks meanwhile. */
  async function whileLocked<T>(
    holdMs: number,
    work: () => Promise<T>,
  ): Promise<{ value: T; ticks: number }> {
    other.exec('BEGIN IMMEDIATE');
    other.exec('INSERT INTO t VALUES (0)');
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    const release = setTimeout(() => other.exec('COMMIT'), holdMs);
    try {
      return { value: await work(), ticks };
    } finally {
      clearInterval(ticker);
      clearTimeout(release);
      if (other.isTransaction) other.exec('COMMIT');
    }
  }

  test('a transaction starts once the lock is free, the event loop running meanwhile', async () => {
    const { ticks } = await whileLocked(200, () =>
      db.transaction().execute((trx) => trx.insertInto('t').values({ x: 1 }).execute()),
    );
    assert.ok(ticks >= 10, `the event loop ran ${ticks} ticks of 5 ms during a 200 ms lock`);
    const rows = await db.selectFrom('t').select('x').orderBy('x').execute();
    assert.deepEqual(
      rows.map((r) => r.x),
      [0, 1],
      'the other writer committed first',
    );
  });

  test('a single statement outside a transaction waits the same way', async () => {
    const { ticks } = await whileLocked(150, () => db.insertInto('t').values({ x: 2 }).execute());
    assert.ok(ticks >= 8, `${ticks} ticks`);
    assert.equal(
      (await sql<{ n: number }>`select count(*) as n from t where x = 2`.execute(db)).rows[0]!.n,
      1,
    );
  });
});

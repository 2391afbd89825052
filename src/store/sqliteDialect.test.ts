import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Kysely, sql } from 'kysely';
import { openSqliteConnection } from './sqliteConnection.ts';
import { NodeSqliteDialect } from './sqliteDialect.ts';
import { newWriteTurn, WriteTurn } from './writeTurn.ts';

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
  const db = new Kysely<{ t: { x: number } }>({
    dialect: new NodeSqliteDialect(service, new WriteTurn(newWriteTurn(), 'loop')),
  });

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

/**
 * With a writer thread beside it, the connection takes the process's write turn (writeTurn.ts)
 * before it writes, and gives it back when its transaction ends; a read does not need it (though,
 * on the one connection, it queues behind a write that waits for it).
 */
describe('the embedded dialect taking the write turn', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dialect-turn-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const connection = openSqliteConnection(join(dir, 'turn.db'));
  connection.exec('CREATE TABLE t (x INTEGER)');
  const buffer = newWriteTurn();
  const db = new Kysely<{ t: { x: number } }>({
    dialect: new NodeSqliteDialect(connection, new WriteTurn(buffer, 'loop')),
  });
  // The writer thread's side, played here through its non-blocking entry.
  const thread = new WriteTurn(buffer, 'thread');

  test('a write waits while the writer thread has the turn; a read does not', async () => {
    await thread.take(100);
    const rows = await db.selectFrom('t').selectAll().execute();
    assert.deepEqual(rows, [], 'the read was answered while the turn was taken');
    let written = false;
    const writing = db
      .insertInto('t')
      .values({ x: 1 })
      .execute()
      .then(() => (written = true));
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(written, false, 'the write went ahead of the writer thread');
    thread.give();
    await writing;
    assert.equal(written, true);
  });

  test('a transaction holds the turn until it commits, or rolls back', async () => {
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ x: 2 }).execute();
      await assert.rejects(thread.take(20), { errcode: 5 }, 'the thread had the turn mid-transaction');
    });
    await thread.take(20);
    thread.give();
    await assert.rejects(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('t').values({ x: 3 }).execute();
        throw new Error('changed its mind');
      }),
      /changed its mind/,
    );
    await thread.take(20);
    thread.give();
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { runConcurrently } from '../../src/store/concurrentIndexes.ts';
import { skipWithout } from '../helpers/components.ts';
import { createStoreTarget, type StoreTarget } from '../helpers/stores.ts';

/**
 * Index migrations run outside a transaction on PostgreSQL (`-- cardapply:concurrently`): run twice
 * or by several processes at once, each index ends up built once and valid; an invalid one left by
 * a build that failed is dropped and built again; anything but the two index statements is refused.
 */
const FILE = `-- cardapply:concurrently
-- a comment; and a statement over two lines
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS items_value ON items (value);
CREATE INDEX CONCURRENTLY IF NOT EXISTS items_group
  ON items (grp, value DESC);
DROP INDEX CONCURRENTLY IF EXISTS items_old;
`;

describe('concurrent index migrations on postgres', { skip: skipWithout('postgres') }, () => {
  let target: StoreTarget;
  let pool: pg.Pool;
  before(async () => {
    target = createStoreTarget('postgres');
    pool = new pg.Pool({ connectionString: target.directUrl, max: 6 });
    const schema = target.schema!;
    await pool.query(`CREATE SCHEMA "${schema}"`);
    await pool.query(`CREATE TABLE "${schema}".items (id serial PRIMARY KEY, grp int, value int)`);
    await pool.query(
      `INSERT INTO "${schema}".items (grp, value) SELECT i % 7, i FROM generate_series(1, 5000) i`,
    );
    await pool.query(`CREATE INDEX items_old ON "${schema}".items (grp)`);
  });
  after(async () => {
    await pool.end();
    await target.cleanup();
  });

  const indexes = async () =>
    (
      await pool.query<{ name: string; valid: boolean }>(
        `SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i
           JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = $1 ORDER BY 1`,
        [target.schema],
      )
    ).rows;
  const run = async () => {
    const client = await pool.connect();
    try {
      await runConcurrently(client, target.schema!, FILE);
    } finally {
      client.release();
    }
  };

  // Several rounds: the three runs race to drop the same invalid index, and PostgreSQL fails all but
  // one of them in ways that vary with timing (a deadlock, "tuple concurrently updated"); each
  // round gives those races another chance to show.
  const ROUNDS = 4;

  test('an invalid index left by a failed build is rebuilt; three at once and once more change nothing', async () => {
    const schema = target.schema!;
    const expected = [
      { name: 'items_group', valid: true },
      { name: 'items_pkey', valid: true },
      { name: 'items_value', valid: true },
    ];
    for (let round = 0; round < ROUNDS; round++) {
      await pool.query(`DROP INDEX IF EXISTS "${schema}".items_value`);
      if (round > 0) await pool.query(`CREATE INDEX items_old ON "${schema}".items (grp)`);
      // A unique build over a duplicate fails and leaves an invalid index of that name behind.
      await pool.query(`INSERT INTO "${schema}".items (grp, value) VALUES (0, 1)`);
      await assert.rejects(
        pool.query(`CREATE UNIQUE INDEX CONCURRENTLY items_value ON "${schema}".items (value)`),
      );
      assert.deepEqual(
        (await indexes()).find((i) => i.name === 'items_value'),
        { name: 'items_value', valid: false },
      );
      await pool.query(`DELETE FROM "${schema}".items WHERE id = (SELECT max(id) FROM "${schema}".items)`);

      await Promise.all([run(), run(), run()]);
      assert.deepEqual(await indexes(), expected, `round ${round}`);
    }
    await run();
    assert.deepEqual(await indexes(), expected);
    await assert.rejects(
      pool.query(`INSERT INTO "${schema}".items (grp, value) VALUES (0, 2)`),
      /duplicate key/,
      'the rebuilt index is unique and in use',
    );
  });

  test('a file with any other statement is refused before anything runs', async () => {
    const client = await pool.connect();
    try {
      await assert.rejects(
        runConcurrently(client, target.schema!, `-- cardapply:concurrently\nDROP TABLE items;\n`),
        /not an index statement/,
      );
    } finally {
      client.release();
    }
    assert.equal((await indexes()).length, 3);
  });
});

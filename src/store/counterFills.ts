import type { DatabaseSync } from 'node:sqlite';
import type pg from 'pg';

/**
 * Counters that a migration creates empty and that are then filled from what is stored, in short
 * batches (a transaction each) that writers can pass between, newest rows first: a fill in one
 * statement would hold every writer for as long as it reads the whole table (a second and more at
 * 1,000,000 applications).
 *
 * A fill is a row of `counter_fills`: its triggers count the rows whose key is at or above `below`;
 * each batch, under the write lock of the table (SHARE ROW EXCLUSIVE on PostgreSQL, the one writer
 * of SQLite), counts the BATCH rows just under it and lowers it past them, in the same transaction,
 * so that every row is counted once: by the batch as it is then, or by the triggers after. Done
 * when `below` is LOWEST. The migration runner runs every unfinished fill
 * after the migrations (a fill cut short by a crash goes on at the next start); concurrent runners
 * take batches in turn.
 */
export const FILL_BATCH = 20_000;
/**
 * SQLite's write lock has no queue: a writer waiting for it sleeps in its busy handler and tries
 * again, after sleeps that grow to 100 ms, so batches run back to back keep it out until the fill
 * ends (measured at 1,000,000 applications: 0.56 s, the whole fill of the counts per day). Between
 * batches the fill leaves the lock free this long, which lets in every writer that waited for the
 * batch (measured: 35 to 55 ms at most, for 5 s more per fill). PostgreSQL queues lock requests:
 * there a writer goes before the next batch without a pause.
 */
const SQLITE_FILL_PAUSE_MS = 100;
const pause = new Int32Array(new SharedArrayBuffer(4));
/** Lower than any key: -(2^63 - 1), which both stores read exactly. */
const LOWEST = '-9223372036854775807';

interface Fill {
  table: string;
  key: string;
  /** Adds the counts of the rows whose key is in [:from, :below). */
  count: { sqlite: string; postgres: string };
}

const FILLS: Record<string, Fill> = {
  application_counts: {
    table: 'applications',
    key: 'created_at',
    count: {
      sqlite: `INSERT INTO application_counts (app_id, status, n)
        SELECT app_id, status, count(*) FROM applications
         WHERE created_at >= :from AND created_at < :below GROUP BY 1, 2
        ON CONFLICT (app_id, status) DO UPDATE SET n = n + excluded.n`,
      postgres: `INSERT INTO application_counts (app_id, status, shard, n)
        SELECT app_id, status, 0, count(*) FROM applications
         WHERE created_at >= $1 AND created_at < $2 GROUP BY 1, 2
        ON CONFLICT (app_id, status, shard) DO UPDATE SET n = application_counts.n + EXCLUDED.n`,
    },
  },
  application_days: {
    table: 'applications',
    key: 'created_at',
    count: {
      sqlite: `INSERT INTO application_days (app_id, day, status, n)
        SELECT app_id, created_at / 86400000, status, count(*) FROM applications
         WHERE created_at >= :from AND created_at < :below GROUP BY 1, 2, 3
        ON CONFLICT (app_id, day, status) DO UPDATE SET n = n + excluded.n`,
      postgres: `INSERT INTO application_days (app_id, day, status, shard, n)
        SELECT app_id, created_at / 86400000, status, 0, count(*) FROM applications
         WHERE created_at >= $1 AND created_at < $2 GROUP BY 1, 2, 3
        ON CONFLICT (app_id, day, status, shard) DO UPDATE SET n = application_days.n + EXCLUDED.n`,
    },
  },
};

/** The key of the BATCH-th row under `below`, newest first: the next `below`; LOWEST when fewer. */
const nextBelow = (fill: Fill, parameter: string, below: string) =>
  `SELECT ${fill.key} AS key FROM ${fill.table} WHERE ${fill.key} < ${below}
    ORDER BY ${fill.key} DESC LIMIT 1 OFFSET ${parameter}`;

/**
 * Called after each batch has committed, with the fill's name and its new `below` (LOWEST when the
 * fill is done): for progress, and for tests that write between batches. What it throws stops the
 * fill there, as a crash would; the next run goes on from that `below`.
 */
export type OnBatch = (name: string, below: string) => void;

/** Every unfinished fill, to the end. Returns the batches run. */
export function fillSqlite(database: DatabaseSync, batch = FILL_BATCH, onBatch?: OnBatch): number {
  const exists = database
    .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'counter_fills'`)
    .get();
  if (exists === undefined) return 0;
  const unfinished = database
    .prepare(`SELECT name FROM counter_fills WHERE below <> ${LOWEST} ORDER BY name`)
    .all() as { name: string }[];
  let batches = 0;
  for (const { name } of unfinished) {
    const fill = FILLS[name]!;
    for (;;) {
      let below: string;
      database.exec('BEGIN IMMEDIATE');
      try {
        const state = database
          .prepare(`SELECT CAST(below AS TEXT) AS below FROM counter_fills WHERE name = ?`)
          .get(name) as { below: string } | undefined;
        if (state === undefined || state.below === LOWEST) {
          database.exec('COMMIT');
          break;
        }
        // Literals, not bound numbers: node:sqlite binds a number as a REAL, which loses digits.
        const found = database.prepare(nextBelow(fill, String(batch - 1), state.below)).get() as
          { key: number | bigint } | undefined;
        const from = found === undefined ? LOWEST : String(found.key);
        database.exec(fill.count.sqlite.replace(':from', from).replace(':below', state.below));
        database.prepare(`UPDATE counter_fills SET below = ${from} WHERE name = ?`).run(name);
        database.exec('COMMIT');
        batches += 1;
        below = from;
      } catch (error) {
        database.exec('ROLLBACK');
        throw error;
      }
      onBatch?.(name, below);
      // Synchronous, as the whole runner is: the service migrates before it listens.
      if (below !== LOWEST) Atomics.wait(pause, 0, 0, SQLITE_FILL_PAUSE_MS);
    }
  }
  return batches;
}

/** Every unfinished fill of `schema`, to the end, through `client` (search_path set to it). */
export async function fillPostgres(
  client: pg.PoolClient,
  schema: string,
  batch = FILL_BATCH,
  onBatch?: (name: string, below: string) => Promise<void> | void,
): Promise<number> {
  const exists = await client.query<{ found: string | null }>('SELECT to_regclass($1) AS found', [
    `"${schema}".counter_fills`,
  ]);
  if (exists.rows[0]?.found == null) return 0;
  // Without a lock first: a finished fill (every start but the one after its migration) takes none.
  const unfinished = await client.query<{ name: string }>(
    `SELECT name FROM "${schema}".counter_fills WHERE below <> ${LOWEST} ORDER BY name`,
  );
  let batches = 0;
  for (const { name } of unfinished.rows) {
    const fill = FILLS[name]!;
    for (;;) {
      let filled: string;
      await client.query('BEGIN');
      try {
        await client.query(`SET LOCAL search_path TO "${schema}"`);
        await client.query(`LOCK TABLE ${fill.table} IN SHARE ROW EXCLUSIVE MODE`);
        const state = await client.query<{ below: string }>(
          'SELECT below::text AS below FROM counter_fills WHERE name = $1 FOR UPDATE',
          [name],
        );
        const below = state.rows[0]?.below;
        if (below === undefined || below === LOWEST) {
          await client.query('COMMIT');
          break;
        }
        const found = await client.query<{ key: string }>(nextBelow(fill, '$1', '$2::bigint'), [
          batch - 1,
          below,
        ]);
        const from = found.rows[0]?.key ?? LOWEST;
        await client.query(fill.count.postgres, [from, below]);
        await client.query('UPDATE counter_fills SET below = $1 WHERE name = $2', [from, name]);
        await client.query('COMMIT');
        batches += 1;
        filled = from;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
      await onBatch?.(name, filled);
    }
  }
  return batches;
}

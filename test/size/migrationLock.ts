import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { migratePostgres, migrateSqlite } from '../../src/store/migrate.ts';
import { openSqliteConnection } from '../../src/store/sqliteConnection.ts';
import { SQLITE_FILE } from '../../src/store/connect.ts';
import { createStoreTarget } from '../helpers/stores.ts';
import { growPostgres, growSqlite } from './growTables.ts';

/**
 * `node test/size/migrationLock.ts <sqlite|postgres> [count]`: how long issue 28's migrations
 * (0035 indexes, 0036 kept counts, 0050 workload hours, 0051 counts per day of creation), the
 * history's move into the events (0066, 0067) and the partial reference indexes (0068) keep a
 * writer waiting on a store of `count` applications, and that they run twice without harm.
 *
 * The store is migrated, set back to before 0035 (its indexes, tables and triggers removed, the two
 * indexes it drops made again, the events without the history's columns), grown (the history in
 * application_transitions, as then), then migrated again while a writer inserts an application
 * every 10 ms (on SQLite from a thread of its own, through a connection of its own): the longest
 * insert is the longest wait. Each step's wait is the longest part of an insert that fell while it
 * ran (the insert's time overlapping the step's): a migration from its start to its commit, then
 * each fill, told apart by a watcher that reads every 5 ms which fill is unfinished first
 * (counterFills.ts runs them by name). Then the kept counters must equal counting the rows, and a
 * second run must apply nothing.
 */
const storeName = process.argv[2] === 'postgres' ? 'postgres' : 'sqlite';
const count = Number(process.argv[3] ?? 1_000_000);
const MEASURED = [35, 36, 50, 51, 66, 67, 68];
const TRIGGERS = [
  ['application_counts_insert', 'applications'],
  ['application_counts_update', 'applications'],
  ['application_counts_delete', 'applications'],
  ['application_days_insert', 'applications'],
  ['application_days_update', 'applications'],
  ['application_days_delete', 'applications'],
  ['workload_arrivals_insert', 'applications'],
  ['workload_arrivals_update', 'applications'],
  ['workload_arrivals_delete', 'applications'],
  ['workload_decisions_insert', 'events'],
  ['workload_decisions_update', 'events'],
  ['workload_decisions_delete', 'events'],
  ['events_history_of_earlier_version', 'events'],
];
const HISTORY_COLUMNS = ['from_status', 'to_status', 'actor', 'reason', 'reason_codes', 'details'];
const FUNCTIONS = [
  'application_counts_add',
  'application_days_add',
  'workload_arrivals_add',
  'workload_decisions_add',
  'workload_decision_moved',
  'events_history_of_earlier_version',
  'workload_hours_since',
];
const undo = (dialect: 'sqlite' | 'postgres') => `
  DROP INDEX IF EXISTS events_app_type; DROP INDEX IF EXISTS deliveries_endpoint_created;
  DROP INDEX IF EXISTS applications_app_status_created; DROP INDEX IF EXISTS applications_status_created_serial;
  DROP INDEX IF EXISTS applications_external_created; DROP INDEX IF EXISTS audit_log_actor_action_at;
  DROP INDEX IF EXISTS applications_external_id_created; DROP INDEX IF EXISTS applications_active_external_id_set;
  CREATE UNIQUE INDEX IF NOT EXISTS applications_active_external_id_key ON applications (app_id, active_external_id);
  DROP INDEX IF EXISTS audit_log_target_type; DROP INDEX IF EXISTS audit_log_target_id;
  CREATE INDEX applications_status_created ON applications (status, created_at);
  CREATE INDEX applications_external_id ON applications (app_id, external_id, created_at);
  ${TRIGGERS.map(([name, table]) => `DROP TRIGGER IF EXISTS ${name}${dialect === 'postgres' ? ` ON ${table}` : ''};`).join(' ')}
  DROP TABLE application_counts; DROP TABLE application_days; DROP TABLE workload_hours;
  DROP TABLE counter_fills;
  ${dialect === 'postgres' ? FUNCTIONS.map((name) => `DROP FUNCTION IF EXISTS ${name};`).join(' ') : ''}
  ${HISTORY_COLUMNS.map((column) => `ALTER TABLE events DROP COLUMN ${column};`).join(' ')}
  DELETE FROM schema_migrations WHERE version IN (${MEASURED.join(', ')});`;

/** An application row of the lock's app, as the writer inserts it; `$1` its number, `$2` now. */
const INSERT = `INSERT INTO applications (busi_water_no, app_id, status, cert_type, cert_hash, active_cert_hash,
    card_no_hash, card_no_masked, payload_enc, key_id, version, created_at, updated_at, cert_hash_version)
  VALUES ('W' || $1, 'app_lock', 'SUBMITTED', '00', 'wh' || $1, 'wh' || $1, 'wc' || $1, '622202******1234',
    'lock-writer', 't1', 1, $2, $2, 2)`;

/**
 * What the kept counters must equal: counting the rows (the workload's hours: those of the last
 * seven days, which is what it reads). Each query returns one row per key, `n` its count.
 */
const RECOUNTS: [string, string, string][] = [
  [
    'application_counts',
    'SELECT app_id, status, sum(n) AS n FROM application_counts GROUP BY 1, 2 HAVING sum(n) <> 0',
    'SELECT app_id, status, count(*) AS n FROM applications GROUP BY 1, 2',
  ],
  [
    'application_days',
    'SELECT app_id, day, status, sum(n) AS n FROM application_days GROUP BY 1, 2, 3 HAVING sum(n) <> 0',
    'SELECT app_id, created_at / 86400000 AS day, status, count(*) AS n FROM applications GROUP BY 1, 2, 3',
  ],
  [
    'workload arrivals',
    'SELECT hour, sum(arrivals) AS n FROM workload_hours WHERE hour >= :since / 3600000 GROUP BY 1 HAVING sum(arrivals) <> 0',
    'SELECT created_at / 3600000 AS hour, count(*) AS n FROM applications WHERE created_at >= :since / 3600000 * 3600000 GROUP BY 1',
  ],
  [
    'workload decisions',
    'SELECT hour, sum(decisions) AS n FROM workload_hours WHERE hour >= :since / 3600000 GROUP BY 1 HAVING sum(decisions) <> 0',
    `SELECT created_at / 3600000 AS hour, count(*) AS n FROM events
      WHERE type IN ('application.approved', 'application.rejected') AND created_at >= :since / 3600000 * 3600000
      GROUP BY 1`,
  ],
  [
    'history in events',
    'SELECT busi_water_no, count(*) AS n FROM events WHERE to_status IS NOT NULL GROUP BY 1',
    'SELECT busi_water_no, count(*) AS n FROM application_transitions GROUP BY 1',
  ],
];
const sameRows = (a: Record<string, unknown>[], b: Record<string, unknown>[]) => {
  const key = (rows: Record<string, unknown>[]) =>
    rows.map((row) => Object.values(row).map(String).join('|')).sort();
  return JSON.stringify(key(a)) === JSON.stringify(key(b));
};

/**
 * An insert of the writer: when it began, when it had the lock (SQLite: BEGIN IMMEDIATE returned;
 * PostgreSQL: the insert returned) and when it was committed (ms since the epoch). On SQLite the
 * commit can take long without any wait: the commit that passes the WAL's checkpoint threshold
 * copies the WAL into the file, hundreds of megabytes after 0035's indexes.
 */
interface Write {
  start: number;
  end: number;
  committed: number;
}
interface Step {
  name: string;
  start: number;
  end: number;
}
/** The fill the fills are at: the first unfinished by name, as counterFills.ts runs them. */
const RUNNING_FILL = `SELECT min(name) AS name FROM counter_fills WHERE below <> -9223372036854775807`;
const now = () => performance.timeOrigin + performance.now();

/**
 * The steps of the fills, from the watcher's readings (when, which fill unfinished first) between
 * the last migration's commit and the end of the run.
 */
function fillSteps(readings: { at: number; fill: string | null }[], from: number, to: number): Step[] {
  const steps: Step[] = [];
  // From the fill unfinished first when the last migration committed.
  const first = readings.findLastIndex(({ at }) => at <= from);
  for (const { at: read, fill } of readings.slice(Math.max(first, 0))) {
    const at = Math.max(read, from);
    if (at > to) continue;
    const last = steps.at(-1);
    if (last?.name === fill) continue;
    if (last !== undefined) last.end = at;
    if (fill !== null) steps.push({ name: fill, start: last === undefined ? from : at, end: to });
  }
  return steps.map((step) => ({ ...step, name: `fill ${step.name}` }));
}

/** Per step: how long it ran and the longest part of an insert that overlapped it. */
function waits(steps: Step[], writes: Write[]): string {
  return steps
    .map(({ name, start, end }) => {
      const overlap = (w: Write) => Math.min(w.end, end) - Math.max(w.start, start);
      const longest = writes.reduce<Write | undefined>(
        (found, w) => (overlap(w) > (found === undefined ? 0 : overlap(found)) ? w : found),
        undefined,
      );
      const held = longest === undefined ? 0 : overlap(longest);
      // An insert that began waiting before the step (for an earlier one) says so.
      const since =
        longest !== undefined && longest.start < start
          ? `, an insert begun ${Math.round(start - longest.start)} ms before it`
          : '';
      return `  ${name} ran ${Math.round(end - start)} ms, held the writer up to ${Math.round(held)} ms${since}`;
    })
    .join('\n');
}

const growth = { count, apps: ['app_lock'], operator: 'operator:lock', now: Date.now() };
const target = createStoreTarget(storeName);
const since = Date.now() - 7 * 86_400_000;
try {
  if (storeName === 'sqlite') {
    const file = join(target.dataDir, SQLITE_FILE);
    const database = openSqliteConnection(file);
    migrateSqlite(database);
    database.exec(undo('sqlite'));
    database.exec(
      `INSERT INTO apps (app_id, name, status, created_at, updated_at) VALUES ('app_lock', 'lock', 'active', 0, 0)`,
    );
    growSqlite(database, growth);
    // Two threads of their own, each with its own connection: the writer, and the watcher, which
    // reads (never waiting: WAL) which fill is unfinished first, and keeps each change.
    const thread = (role: 'writer' | 'watcher') =>
      new Worker(
        `const { parentPort, workerData } = require('node:worker_threads');
         const { DatabaseSync } = require('node:sqlite');
         const db = new DatabaseSync(workerData.file);
         db.exec('PRAGMA busy_timeout = 600000');
         const insert = db.prepare(workerData.insert.replaceAll('$1', '?1').replaceAll('$2', '?2'));
         const now = () => performance.timeOrigin + performance.now();
         const running = () => {
           try { return db.prepare(workerData.running).get().name; } catch { return null; }
         };
         let stop = false;
         const kept = [];
         parentPort.on('message', () => { stop = true; });
         (async () => {
           while (!stop) {
             if (workerData.role === 'writer') {
               const start = now();
               db.exec('BEGIN IMMEDIATE');
               const end = now();
               insert.run(String(kept.length), Date.now());
               db.exec('COMMIT');
               kept.push({ start, end, committed: now() });
               await new Promise((resolve) => setTimeout(resolve, 10));
             } else {
               const fill = running();
               if (kept.at(-1)?.fill !== fill) kept.push({ at: now(), fill });
               await new Promise((resolve) => setTimeout(resolve, 5));
             }
           }
           db.close();
           parentPort.postMessage(kept);
         })();`,
        { eval: true, workerData: { file, insert: INSERT, running: RUNNING_FILL, role } },
      );
    const stopped = async <T>(worker: Worker): Promise<T> => {
      const done = new Promise<T>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      worker.postMessage('stop');
      const result = await done;
      await worker.terminate();
      return result;
    };
    const writer = thread('writer');
    const watcher = thread('watcher');
    await new Promise((resolve) => setTimeout(resolve, 500));
    let last = now();
    const steps: Step[] = [];
    const applied = migrateSqlite(database, (m) => {
      steps.push({ name: `${m.version} ${m.name}`, start: last, end: now() });
      last = now();
    });
    const ended = now();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const writes = await stopped<Write[]>(writer);
    const readings = await stopped<{ at: number; fill: string | null }[]>(watcher);
    const longest = Math.max(...writes.map((w) => w.end - w.start));
    const slowest = Math.max(...writes.map((w) => w.committed - w.start));
    console.log(
      `sqlite, ${count} applications: applied ${applied.join(', ')}; the fills ${Math.round(ended - last)} ms`,
    );
    console.log(waits([...steps, ...fillSteps(readings, last, ended)], writes));
    console.log(
      `${writes.length} writes meanwhile, the longest wait ${Math.round(longest)} ms, ` +
        `the longest from BEGIN to COMMIT ${Math.round(slowest)} ms`,
    );
    for (const [name, kept, counted] of RECOUNTS) {
      const rows = (sql: string) =>
        database.prepare(sql.replaceAll(':since', String(since))).all() as Record<string, unknown>[];
      console.log(`${name}: ${sameRows(rows(kept), rows(counted)) ? 'equal to' : 'DIFFERENT from'} counting`);
    }
    console.log(`again: applied [${migrateSqlite(database).join(', ')}]`);
    database.close();
  } else {
    const schema = target.schema!;
    const pool = new pg.Pool({ connectionString: target.directUrl, max: 4 });
    await migratePostgres(pool, schema);
    const client = await pool.connect();
    await client.query(`SET search_path TO "${schema}"`);
    await client.query(undo('postgres'));
    await client.query(
      `INSERT INTO apps (app_id, name, status, created_at, updated_at) VALUES ('app_lock', 'lock', 'active', 0, 0)`,
    );
    await client.query('RESET search_path');
    client.release();
    await growPostgres(pool, schema, growth);
    let writing = true;
    const writes: Write[] = [];
    const readings: { at: number; fill: string | null }[] = [];
    const loop = async (work: (own: pg.PoolClient) => Promise<void>, pause: number) => {
      const own = await pool.connect();
      await own.query(`SET search_path TO "${schema}"`);
      try {
        while (writing) {
          await work(own);
          await new Promise((resolve) => setTimeout(resolve, pause));
        }
      } finally {
        await own.query('RESET search_path');
        own.release();
      }
    };
    const writer = loop(async (own) => {
      const start = now();
      await own.query(INSERT, [String(writes.length), Date.now()]);
      writes.push({ start, end: now(), committed: now() });
    }, 10);
    // Which fill is unfinished first (absent before 0036 is committed): never waits for a lock.
    const watcher = loop(async (own) => {
      const row = await own.query<{ name: string | null }>(RUNNING_FILL).catch(() => undefined);
      const fill = row?.rows[0]?.name ?? null;
      if (readings.at(-1)?.fill !== fill) readings.push({ at: now(), fill });
    }, 5);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const started = now();
    let last = started;
    const steps: Step[] = [];
    const applied = await migratePostgres(pool, schema, (m) => {
      steps.push({ name: `${m.version} ${m.name}`, start: last, end: now() });
      last = now();
    }).finally(() => setTimeout(() => (writing = false), 500));
    const ended = now();
    const took = Math.round(ended - started);
    await Promise.all([writer, watcher]);
    const longest = Math.max(...writes.map((w) => w.end - w.start));
    console.log(
      `postgres, ${count} applications: applied ${applied.join(', ')} in ${took} ms; the fills ${Math.round(ended - last)} ms`,
    );
    console.log(waits([...steps, ...fillSteps(readings, last, ended)], writes));
    console.log(`${writes.length} writes meanwhile, the longest ${Math.round(longest)} ms`);
    const check = await pool.connect();
    await check.query(`SET search_path TO "${schema}"`);
    for (const [name, kept, counted] of RECOUNTS) {
      const rows = async (sql: string) => (await check.query(sql.replaceAll(':since', String(since)))).rows;
      console.log(
        `${name}: ${sameRows(await rows(kept), await rows(counted)) ? 'equal to' : 'DIFFERENT from'} counting`,
      );
    }
    await check.query('RESET search_path');
    check.release();
    console.log(`again: applied [${(await migratePostgres(pool, schema)).join(', ')}]`);
    await pool.end();
  }
} finally {
  await target.cleanup();
}

import type { DatabaseSync } from 'node:sqlite';
import type pg from 'pg';

/**
 * Grows a migrated store to a year of a busy service, by SQL (not through the API, which would take
 * hours): `count` applications spread over the last 365 days across `apps`, each with its events
 * (one for the submission, one more for its current status unless still submitted), which carry
 * its history (a store from before migration 0066: the history in application_transitions),
 * a webhook delivery for every event of every other application, and an audit row for every other
 * decision plus a reveal by `operator` for every tenth application. Most applications are final
 * (delivered, rejected, cancelled, expired), as in a service that has run for a while.
 *
 * Values are sequential (serials `S000…i`, hashes `h…i`), so that each index grows at its end.
 * Times are milliseconds; the newest application is a minute before `now`. The endpoints are
 * disabled: new events are not sent anywhere while a request is timed.
 */
export interface Growth {
  count: number;
  apps: readonly string[];
  /** One webhook endpoint per app: `we_size_<index of the app>`. */
  operator: string;
  now: number;
}

export const SPACING_MS = 31_000;
const GROWN_TABLES = ['applications', 'application_transitions', 'events', 'deliveries', 'audit_log'];
export const endpointOf = (appIndex: number) => `we_size_${appIndex}`;

/** The status of application `i` (by i % 100), as SQL both dialects read. */
const STATUS_OF = `CASE
    WHEN i % 100 < 55 THEN 'DELIVERED' WHEN i % 100 < 70 THEN 'REJECTED'
    WHEN i % 100 < 80 THEN 'CANCELLED' WHEN i % 100 < 84 THEN 'EXPIRED'
    WHEN i % 100 < 88 THEN 'SHIPPED' WHEN i % 100 < 90 THEN 'CARD_ISSUED'
    WHEN i % 100 < 92 THEN 'APPROVED' WHEN i % 100 < 96 THEN 'SUBMITTED'
    WHEN i % 100 < 99 THEN 'IN_REVIEW' ELSE 'SUPPLEMENT_REQUIRED' END`;
const FINAL = `('DELIVERED', 'REJECTED', 'CANCELLED', 'EXPIRED')`;

/**
 * Both dialects, from a source of rows `g(i, app, created)` and the dialect's text helpers; the
 * history in the events (`inEvents`), or beside them as before migration 0066.
 */
function statements(
  d: { pad: (expr: string, width: number) => string; hex32: (expr: string) => string },
  inEvents: boolean,
) {
  const serial = `'S' || ${d.pad('g.i', 31)}`;
  const event = (k: string) => `'evt_' || ${d.hex32(`2 * g.i + ${k}`)}`;
  const updated = `CASE WHEN s.status = 'SUBMITTED' THEN g.created ELSE g.created + 3600000 * (1 + g.i % 48) END`;
  const payload = (row: string, status: string, previous: string) =>
    `'{"busi_water_no":"' || ${serial.replaceAll('g.', `${row}.`)} || '","status":"' || ${status} ||
      '","previous_status":${previous},"reason":null,"reason_codes":[],"card_no_masked":"622202******1234",' ||
      '"external_id":"ext-' || ${row}.i || '"}'`;
  const rows = `(SELECT g.i, g.app, g.created, ${STATUS_OF.replaceAll('i %', 'g.i %')} AS status FROM g) s`;
  const history = inEvents ? ', from_status, to_status, actor' : '';
  return [
    `INSERT INTO applications (busi_water_no, app_id, status, cert_type, cert_hash, active_cert_hash,
       card_no_hash, card_no_masked, payload_enc, key_id, version, created_at, updated_at,
       external_id, active_external_id, cert_hash_version)
     SELECT ${serial.replaceAll('g.', 's.')}, s.app, s.status, '00', 'h' || s.i,
       CASE WHEN s.status IN ${FINAL} THEN NULL ELSE 'h' || s.i END,
       'c' || s.i, '622202******1234', 'size-fixture', 't1', 1, s.created,
       ${updated.replaceAll('g.', 's.')}, 'ext-' || s.i,
       CASE WHEN s.status IN ${FINAL} THEN NULL ELSE 'ext-' || s.i END, 2
     FROM ${rows}`,
    ...(inEvents
      ? []
      : [
          `INSERT INTO application_transitions (busi_water_no, from_status, to_status, actor, at)
           SELECT ${serial}, NULL, 'SUBMITTED', 'caller:' || g.app, g.created FROM g`,
          `INSERT INTO application_transitions (busi_water_no, from_status, to_status, actor, at)
           SELECT ${serial.replaceAll('g.', 's.')}, 'IN_REVIEW', s.status, 'operator:size', ${updated.replaceAll('g.', 's.')}
           FROM ${rows} WHERE s.status <> 'SUBMITTED'`,
        ]),
    `INSERT INTO events (event_id, app_id, busi_water_no, type, payload, created_at, seq, fanned_out_at${history})
     SELECT ${event('0')}, g.app, ${serial}, 'application.submitted', ${payload('g', "'SUBMITTED'", 'null')}, g.created, 1, g.created
       ${inEvents ? `, NULL, 'SUBMITTED', 'caller:' || g.app` : ''} FROM g`,
    `INSERT INTO events (event_id, app_id, busi_water_no, type, payload, created_at, seq, fanned_out_at${history})
     SELECT ${event('1').replaceAll('g.', 's.')}, s.app, ${serial.replaceAll('g.', 's.')},
       'application.' || lower(s.status), ${payload('s', 's.status', '"IN_REVIEW"')}, ${updated.replaceAll('g.', 's.')}, 2,
       ${updated.replaceAll('g.', 's.')}${inEvents ? `, 'IN_REVIEW', s.status, 'operator:size'` : ''}
     FROM ${rows} WHERE s.status <> 'SUBMITTED'`,
    `INSERT INTO deliveries (id, event_id, endpoint_id, status, attempt_count, next_attempt_at, give_up_at,
       delivered_at, created_at, updated_at)
     SELECT 'dlv_' || e.event_id, e.event_id, e.endpoint, CASE WHEN e.n % 50 = 0 THEN 'failed' ELSE 'delivered' END,
       1, e.created_at, e.created_at + 86400000, e.created_at + 1000, e.created_at, e.created_at + 1000
     FROM (SELECT ev.event_id, ev.created_at, g.endpoint, g.i AS n FROM g JOIN events ev
             ON ev.busi_water_no = ${serial} WHERE g.i % 2 = 0) e`,
    `INSERT INTO audit_log (at, actor, action, target_type, target_id, details, source)
     SELECT ${updated.replaceAll('g.', 's.')}, 'operator:size', 'application.transition', 'application',
       ${serial.replaceAll('g.', 's.')}, '{}', 'size'
     FROM ${rows} WHERE s.status <> 'SUBMITTED' AND s.i % 2 = 0`,
  ];
}

export async function growPostgres(pool: pg.Pool, schema: string, growth: Growth): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query(`SET search_path TO "${schema}"`);
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO webhook_endpoints (id, app_id, url, status, created_at, updated_at)
       SELECT 'we_size_' || (k - 1), app, 'https://hooks.example.com/size', 'disabled', $2, $2
       FROM unnest($1::text[]) WITH ORDINALITY AS a (app, k)`,
      [growth.apps, growth.now - 400 * 86_400_000],
    );
    const g = `WITH g AS (SELECT i, ($1::text[])[1 + i % $2] AS app, 'we_size_' || (i % $2) AS endpoint,
        $3::bigint - ($4::bigint - i) * ${SPACING_MS} AS created FROM generate_series(1, $4::int) AS i) `;
    const parameters = [growth.apps, growth.apps.length, growth.now - 60_000, growth.count];
    const inEvents = await client.query(
      `SELECT 1 FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'events' AND column_name = 'to_status'`,
      [schema],
    );
    const sqls = statements(
      {
        pad: (expr, width) => `lpad((${expr})::text, ${width}, '0')`,
        hex32: (expr) => `lpad(to_hex(${expr}), 32, '0')`,
      },
      inEvents.rowCount === 1,
    );
    // Indexes that are not constraints are built again after the rows, by sorting: many times
    // faster than maintaining them row by row.
    const indexes = await client.query<{ name: string; definition: string }>(
      `SELECT indexname AS name, indexdef AS definition FROM pg_indexes i
        WHERE schemaname = $1 AND tablename = ANY($2)
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname AND c.connamespace = $1::regnamespace)`,
      [schema, GROWN_TABLES],
    );
    for (const { name } of indexes.rows) await client.query(`DROP INDEX "${name}"`);
    for (const sql of sqls) await client.query(g + sql, parameters);
    await client.query(`SET LOCAL maintenance_work_mem = '256MB'`);
    for (const { definition } of indexes.rows) await client.query(definition);
    await client.query(
      `INSERT INTO audit_log (at, actor, action, target_type, target_id, details, source)
       SELECT $1::bigint - i::bigint * 60000, $2, 'application.reveal', 'application', 'S' || lpad(i::text, 31, '0'),
         '{}', 'size' FROM generate_series(1, $3::int / 10) AS i`,
      [growth.now - 2 * 3_600_000, growth.operator, growth.count],
    );
    await client.query('COMMIT');
    await client.query('ANALYZE');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    await client.query('RESET search_path');
    client.release();
  }
}

/**
 * The counters the store keeps by triggers (migrations 0036, 0050, 0051), counted again from the
 * rows, as their migrations fill them: what the triggers would have counted, row by row (those
 * that exist: the migration lock script grows a store from before them).
 */
const RECOUNT_SQLITE: Record<string, string> = {
  application_counts: `DELETE FROM application_counts;
    INSERT INTO application_counts (app_id, status, n)
      SELECT app_id, status, count(*) FROM applications GROUP BY 1, 2`,
  application_days: `DELETE FROM application_days;
    INSERT INTO application_days (app_id, day, status, n)
      SELECT app_id, created_at / 86400000, status, count(*) FROM applications GROUP BY 1, 2, 3`,
  workload_hours: `DELETE FROM workload_hours;
    INSERT INTO workload_hours (hour, arrivals)
      SELECT created_at / 3600000, count(*) FROM applications
       WHERE created_at >= unixepoch() * 1000 - 691200000 GROUP BY 1;
    INSERT INTO workload_hours (hour, decisions)
      SELECT created_at / 3600000, count(*) FROM events
       WHERE type IN ('application.approved', 'application.rejected')
         AND created_at >= unixepoch() * 1000 - 691200000 GROUP BY 1
       ON CONFLICT (hour) DO UPDATE SET decisions = excluded.decisions`,
};

export function growSqlite(database: DatabaseSync, growth: Growth): void {
  // A fixture, not a service: a large page cache for the index inserts, and no fsync per page.
  database.exec('PRAGMA cache_size = -400000; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY');
  database.exec('BEGIN IMMEDIATE');
  try {
    database
      .prepare(
        `INSERT INTO webhook_endpoints (id, app_id, url, status, created_at, updated_at)
         SELECT 'we_size_' || key, value, 'https://hooks.example.com/size', 'disabled', ?, ? FROM json_each(?)`,
      )
      .run(growth.now - 400 * 86_400_000, growth.now - 400 * 86_400_000, JSON.stringify(growth.apps));
    // Numbers as literals: node:sqlite binds a number as a REAL.
    const n = growth.apps.length;
    const g = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${growth.count}),
      g AS (SELECT i, json_extract(:apps, '$[' || (i % ${n}) || ']') AS app, 'we_size_' || (i % ${n}) AS endpoint,
        ${growth.now - 60_000} - (${growth.count} - i) * ${SPACING_MS} AS created FROM n) `;
    const parameters = { apps: JSON.stringify(growth.apps) };
    const inEvents = database
      .prepare(`SELECT 1 FROM pragma_table_info('events') WHERE name = 'to_status'`)
      .get();
    const sqls = statements(
      {
        pad: (expr, width) => `printf('%0${width}d', ${expr})`,
        hex32: (expr) => `printf('%032x', ${expr})`,
      },
      inEvents !== undefined,
    );
    const indexes = database
      .prepare(
        `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
          AND tbl_name IN (${GROWN_TABLES.map(() => '?').join(', ')})`,
      )
      .all(...GROWN_TABLES) as { name: string; sql: string }[];
    for (const { name } of indexes) database.exec(`DROP INDEX "${name}"`);
    // The counters' triggers too (row triggers: one upsert per row), the counters recounted after.
    const triggers = database
      .prepare(
        `SELECT name, sql FROM sqlite_master WHERE type = 'trigger'
          AND tbl_name IN (${GROWN_TABLES.map(() => '?').join(', ')})`,
      )
      .all(...GROWN_TABLES) as { name: string; sql: string }[];
    for (const { name } of triggers) database.exec(`DROP TRIGGER "${name}"`);
    for (const sql of sqls) database.prepare(g + sql).run(parameters);
    for (const { sql } of indexes) database.exec(sql);
    for (const [table, sql] of Object.entries(RECOUNT_SQLITE)) {
      const exists = database
        .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`)
        .get(table);
      if (exists !== undefined) database.exec(sql);
    }
    for (const { sql } of triggers) database.exec(sql);
    database
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${Math.floor(growth.count / 10)})
         INSERT INTO audit_log (at, actor, action, target_type, target_id, details, source)
         SELECT ${growth.now - 2 * 3_600_000} - i * 60000, ?, 'application.reveal', 'application', 'S' || printf('%031d', i), '{}', 'size' FROM n`,
      )
      .run(growth.operator);
    database.exec('COMMIT');
    database.exec('ANALYZE');
  } catch (error) {
    database.exec('ROLLBACK');
    throw error;
  }
}

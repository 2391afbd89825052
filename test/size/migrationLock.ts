import { join } from 'node:path';
import pg from 'pg';
import { migratePostgres, migrateSqlite } from '../../src/store/migrate.ts';
import { openSqliteConnection } from '../../src/store/sqliteConnection.ts';
import { SQLITE_FILE } from '../../src/store/connect.ts';
import { createStoreTarget } from '../helpers/stores.ts';
import { growPostgres, growSqlite } from './growTables.ts';

/**
 * `node test/size/migrationLock.ts <sqlite|postgres> [count]`: how long issue 28's migrations
 * (0035 indexes, 0036 kept counts) keep writers waiting on a store of `count` applications.
 *
 * The store is migrated, set back to before 0035 (its indexes, table and triggers removed, the two
 * indexes it drops made again), grown, then migrated again. On PostgreSQL a writer updates an
 * application every 10 ms throughout and the longest wait is reported; on SQLite every migration
 * holds the write lock for its whole transaction, so its duration is the wait. Then the migration
 * runs a second time, which must apply nothing.
 */
const storeName = process.argv[2] === 'postgres' ? 'postgres' : 'sqlite';
const count = Number(process.argv[3] ?? 1_000_000);
const ISSUE_28 = [35, 36];
const UNDO = `
  DROP INDEX IF EXISTS events_app_type; DROP INDEX IF EXISTS deliveries_endpoint_created;
  DROP INDEX IF EXISTS applications_app_status_created; DROP INDEX IF EXISTS applications_status_created_serial;
  DROP INDEX IF EXISTS applications_external_created; DROP INDEX IF EXISTS audit_log_actor_action_at;
  DROP INDEX IF EXISTS audit_log_target_type; DROP INDEX IF EXISTS audit_log_target_id;
  CREATE INDEX applications_status_created ON applications (status, created_at);
  CREATE INDEX applications_external_id ON applications (app_id, external_id, created_at);
  DROP TRIGGER IF EXISTS application_counts_insert ON applications;
  DROP TRIGGER IF EXISTS application_counts_update ON applications;
  DROP TRIGGER IF EXISTS application_counts_delete ON applications;
  DROP TABLE application_counts; DROP FUNCTION IF EXISTS application_counts_add;
  DELETE FROM schema_migrations WHERE version IN (${ISSUE_28.join(', ')});`;
const growth = { count, apps: ['app_lock'], operator: 'operator:lock', now: Date.now() };
const target = createStoreTarget(storeName);
try {
  if (storeName === 'sqlite') {
    const database = openSqliteConnection(join(target.dataDir, SQLITE_FILE));
    migrateSqlite(database);
    database.exec(
      UNDO.replaceAll(' ON applications;', ';').replace(
        ' DROP FUNCTION IF EXISTS application_counts_add;',
        '',
      ),
    );
    database.exec(`INSERT INTO apps VALUES ('app_lock', 'lock', 'active', NULL, NULL, 0, 0)`);
    growSqlite(database, growth);
    let last = performance.now();
    const held: string[] = [];
    const applied = migrateSqlite(database, (m) => {
      held.push(`${m.version} ${m.name}: ${Math.round(performance.now() - last)} ms`);
      last = performance.now();
    });
    console.log(
      `sqlite, ${count} applications: applied ${applied.join(', ')}; write lock held ${held.join('; ')}`,
    );
    console.log(`again: applied [${migrateSqlite(database).join(', ')}]`);
    database.close();
  } else {
    const schema = target.schema!;
    const pool = new pg.Pool({ connectionString: target.directUrl, max: 4 });
    await migratePostgres(pool, schema);
    const client = await pool.connect();
    await client.query(`SET search_path TO "${schema}"`);
    await client.query(UNDO);
    await client.query(`INSERT INTO apps VALUES ('app_lock', 'lock', 'active', NULL, NULL, 0, 0)`);
    await client.query('RESET search_path');
    client.release();
    await growPostgres(pool, schema, growth);
    let writing = true;
    let longest = 0;
    let writes = 0;
    const writer = (async () => {
      while (writing) {
        const started = performance.now();
        await pool.query(
          `UPDATE "${schema}".applications SET updated_at = updated_at WHERE busi_water_no = $1`,
          [`S${String(1 + (writes % count)).padStart(31, '0')}`],
        );
        longest = Math.max(longest, performance.now() - started);
        writes += 1;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const started = performance.now();
    const applied = await migratePostgres(pool, schema).finally(() => (writing = false));
    const took = Math.round(performance.now() - started);
    await writer;
    console.log(
      `postgres, ${count} applications: applied ${applied.join(', ')} in ${took} ms; ${writes} writes meanwhile, the longest ${Math.round(longest)} ms`,
    );
    console.log(`again: applied [${(await migratePostgres(pool, schema)).join(', ')}]`);
    await pool.end();
  }
} finally {
  await target.cleanup();
}

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DatabaseSync } from 'node:sqlite';
import type pg from 'pg';
import { isConcurrent, onSmallTables, runConcurrently, withoutConcurrently } from './concurrentIndexes.ts';
import { fillPostgres, fillSqlite } from './counterFills.ts';

/**
 * Forward-only migrations, numbered, one file per change for each store, kept side by side in
 * `migrations/sqlite` and `migrations/postgres`. Each runs in its own transaction under a lock
 * (BEGIN IMMEDIATE on SQLite, an advisory transaction lock on PostgreSQL) and is recorded in
 * `schema_migrations`, so several instances starting at once migrate exactly once. A PostgreSQL
 * file marked `-- cardapply:concurrently` builds indexes without blocking writes, outside a
 * transaction (concurrentIndexes.ts). Counters that a migration creates empty are then filled in
 * short batches (counterFills.ts), each its own transaction.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export interface MigrationStatus {
  version: number;
  name: string;
  appliedAt: number | null;
}

const MIGRATIONS_ROOT = fileURLToPath(new URL('../../migrations/', import.meta.url));

export function loadMigrations(kind: 'sqlite' | 'postgres'): Migration[] {
  const dir = `${MIGRATIONS_ROOT}${kind}`;
  return readdirSync(dir)
    .filter((file) => /^[0-9]{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 4)),
      name: file.slice(5, -4),
      sql: readFileSync(`${dir}/${file}`, 'utf8'),
    }));
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`;

/** Called after each migration is applied and committed: for progress lines. */
export type OnApplied = (migration: { version: number; name: string }) => void;

export function migrateSqlite(database: DatabaseSync, onApplied?: OnApplied): number[] {
  const applied: number[] = [];
  database.exec(CREATE_TABLE);
  for (const migration of loadMigrations('sqlite')) {
    database.exec('BEGIN IMMEDIATE');
    try {
      const done = database
        .prepare('SELECT 1 FROM schema_migrations WHERE version = ?')
        .get(migration.version);
      if (done === undefined) {
        database.exec(migration.sql);
        database
          .prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
          .run(migration.version, migration.name, Date.now());
        applied.push(migration.version);
      }
      database.exec('COMMIT');
      if (done === undefined) onApplied?.(migration);
    } catch (error) {
      database.exec('ROLLBACK');
      throw error;
    }
  }
  fillSqlite(database);
  return applied;
}

export function sqliteMigrationStatus(database: DatabaseSync): MigrationStatus[] {
  database.exec(CREATE_TABLE);
  const rows = database.prepare('SELECT version, applied_at FROM schema_migrations').all() as {
    version: number;
    applied_at: number;
  }[];
  return withStatus(loadMigrations('sqlite'), rows);
}

/**
 * Through a pooler too: every step is one transaction on one server session, with the schema set by
 * `SET LOCAL search_path` (migration files stay plain SQL) and the lock `pg_advisory_xact_lock`,
 * both ending with the transaction.
 */
export async function migratePostgres(
  pool: pg.Pool,
  schema: string,
  onApplied?: OnApplied,
): Promise<number[]> {
  const applied: number[] = [];
  const client = await pool.connect();
  const inTransaction = async <T>(work: () => Promise<T>): Promise<T> => {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`cardapply.migrate.${schema}`]);
      // The schema is a checked identifier (config.ts): lower-case letters, digits and underscores.
      await client.query(`SET LOCAL search_path TO "${schema}"`);
      const result = await work();
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
  };
  try {
    // Under the lock too: concurrent CREATE ... IF NOT EXISTS of one name can fail (unique violation).
    await inTransaction(async () => {
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await client.query(CREATE_TABLE);
    });
    const isApplied = async (version: number) =>
      (await client.query('SELECT 1 FROM schema_migrations WHERE version = $1', [version])).rowCount !== 0;
    for (const migration of loadMigrations('postgres')) {
      const concurrent =
        isConcurrent(migration.sql) &&
        !(await inTransaction(
          async () =>
            (await onSmallTables(client, schema, migration.sql)) || (await isApplied(migration.version)),
        ));
      if (concurrent) {
        // Outside a transaction (see concurrentIndexes.ts); recorded once, by whoever gets there first.
        if (await inTransaction(() => isApplied(migration.version))) continue;
        await runConcurrently(client, schema, migration.sql);
        const recorded = await inTransaction(async () => {
          const inserted = await client.query(
            `INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)
             ON CONFLICT (version) DO NOTHING`,
            [migration.version, migration.name, Date.now()],
          );
          return inserted.rowCount === 1;
        });
        if (recorded) {
          applied.push(migration.version);
          onApplied?.(migration);
        }
        continue;
      }
      const appliedNow = await inTransaction(async () => {
        if (await isApplied(migration.version)) return false;
        await client.query(isConcurrent(migration.sql) ? withoutConcurrently(migration.sql) : migration.sql);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
          migration.version,
          migration.name,
          Date.now(),
        ]);
        applied.push(migration.version);
        return true;
      });
      if (appliedNow) onApplied?.(migration);
    }
    await fillPostgres(client, schema);
  } finally {
    client.release();
  }
  return applied;
}

/** Read only: a schema never migrated shows every migration pending. */
export async function postgresMigrationStatus(pool: pg.Pool, schema: string): Promise<MigrationStatus[]> {
  const table = `"${schema}".schema_migrations`;
  const exists = await pool.query<{ found: string | null }>('SELECT to_regclass($1) AS found', [table]);
  const rows =
    exists.rows[0]?.found == null
      ? []
      : (
          await pool.query<{ version: number; applied_at: number }>(
            `SELECT version, applied_at FROM ${table}`,
          )
        ).rows;
  return withStatus(loadMigrations('postgres'), rows);
}

function withStatus(
  migrations: Migration[],
  rows: { version: number; applied_at: number }[],
): MigrationStatus[] {
  const appliedAt = new Map(rows.map((row) => [Number(row.version), Number(row.applied_at)]));
  return migrations.map((m) => ({
    version: m.version,
    name: m.name,
    appliedAt: appliedAt.get(m.version) ?? null,
  }));
}

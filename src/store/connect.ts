import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Kysely, PostgresDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.ts';
import { NodeSqliteDialect } from './sqliteDialect.ts';
import {
  migratePostgres,
  migrateSqlite,
  postgresMigrationStatus,
  sqliteMigrationStatus,
  type MigrationStatus,
} from './migrate.ts';
import type { Database } from './tables.ts';

export type StoreKind = 'sqlite' | 'postgres';

/**
 * One data-access layer over both stores. Repositories take a `Kysely<Database>` (or a transaction)
 * and never learn which store is behind it.
 */
export interface Store {
  readonly kind: StoreKind;
  readonly db: Kysely<Database>;
  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T>;
  migrate(): Promise<number[]>;
  migrationStatus(): Promise<MigrationStatus[]>;
  /** Cheap round trip: proves the store answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** Called with errors of idle PostgreSQL connections, which would otherwise crash the process. */
  onBackgroundError?: (error: Error) => void;
}

// BIGINT columns hold millisecond times: they fit a double exactly, so read them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export const SQLITE_FILE = 'cardapply.db';

export function openStore(config: Config, options: StoreOptions = {}): Store {
  return config.databaseUrl === undefined ? openSqlite(config.dataDir) : openPostgres(config, options);
}

function openSqlite(dataDir: string): Store {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const database = new DatabaseSync(join(dataDir, SQLITE_FILE));
  // WAL with synchronous=FULL: a committed transaction survives a crash and a power cut.
  database.exec('PRAGMA journal_mode = WAL');
  database.exec('PRAGMA synchronous = FULL');
  database.exec('PRAGMA busy_timeout = 5000');
  database.exec('PRAGMA foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new NodeSqliteDialect(database) });
  return {
    kind: 'sqlite',
    db,
    transaction: (work) => db.transaction().execute(work),
    migrate: async () => migrateSqlite(database),
    migrationStatus: async () => sqliteMigrationStatus(database),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

function openPostgres(config: Config, options: StoreOptions): Store {
  const pool = new pg.Pool({
    connectionString: config.databaseUrl,
    max: config.databasePoolSize,
    options: `-c search_path="${config.databaseSchema}"`,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  pool.on('error', (error) => options.onBackgroundError?.(error));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    kind: 'postgres',
    db,
    transaction: (work) => db.transaction().execute(work),
    migrate: () => migratePostgres(pool, config.databaseSchema),
    migrationStatus: () => postgresMigrationStatus(pool),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Kysely, PostgresDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.ts';
import { groupCommitter } from './groupCommit.ts';
import { runStatement, type Statement, type StoreKind } from './statements.ts';
import { NodeSqliteDialect } from './sqliteDialect.ts';
import {
  migratePostgres,
  migrateSqlite,
  postgresMigrationStatus,
  sqliteMigrationStatus,
  type MigrationStatus,
  type OnApplied,
} from './migrate.ts';
import type { Database } from './tables.ts';

export type { StoreKind } from './statements.ts';

/**
 * One data-access layer over both stores. Repositories take a `Kysely<Database>` (or a transaction);
 * `kind` is there for the few hand-written statements that differ by dialect (store/statements.ts).
 */
export interface Store {
  readonly kind: StoreKind;
  readonly db: Kysely<Database>;
  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T>;
  /** Applies pending migrations under a lock; `onApplied` hears of each one committed. */
  migrate(onApplied?: OnApplied): Promise<number[]>;
  /** SQLite only: how many transactions shared each commit so far. */
  groupCommitStats?: () => { commits: number; units: number };
  migrationStatus(): Promise<MigrationStatus[]>;
  /** Cheap round trip: proves the store answers. */
  ping(): Promise<void>;
  /** Connections of the PostgreSQL pool (for metrics); undefined for SQLite, which has one. */
  poolStats(): { total: number; idle: number; waiting: number } | undefined;
  /**
   * Runs one of the hand-written hot statements outside any transaction. On PostgreSQL it is a
   * named prepared statement: each connection parses and plans it once, not per request.
   */
  run<R>(statement: Statement, parameters: readonly unknown[]): Promise<R[]>;
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
  // First: switching a new file to WAL waits for the lock when several processes open it at once.
  database.exec('PRAGMA busy_timeout = 5000');
  // WAL with synchronous=FULL: a committed transaction survives a crash and a power cut.
  database.exec('PRAGMA journal_mode = WAL');
  database.exec('PRAGMA synchronous = FULL');
  database.exec('PRAGMA foreign_keys = ON');
  // Deleted and overwritten content is zeroed, not left in free pages: retention's erasures leave
  // no trace in the file (the WAL is checkpointed and truncated after them).
  database.exec('PRAGMA secure_delete = ON');
  const db = new Kysely<Database>({ dialect: new NodeSqliteDialect(database) });
  // Concurrent transactions share one commit (one fsync): see groupCommit.ts.
  const committer = groupCommitter(db);
  return {
    kind: 'sqlite',
    db,
    transaction: (work) => committer.transaction(work),
    groupCommitStats: () => committer.stats(),
    migrate: async (onApplied) => migrateSqlite(database, onApplied),
    migrationStatus: async () => sqliteMigrationStatus(database),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    poolStats: () => undefined,
    run: (statement, parameters) => runStatement(db, 'sqlite', statement, parameters),
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
  // A client in use (inside a transaction, between statements) has no pool listener: the server
  // going away would be an uncaught 'error' event and crash the process. Its next query fails
  // instead, and the pool drops it on release.
  pool.on('connect', (client) => client.on('error', (error) => options.onBackgroundError?.(error)));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    kind: 'postgres',
    db,
    transaction: (work) => db.transaction().execute(work),
    migrate: (onApplied) => migratePostgres(pool, config.databaseSchema, onApplied),
    migrationStatus: () => postgresMigrationStatus(pool),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    run: async <R>(statement: Statement, parameters: readonly unknown[]) => {
      const result = await pool.query({
        name: statement.name,
        text: statement.postgres,
        values: parameters as unknown[],
      });
      return result.rows as R[];
    },
    // Kysely ends the pool only if it ever used it; a process that only migrated would otherwise
    // wait for the idle time-out before it can exit.
    close: async () => {
      await db.destroy();
      if (!pool.ending) await pool.end();
    },
  };
}

import type { Kysely, RawBuilder, Transaction } from 'kysely';
import type { Config } from '../config.ts';
import type { MigrationStatus, OnApplied } from './migrate.ts';
import { openPostgres } from './postgres.ts';
import { openSqlite } from './sqlite.ts';

export { SQLITE_FILE } from './sqlite.ts';
import type { Statement, StoreKind } from './statements.ts';
import type { Database } from './tables.ts';

export type { StoreKind } from './statements.ts';

/**
 * One data-access layer over both stores. Repositories take a `Kysely<Database>` (or a transaction)
 * and never learn which store is behind it.
 *
 * On PostgreSQL nothing outlives a transaction, so that `DATABASE_URL` may point at a pooler in
 * transaction mode: tables are schema-qualified in every statement (the query builder's and the
 * hand-written ones) instead of a session search_path; statements are unnamed unless
 * DATABASE_PREPARED_STATEMENTS says the pooler carries named ones; locks are transaction-scoped.
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
  /** A table for raw SQL (`sql\`... from ${store.table('applications')}\``): schema-qualified on PostgreSQL. */
  table(name: keyof Database & string): RawBuilder<unknown>;
  /**
   * Runs one of the hand-written hot statements, inside `within` (a transaction) or on its own.
   * On its own on PostgreSQL it is a named prepared statement only with DATABASE_PREPARED_STATEMENTS.
   */
  run<R>(statement: Statement, parameters: readonly unknown[], within?: Kysely<Database>): Promise<R[]>;
  /**
   * Whether this process's pool fits the server's connections (PostgreSQL, direct connection):
   * undefined when there is nothing to check (SQLite, or a pooler in between).
   */
  connectionBudget(processes: number): Promise<ConnectionBudget | undefined>;
  close(): Promise<void>;
}

export interface ConnectionBudget {
  /** Connections this machine's processes may open: processes × DATABASE_POOL_SIZE. */
  wanted: number;
  /** max_connections less the superuser reserve and the connections other clients hold now. */
  available: number;
  maxConnections: number;
  reserved: number;
  heldByOthers: number;
  fits: boolean;
}

export interface StoreOptions {
  /** Called with errors of idle PostgreSQL connections, which would otherwise crash the process. */
  onBackgroundError?: (error: Error) => void;
}

export function openStore(config: Config, options: StoreOptions = {}): Store {
  return config.databaseUrl === undefined ? openSqlite(config.dataDir) : openPostgres(config, options);
}

import type { Kysely, RawBuilder, SelectQueryBuilder, Transaction } from 'kysely';
import type { MigrationStatus, OnApplied } from './migrate.ts';
import type { Statement } from './statements.ts';
import type { SubmissionCompletion, SubmissionOutcome, SubmissionRows } from './submissions.ts';
import type { Database, DocumentChunksTable, ReadChunk } from './tables.ts';

/**
 * One data-access layer over both stores. Repositories take a `Kysely<Database>` (or a transaction);
 * where SQLite, PostgreSQL and a pooler differ, the store offers a capability (a submission insert
 * that answers which conflict it met, a skip-locked claim, a group-committed transaction) and the
 * difference lives under `src/store/`: nothing outside it asks which store it runs on.
 *
 * On PostgreSQL nothing outlives a transaction, so that `DATABASE_URL` may point at a pooler in
 * transaction mode: tables are schema-qualified in every statement (the query builder's and the
 * hand-written ones) instead of a session search_path; statements are unnamed unless
 * DATABASE_PREPARED_STATEMENTS says the pooler carries named ones; locks are transaction-scoped.
 */
export interface Store {
  /** `sqlite` or `postgres`, for logs. */
  readonly label: string;
  readonly db: Kysely<Database>;
  /** A write transaction; on SQLite concurrent ones share one commit (group commit). */
  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T>;
  /**
   * Stores a submission's rows, and completes its idempotency claim when given, in one durable
   * commit: `ok` only once committed. Otherwise nothing is stored and the outcome says why.
   */
  insertSubmission(rows: SubmissionRows, completion?: SubmissionCompletion): Promise<SubmissionOutcome>;
  /**
   * Rows a worker takes from a queue, inside a transaction: other workers skip them until it ends
   * (`FOR UPDATE SKIP LOCKED` on PostgreSQL, `NO KEY UPDATE` with `keyShare` so that foreign keys
   * to them are not blocked; `of` names the tables to lock). SQLite's write transaction already
   * keeps every other writer out.
   */
  skipLocked<DB, TB extends keyof DB, O>(
    query: SelectQueryBuilder<DB, TB, O>,
    options?: { of?: string; keyShare?: boolean },
  ): SelectQueryBuilder<DB, TB, O>;
  /** The same for raw SQL: the clause to end a `select` with (empty on SQLite). */
  readonly skipLockedClause: RawBuilder<unknown>;
  /** Rows read inside a transaction stay this transaction's until it ends (`FOR UPDATE`). */
  lockRows<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;
  /**
   * Removes the store's own copies of values just overwritten in `table` (PostgreSQL: VACUUM of old
   * row versions; SQLite, whose freed pages are zeroed: the WAL checkpointed and truncated).
   * False when that could not be done now.
   */
  dropOldVersions(table: keyof Database & string): Promise<boolean>;
  /**
   * PostgreSQL: writes document chunks by one binary COPY, each chunk's bytes passed to the socket
   * as they are (an INSERT's parameters are copied into a message of the driver's, left to the
   * garbage collector). All or none; the chunks are the caller's to free once it resolves.
   */
  copyDocumentChunks?(rows: readonly DocumentChunksTable[]): Promise<void>;
  /**
   * PostgreSQL: reads document chunks by one binary COPY, each chunk's bytes in a buffer of its own
   * (a SELECT's bytea comes through the driver as a hex string twice its size), the caller's to
   * free once decrypted.
   */
  copyChunksOut?(place: { blobId: string; from: number; count: number }): Promise<ReadChunk[]>;
  /** Applies pending migrations under a lock; `onApplied` hears of each one committed. */
  migrate(onApplied?: OnApplied): Promise<number[]>;
  /** How many transactions shared each commit so far, where the store groups commits. */
  groupCommitStats?: () => { commits: number; units: number };
  migrationStatus(): Promise<MigrationStatus[]>;
  /** Cheap round trip: proves the store answers. */
  ping(): Promise<void>;
  /** Connections of the PostgreSQL pool (for metrics); undefined for SQLite, which has one. */
  poolStats(): { total: number; idle: number; waiting: number } | undefined;
  /**
   * Calls `listener` whenever this process has changed rows of one of `tables` (UPDATE or DELETE
   * through `db`), right after the statement: a process-local cache can drop what it knows. Other
   * processes' changes are not seen. Returns the unsubscribe.
   */
  watchWrites(tables: readonly (keyof Database & string)[], listener: () => void): () => void;
  /** A table for raw SQL (`sql\`... from ${store.table('applications')}\``): schema-qualified on PostgreSQL. */
  table(name: keyof Database & string): RawBuilder<unknown>;
  /**
   * Runs one of the hand-written hot statements, inside `within` (a transaction) or on its own.
   * On its own on PostgreSQL it is a named prepared statement only with DATABASE_PREPARED_STATEMENTS.
   */
  run<R>(statement: Statement, parameters: readonly unknown[], within?: Kysely<Database>): Promise<R[]>;
  /**
   * Whether this machine's pools fit the server's connections (PostgreSQL, direct connection):
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

import type { DatabaseSync, StatementSync } from 'node:sqlite';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';
import type { WriteTurn } from './writeTurn.ts';

/**
 * A Kysely dialect for `node:sqlite`, the SQLite built into Node.js 24 (nothing to compile).
 *
 * There is one connection. A mutex hands it to one transaction at a time, so that a transaction
 * that awaits between statements never sees another request's statements inside it. Write
 * transactions start with BEGIN IMMEDIATE: the write lock is taken up front, so two writers
 * sharing the file (the service, its writer thread, the CLI) wait for the lock instead of failing
 * on lock upgrade.
 */
export class NodeSqliteDialect implements Dialect {
  readonly #database: DatabaseSync;
  readonly #turn: WriteTurn;

  /** `turn`: the process's write turn (writeTurn.ts), shared with its writer thread. */
  constructor(database: DatabaseSync, turn: WriteTurn) {
    this.#database = database;
    this.#turn = turn;
  }

  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }
  createDriver(): Driver {
    return new NodeSqliteDriver(this.#database, this.#turn);
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

class Mutex {
  #tail: Promise<void> = Promise.resolve();

  lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const acquired = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => next);
    return acquired;
  }
}

class NodeSqliteDriver implements Driver {
  readonly #connection: NodeSqliteConnection;
  readonly #mutex = new Mutex();
  #release: (() => void) | undefined;

  constructor(database: DatabaseSync, turn: WriteTurn) {
    this.#connection = new NodeSqliteConnection(database, turn);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    this.#release = await this.#mutex.lock();
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint "${name}"`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to "${name}"`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release "${name}"`));
  }

  async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }

  async destroy(): Promise<void> {
    this.#connection.close();
  }
}

type SqliteValue = null | number | bigint | string | NodeJS.ArrayBufferView;

/**
 * How long a statement waits for the write lock in all, as PRAGMA busy_timeout would. SQLite's own
 * busy handler waits by sleeping the thread: on the service's event loop that stalls every
 * request for as long as another writer (the submission writer thread, mid-fsync) holds the lock.
 * Once the writer thread runs, the connection's busy_timeout is 0 and a busy statement is tried
 * again after a timer instead, the event loop free meanwhile.
 */
const BUSY_TIMEOUT_MS = 5_000;
const MAX_BUSY_WAIT_MS = 16;
const SQLITE_BUSY = 5;

/** Statements that never take the write lock, so never need the write turn. */
const READ_ONLY = /^\s*(select|pragma)\b/i;

function isBusy(error: unknown): boolean {
  return (error as { errcode?: unknown } | null)?.errcode === SQLITE_BUSY;
}

class NodeSqliteConnection implements DatabaseConnection {
  readonly #database: DatabaseSync;
  readonly #turn: WriteTurn;
  /** Prepared statements by SQL text: Kysely produces a small, fixed set of statements. */
  readonly #statements = new Map<string, { statement: StatementSync; reader: boolean }>();

  constructor(database: DatabaseSync, turn: WriteTurn) {
    this.#database = database;
    this.#turn = turn;
  }

  #prepare(sql: string): { statement: StatementSync; reader: boolean } {
    let prepared = this.#statements.get(sql);
    if (prepared === undefined) {
      const statement = this.#database.prepare(sql);
      prepared = { statement, reader: statement.columns().length > 0 };
      if (this.#statements.size > 500) this.#statements.clear();
      this.#statements.set(sql, prepared);
    }
    return prepared;
  }

  /**
   * A statement that may write outside a transaction (BEGIN IMMEDIATE, or one in autocommit) first
   * takes the process's write turn; the turn is given back once no transaction is open (after the
   * statement in autocommit, after COMMIT or ROLLBACK, or when BEGIN failed).
   */
  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const turn = this.#turn;
    if (!this.#database.isTransaction && !READ_ONLY.test(compiledQuery.sql)) await turn.take(BUSY_TIMEOUT_MS);
    try {
      return await this.#executeWhenFree<R>(compiledQuery);
    } finally {
      if (!this.#database.isTransaction) turn.give();
    }
  }

  async #executeWhenFree<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const started = performance.now();
    for (let wait = 1; ; wait = Math.min(wait * 2, MAX_BUSY_WAIT_MS)) {
      try {
        return this.#execute<R>(compiledQuery);
      } catch (error) {
        // Only a statement that starts a transaction (or is one) waits: inside BEGIN IMMEDIATE
        // nothing is busy, and a failed statement there is the transaction's to handle.
        if (!isBusy(error) || this.#database.isTransaction) throw error;
        if (performance.now() - started + wait > BUSY_TIMEOUT_MS) throw error;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  #execute<R>(compiledQuery: CompiledQuery): QueryResult<R> {
    const { statement, reader } = this.#prepare(compiledQuery.sql);
    const parameters = compiledQuery.parameters as SqliteValue[];
    if (reader) {
      return { rows: statement.all(...parameters) as R[] };
    }
    const { changes, lastInsertRowid } = statement.run(...parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on the embedded store');
  }

  close(): void {
    this.#statements.clear();
    if (this.#database.isOpen) this.#database.close();
  }
}

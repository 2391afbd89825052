import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CompiledQuery, Kysely, sql } from 'kysely';
import type { Store } from './store.ts';
import { groupCommitter } from './groupCommit.ts';
import { migrateSqlite, sqliteMigrationStatus } from './migrate.ts';
import { NodeSqliteDialect } from './sqliteDialect.ts';
import { WriteWatch } from './writeWatch.ts';
import { openSqliteConnection } from './sqliteConnection.ts';
import { startSqliteWriter, type SqliteWriter } from './sqliteWriter.ts';
import { newWriteTurn, WriteTurn } from './writeTurn.ts';
import type { Statement } from './statements.ts';
import type { Database } from './tables.ts';

export const SQLITE_FILE = 'cardapply.db';

export function openSqlite(dataDir: string): Store {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, SQLITE_FILE);
  const database = openSqliteConnection(file);
  // The event loop's connection and the writer thread agree whose turn it is to write (writeTurn.ts).
  const turn = newWriteTurn();
  // Submissions are stored by a thread of their own (sqliteWriterThread.ts), started with the
  // first one (by then the tables exist); from then on the checkpoints are its work too, not this
  // event loop's.
  let writer: SqliteWriter | undefined;
  const writerOf = (): SqliteWriter => {
    if (writer === undefined) {
      writer = startSqliteWriter(file, turn);
      database.exec('PRAGMA wal_autocheckpoint = 0');
      // The thread holds the write lock for each of its commits: this event loop must not sleep
      // in SQLite's busy handler meanwhile; the dialect waits on a timer instead (sqliteDialect.ts).
      database.exec('PRAGMA busy_timeout = 0');
    }
    return writer;
  };
  const watch = new WriteWatch();
  const db = new Kysely<Database>({
    dialect: new NodeSqliteDialect(database, new WriteTurn(turn, 'loop')),
    plugins: [watch],
  });
  const run = async <R>(statement: Statement, parameters: readonly unknown[], within = db) => {
    const result = await within.executeQuery<R>(CompiledQuery.raw(statement.sqlite, [...parameters]));
    return result.rows;
  };
  // Concurrent transactions share one commit (one fsync): see groupCommit.ts.
  const committer = groupCommitter(db);
  return {
    label: 'sqlite',
    db,
    transaction: (work) => committer.transaction(work),
    // The writer thread probes the unique indexes before it inserts, so a duplicate is answered
    // there with its holder, at the cost of a probe, not of an insert rolled back.
    insertSubmission: (rows, completion) => writerOf().insert(rows, completion),
    // One writer at a time: the write transaction is the lock.
    skipLocked: (query) => query,
    skipLockedClause: sql``,
    lockRows: (query) => query,
    dropOldVersions: async () => {
      // A reader in another process (the CLI) can hold the log for a moment.
      for (let attempt = 1; ; attempt++) {
        const result = await sql<{ busy: number }>`pragma wal_checkpoint(truncate)`.execute(db);
        if (Number(result.rows[0]?.busy ?? 0) === 0) return true;
        if (attempt === 5) return false;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    groupCommitStats: () => {
      const shared = committer.stats();
      const written = writer?.stats() ?? { commits: 0, units: 0 };
      return { commits: shared.commits + written.commits, units: shared.units + written.units };
    },
    migrate: async (onApplied) => migrateSqlite(database, onApplied),
    migrationStatus: async () => sqliteMigrationStatus(database),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    poolStats: () => undefined,
    watchWrites: (tables, listener) => watch.on(tables, listener),
    table: (name) => sql.table(name),
    run,
    connectionBudget: async () => undefined,
    close: async () => {
      await writer?.close();
      await db.destroy();
    },
  };
}

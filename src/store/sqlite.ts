import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { CompiledQuery, Kysely, sql } from 'kysely';
import type { Store } from './store.ts';
import { groupCommitter } from './groupCommit.ts';
import { migrateSqlite, sqliteMigrationStatus } from './migrate.ts';
import { NodeSqliteDialect } from './sqliteDialect.ts';
import { WriteWatch } from './writeWatch.ts';
import { documentHolder, insertSubmissionSqlite, SubmissionRefused } from './submissions.ts';
import type { Database } from './tables.ts';

export const SQLITE_FILE = 'cardapply.db';

export function openSqlite(dataDir: string): Store {
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
  const watch = new WriteWatch();
  const db = new Kysely<Database>({ dialect: new NodeSqliteDialect(database), plugins: [watch] });
  // Concurrent transactions share one commit (one fsync): see groupCommit.ts.
  const committer = groupCommitter(db);
  return {
    label: 'sqlite',
    db,
    transaction: (work) => committer.transaction(work),
    insertSubmission: async (rows, completion) => {
      // A duplicate is answered from a read, without waiting for the writer.
      const holder = await documentHolder(db, rows.application.cert_hash);
      if (holder !== undefined) return { kind: 'document_taken', holder };
      try {
        return await committer.transaction((trx) => insertSubmissionSqlite(trx, rows, completion));
      } catch (error) {
        if (error instanceof SubmissionRefused) return error.outcome;
        throw error;
      }
    },
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
    groupCommitStats: () => committer.stats(),
    migrate: async (onApplied) => migrateSqlite(database, onApplied),
    migrationStatus: async () => sqliteMigrationStatus(database),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    poolStats: () => undefined,
    watchWrites: (tables, listener) => watch.on(tables, listener),
    table: (name) => sql.table(name),
    run: async <R>(statement: { sqlite: string }, parameters: readonly unknown[], within = db) => {
      const result = await within.executeQuery<R>(CompiledQuery.raw(statement.sqlite, [...parameters]));
      return result.rows;
    },
    connectionBudget: async () => undefined,
    close: () => db.destroy(),
  };
}

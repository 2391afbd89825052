import { DatabaseSync } from 'node:sqlite';

/** A connection to the embedded store's file, set up the same way wherever one is opened. */
export function openSqliteConnection(file: string): DatabaseSync {
  const database = new DatabaseSync(file);
  // First: switching a new file to WAL waits for the lock when several processes open it at once.
  database.exec('PRAGMA busy_timeout = 5000');
  // WAL with synchronous=FULL: a committed transaction survives a crash and a power cut.
  database.exec('PRAGMA journal_mode = WAL');
  database.exec('PRAGMA synchronous = FULL');
  database.exec('PRAGMA foreign_keys = ON');
  // Deleted and overwritten content is zeroed, not left in free pages: retention's erasures leave
  // no trace in the file (the WAL is checkpointed and truncated after them).
  database.exec('PRAGMA secure_delete = ON');
  return database;
}

/**
 * The submission writer's connection (sqliteWriterThread.ts): as any other, and its savepoints
 * journal in memory. Each submission's savepoint copies the pages it is about to change (a leaf of
 * each index, the table's last page) to a statement journal, which SQLite spills to a temporary
 * file past 64 KB: under the submit load that was 40 of the thread's 57 writes a submission (strace)
 * and a fifth of its CPU (docs/PERFORMANCE.md, "The writer's savepoints in memory"). Nothing in
 * that journal has to outlive its transaction. Only this connection: its statements are inserts
 * and probes of unique indexes, while the event loop's connection also answers operators' and the
 * CLI's queries, whose sorts and temporary tables must stay free to spill to disk.
 */
export function openWriterConnection(file: string): DatabaseSync {
  const database = openSqliteConnection(file);
  database.exec('PRAGMA temp_store = MEMORY');
  return database;
}

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

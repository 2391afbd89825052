/**
 * Store errors classified once, by their structured codes (SQLSTATE for PostgreSQL, the extended
 * result code for SQLite), never by message text.
 */

/** The store cannot be reached or is overloaded: answer 503 with Retry-After, keep the process up. */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
}

interface PgError {
  code?: unknown;
  constraint?: unknown;
}
interface SqliteError {
  code?: unknown;
  errcode?: unknown;
}

const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_CONSTRAINT_PRIMARYKEY = 1555;
const SQLITE_CONSTRAINT_UNIQUE = 2067;

/** SQLSTATE classes that mean the server is gone, shutting down or out of resources. */
const PG_UNAVAILABLE_CLASSES = ['08', '53', '57P'];
/** Node socket errors met while connecting to or talking with PostgreSQL. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const pg = error as PgError;
  if (pg.code === '23505') return true;
  const sqlite = error as SqliteError;
  return (
    sqlite.code === 'ERR_SQLITE_ERROR' &&
    (sqlite.errcode === SQLITE_CONSTRAINT_UNIQUE || sqlite.errcode === SQLITE_CONSTRAINT_PRIMARYKEY)
  );
}

/** The PostgreSQL constraint a unique violation broke, when the store names it. */
export function violatedConstraint(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const constraint = (error as PgError).constraint;
  return typeof constraint === 'string' ? constraint : undefined;
}

export function isStoreUnavailable(error: unknown): boolean {
  if (error instanceof StoreUnavailableError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as PgError).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code)) return true;
    if (PG_UNAVAILABLE_CLASSES.some((prefix) => code.startsWith(prefix)) && /^[0-9A-Z]{5}$/.test(code))
      return true;
  }
  const sqlite = error as SqliteError;
  if (sqlite.code === 'ERR_SQLITE_ERROR') {
    const primary = typeof sqlite.errcode === 'number' ? sqlite.errcode & 0xff : -1;
    return primary === SQLITE_BUSY || primary === SQLITE_LOCKED;
  }
  // pg-pool reports an exhausted or broken pool with plain errors; a timeout while connecting is one,
  // and so is a query on a client whose server went away inside a transaction.
  const message = (error as Error).message;
  return (
    error instanceof Error &&
    (message === 'Connection terminated unexpectedly' ||
      message === 'timeout exceeded when trying to connect' ||
      message === 'Connection terminated due to connection timeout' ||
      message === 'Client has encountered a connection error and is not queryable')
  );
}

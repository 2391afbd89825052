import type { Insertable, Kysely } from 'kysely';
import type { Database, OperatorsTable } from '../store/tables.ts';

/** Queries over operators and their sessions. Takes a Kysely handle or a transaction. */

export async function insertOperator(db: Kysely<Database>, row: Insertable<OperatorsTable>): Promise<void> {
  await db.insertInto('operators').values(row).execute();
}

export async function findOperator(db: Kysely<Database>, username: string) {
  return db.selectFrom('operators').selectAll().where('username', '=', username).executeTakeFirst();
}

/** Whether any enabled operator has the admin role. */
export async function enabledAdminExists(db: Kysely<Database>): Promise<boolean> {
  const row = await db
    .selectFrom('operators')
    .select('username')
    .where('role', '=', 'admin')
    .where('disabled', '=', 0)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function listOperators(db: Kysely<Database>) {
  return db
    .selectFrom('operators')
    .select(['username', 'role', 'disabled', 'compliance', 'created_at', 'updated_at'])
    .orderBy('username')
    .execute();
}

export async function updateOperator(
  db: Kysely<Database>,
  username: string,
  changes: Partial<Pick<OperatorsTable, 'role' | 'disabled' | 'password_hash' | 'locked_until'>> & {
    compliance?: number;
    failed_logins?: number;
    updated_at: number;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('operators')
    .set(changes)
    .where('username', '=', username)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function insertSession(
  db: Kysely<Database>,
  row: {
    token_hash: string;
    username: string;
    created_at: number;
    expires_at: number;
    scope: 'full' | 'enrol';
  },
): Promise<void> {
  await db
    .insertInto('operator_sessions')
    .values({ ...row, revoked_at: null, last_seen_at: row.created_at })
    .execute();
}

/** When a session began (revoked or expired alike), if it exists. */
export async function findSessionStart(db: Kysely<Database>, tokenHash: string) {
  return db
    .selectFrom('operator_sessions')
    .select('created_at')
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** A session with the state of its operator, in one round trip: this runs on every admin request. */
export async function findSessionWithOperator(db: Kysely<Database>, tokenHash: string) {
  return db
    .selectFrom('operator_sessions')
    .innerJoin('operators', 'operators.username', 'operator_sessions.username')
    .select([
      'operator_sessions.username',
      'operator_sessions.expires_at',
      'operator_sessions.revoked_at',
      'operator_sessions.last_seen_at',
      'operator_sessions.scope',
      'operators.role',
      'operators.disabled',
      'operators.compliance',
    ])
    .where('operator_sessions.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function revokeSession(db: Kysely<Database>, tokenHash: string, now: number): Promise<void> {
  await db
    .updateTable('operator_sessions')
    .set({ revoked_at: now })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokeSessionsOf(db: Kysely<Database>, username: string, now: number): Promise<void> {
  await db
    .updateTable('operator_sessions')
    .set({ revoked_at: now })
    .where('username', '=', username)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Marks the session used now; skipped when it was marked moments ago (one write per few seconds). */
export async function touchSession(db: Kysely<Database>, tokenHash: string, now: number, slackMs: number) {
  await db
    .updateTable('operator_sessions')
    .set({ last_seen_at: now })
    .where('token_hash', '=', tokenHash)
    .where('last_seen_at', '<', now - slackMs)
    .execute();
}

/** A session limited to enrolment made a full one: its operator has now shown both factors. */
export async function widenSessionScope(
  db: Kysely<Database>,
  tokenHash: string,
  username: string,
): Promise<void> {
  await db
    .updateTable('operator_sessions')
    .set({ scope: 'full' })
    .where('token_hash', '=', tokenHash)
    .where('username', '=', username)
    .execute();
}

/** A sign-in that succeeded: the failure count and lock cleared, and the hash replaced if given. */
export async function recordSignIn(
  db: Kysely<Database>,
  username: string,
  passwordHash: string | undefined,
): Promise<void> {
  await db
    .updateTable('operators')
    .set({
      failed_logins: 0,
      locked_until: null,
      ...(passwordHash === undefined ? {} : { password_hash: passwordHash }),
    })
    .where('username', '=', username)
    .execute();
}

/** Failed sign-ins in a row so far (the operator exists). */
export async function failedLoginsOf(db: Kysely<Database>, username: string): Promise<number> {
  const row = await db
    .selectFrom('operators')
    .select('failed_logins')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return row.failed_logins;
}

export async function recordFailedLogins(
  db: Kysely<Database>,
  username: string,
  failures: number,
  lockedUntil: number | null,
): Promise<void> {
  await db
    .updateTable('operators')
    .set({ failed_logins: failures, locked_until: lockedUntil })
    .where('username', '=', username)
    .execute();
}

/** The operator's replaced password hashes, newest first, at most `limit`. */
export async function earlierPasswordHashes(
  db: Kysely<Database>,
  username: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('operator_password_history')
    .select('password_hash')
    .where('username', '=', username)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => row.password_hash);
}

export async function insertPasswordHistory(
  db: Kysely<Database>,
  row: { username: string; password_hash: string; created_at: number },
): Promise<void> {
  await db.insertInto('operator_password_history').values(row).execute();
}

import type { Kysely } from 'kysely';
import type { Database } from '../store/tables.ts';

/**
 * Queries over operators' second factors: the TOTP secret (encrypted; pending until a code of it is
 * confirmed) and the one-time recovery codes (hashes). Takes a Kysely handle or a transaction.
 */

export async function findFactor(db: Kysely<Database>, username: string) {
  return db.selectFrom('operator_totp').selectAll().where('username', '=', username).executeTakeFirst();
}

/** Every operator's factor: pending (`confirmed_at` null) or active. */
export async function listFactors(db: Kysely<Database>) {
  return db.selectFrom('operator_totp').select(['username', 'confirmed_at']).execute();
}

/** A new pending secret in place of whatever the operator had. */
export async function replaceWithPendingFactor(
  db: Kysely<Database>,
  row: { username: string; secret_enc: string; key_id: string; created_at: number },
): Promise<void> {
  await db.deleteFrom('operator_totp').where('username', '=', row.username).execute();
  await db
    .insertInto('operator_totp')
    .values({ ...row, confirmed_at: null, last_step: null })
    .execute();
}

/** The pending secret made active, with the time step of the code that confirmed it. */
export async function confirmFactor(
  db: Kysely<Database>,
  username: string,
  now: number,
  step: number,
): Promise<void> {
  await db
    .updateTable('operator_totp')
    .set({ confirmed_at: now, last_step: step })
    .where('username', '=', username)
    .execute();
}

/**
 * Records `step` as the last accepted, only if it is later than the one recorded: false when
 * another sign-in with the same code got there first.
 */
export async function advanceLastStep(
  db: Kysely<Database>,
  username: string,
  step: number,
): Promise<boolean> {
  const updated = await db
    .updateTable('operator_totp')
    .set({ last_step: step })
    .where('username', '=', username)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

/** The operator's recovery codes replaced by these (hashes). */
export async function replaceRecoveryCodes(
  db: Kysely<Database>,
  username: string,
  codeHashes: readonly string[],
  now: number,
): Promise<void> {
  await db.deleteFrom('operator_recovery_codes').where('username', '=', username).execute();
  await db
    .insertInto('operator_recovery_codes')
    .values(codeHashes.map((code_hash) => ({ username, code_hash, created_at: now, used_at: null })))
    .execute();
}

/** Uses up an unused recovery code; false when there is none with this hash. */
export async function useRecoveryCode(
  db: Kysely<Database>,
  username: string,
  codeHash: string,
  now: number,
): Promise<boolean> {
  const used = await db
    .updateTable('operator_recovery_codes')
    .set({ used_at: now })
    .where('username', '=', username)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return used.numUpdatedRows > 0n;
}

/** The operator's factor and recovery codes, gone. */
export async function deleteFactor(db: Kysely<Database>, username: string): Promise<void> {
  await db.deleteFrom('operator_totp').where('username', '=', username).execute();
  await db.deleteFrom('operator_recovery_codes').where('username', '=', username).execute();
}

import type { Kysely } from 'kysely';
import type { Database, IdempotencyKeysTable } from '../store/tables.ts';

/** Queries over idempotency keys. Takes a Kysely handle or a transaction. */

export type IdempotencyRow = IdempotencyKeysTable;

/** Claims a key that nobody holds: true when this call inserted the row. */
export async function insertClaim(db: Kysely<Database>, row: IdempotencyRow): Promise<boolean> {
  const result = await db
    .insertInto('idempotency_keys')
    .values(row)
    .onConflict((conflict) => conflict.columns(['app_id', 'idempotency_key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function findKey(
  db: Kysely<Database>,
  appId: string,
  key: string,
): Promise<IdempotencyRow | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('app_id', '=', appId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

/**
 * Takes over a row that is expired or whose holder stopped renewing it, only if it is still the row
 * that was read (same claim token and state): of several concurrent takeovers, one wins.
 */
export async function takeOverClaim(
  db: Kysely<Database>,
  seen: Pick<IdempotencyRow, 'app_id' | 'idempotency_key' | 'claim_token' | 'state'>,
  claim: Pick<IdempotencyRow, 'request_hash' | 'claim_token' | 'locked_until' | 'created_at' | 'expires_at'>,
): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_keys')
    .set({ ...claim, state: 'in_progress', status_code: null, response_body: null, result: null })
    .where('app_id', '=', seen.app_id)
    .where('idempotency_key', '=', seen.idempotency_key)
    .where('claim_token', '=', seen.claim_token)
    .where('state', '=', seen.state)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Stores the response of a claim still held by `claimToken`; false when the claim was lost. */
export async function completeClaimRow(
  db: Kysely<Database>,
  key: { appId: string; key: string; claimToken: string },
  response: { status: number; body: string },
): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_keys')
    .set({
      state: 'completed',
      status_code: response.status,
      response_body: response.body,
      locked_until: null,
    })
    .where('app_id', '=', key.appId)
    .where('idempotency_key', '=', key.key)
    .where('claim_token', '=', key.claimToken)
    .where('state', '=', 'in_progress')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives a claim up (the operation failed with a fault): the next request with the key runs anew. */
export async function deleteClaim(
  db: Kysely<Database>,
  key: { appId: string; key: string; claimToken: string },
): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('app_id', '=', key.appId)
    .where('idempotency_key', '=', key.key)
    .where('claim_token', '=', key.claimToken)
    .where('state', '=', 'in_progress')
    .execute();
}

export async function deleteExpiredKeys(db: Kysely<Database>, now: number): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

import type { Kysely } from 'kysely';
import type { ApplicationsTable, Database } from '../store/tables.ts';

/** Queries over applications and their history. Takes a Kysely handle or a transaction. */

export async function insertApplication(db: Kysely<Database>, row: ApplicationsTable): Promise<void> {
  await db.insertInto('applications').values(row).execute();
}

export async function insertTransition(
  db: Kysely<Database>,
  row: {
    busi_water_no: string;
    from_status: string | null;
    to_status: string;
    actor: string;
    reason: string | null;
    details: string | null;
    at: number;
  },
): Promise<void> {
  await db.insertInto('application_transitions').values(row).execute();
}

/** The active application (not in a final state) for an identity document, if any. */
export async function findActiveByCertHash(db: Kysely<Database>, certHash: string) {
  return db
    .selectFrom('applications')
    .select(['busi_water_no', 'app_id'])
    .where('active_cert_hash', '=', certHash)
    .executeTakeFirst();
}

export async function isCardNumberTaken(db: Kysely<Database>, cardNoHash: string): Promise<boolean> {
  const row = await db
    .selectFrom('applications')
    .select('busi_water_no')
    .where('card_no_hash', '=', cardNoHash)
    .executeTakeFirst();
  return row !== undefined;
}

/** An application of one app. Another app's serial is not found, exactly like an unknown one. */
export async function findApplicationOfApp(db: Kysely<Database>, appId: string, busiWaterNo: string) {
  return db
    .selectFrom('applications')
    .select(['busi_water_no', 'status', 'status_reason', 'card_no_masked', 'created_at', 'updated_at'])
    .where('busi_water_no', '=', busiWaterNo)
    .where('app_id', '=', appId)
    .executeTakeFirst();
}

export async function listTransitions(db: Kysely<Database>, busiWaterNo: string) {
  return db
    .selectFrom('application_transitions')
    .select(['to_status', 'at', 'reason'])
    .where('busi_water_no', '=', busiWaterNo)
    .orderBy('id')
    .execute();
}

import type { Kysely } from 'kysely';
import type { Database, RiskApprovalRequestsTable } from '../store/tables.ts';

/**
 * Every query of `risk_approval_requests` (migration 0079): an approval in enhanced review asked
 * for by one operator and waiting for a second. One per application at most; it lives only while
 * the application is IN_REVIEW. Takes a Kysely handle or a transaction.
 */

export async function findApprovalRequest(
  db: Kysely<Database>,
  busiWaterNo: string,
): Promise<RiskApprovalRequestsTable | undefined> {
  return db
    .selectFrom('risk_approval_requests')
    .selectAll()
    .where('busi_water_no', '=', busiWaterNo)
    .executeTakeFirst();
}

/** Records the request, replacing one asked on an earlier assessment. */
export async function putApprovalRequest(
  db: Kysely<Database>,
  row: RiskApprovalRequestsTable,
): Promise<void> {
  await db
    .insertInto('risk_approval_requests')
    .values(row)
    .onConflict((oc) =>
      oc.column('busi_water_no').doUpdateSet({
        assessment_id: row.assessment_id,
        requested_by: row.requested_by,
        requested_at: row.requested_at,
        acknowledgements: row.acknowledgements,
      }),
    )
    .execute();
}

/** Drops the application's pending request, if any (its move out of IN_REVIEW). */
export async function dropApprovalRequest(db: Kysely<Database>, busiWaterNo: string): Promise<void> {
  await db.deleteFrom('risk_approval_requests').where('busi_water_no', '=', busiWaterNo).execute();
}

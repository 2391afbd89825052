import type { Kysely } from 'kysely';
import { Type, type Static } from 'typebox';
import { unixSeconds } from '../record/dates.ts';
import { FACTOR_CODES } from '../policies/riskPolicy.ts';
import type { Database } from '../store/tables.ts';
import type { RecordedAcknowledgement } from './approvalDecision.ts';
import { findApprovalRequest } from './approvalRequestRepository.ts';

/**
 * An approval in enhanced review waiting for a second operator, as operators see it: who asked,
 * when, and what they acknowledged. Never shown to the partner.
 */
export const ApprovalRequestView = Type.Object(
  {
    requested_by: Type.String({ description: 'The username of the operator who asked.' }),
    requested_at: Type.Integer({ description: 'Unix seconds.' }),
    acknowledgements: Type.Array(
      Type.Object({
        code: Type.Enum(FACTOR_CODES),
        high: Type.Boolean({ description: 'A high factor: its note was required.' }),
        note: Type.Optional(Type.String()),
      }),
    ),
  },
  {
    description:
      'An approval in enhanced review asked for by one operator and waiting for a different one to approve too (docs/RISK.md); null when none is pending.',
  },
);
export type ApprovalRequestView = Static<typeof ApprovalRequestView>;

/** The application's pending approval request, or null. */
export async function pendingApproval(
  db: Kysely<Database>,
  busiWaterNo: string,
): Promise<ApprovalRequestView | null> {
  const row = await findApprovalRequest(db, busiWaterNo);
  if (row === undefined) return null;
  return {
    requested_by: row.requested_by,
    requested_at: unixSeconds(row.requested_at),
    acknowledgements: JSON.parse(row.acknowledgements) as RecordedAcknowledgement[],
  };
}

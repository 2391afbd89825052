import type { Kysely } from 'kysely';
import type { ServiceContext } from '../context.ts';
import type { Database } from '../store/tables.ts';
import { endRequestRow, findSubjectRequestById } from './subjectExportRepository.ts';
import type { SubjectRequestRow } from './subjectRequestRepository.ts';

/**
 * MINIMAL STAND-IN, replaced at the merge by the full `endSubjectRequest` of the subjectops branch
 * (which also writes the audit row and the request's event and webhook). Only the signature and
 * the row's change are relied on here: the export job ends an access or portability request with
 * one call to it, in the transaction that stores the export.
 */

export interface SubjectOutcome {
  status: 'completed' | 'restricted' | 'refused';
  reasonCode?: string | null;
  reason?: string | null;
  /** Milliseconds. */
  restrictedUntil?: number | null;
}

/** Ends an open request (received or in progress) in `tx`; throws when it is not open. */
export async function endSubjectRequest(
  ctx: ServiceContext,
  tx: Kysely<Database>,
  requestId: string,
  outcome: SubjectOutcome,
  // The full version audits with these; the stand-in has no audit row to write.
  _actor: { actor: string; source: string },
): Promise<SubjectRequestRow> {
  const now = ctx.now();
  const ended = await endRequestRow(tx, requestId, {
    status: outcome.status,
    reason_code: outcome.reasonCode ?? null,
    reason: outcome.reason ?? null,
    restricted_until: outcome.restrictedUntil ?? null,
    updated_at: now,
    ended_at: now,
  });
  if (!ended) throw new Error(`subject request ${requestId} is not open`);
  const row = await findSubjectRequestById(tx, requestId);
  if (row === undefined) throw new Error(`subject request ${requestId} is gone`);
  return row;
}

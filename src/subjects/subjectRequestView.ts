import type { Kysely } from 'kysely';
import type { SubjectRequestKind, SubjectRequestView } from '../events/subjectRequestPayload.ts';
import type { Database } from '../store/tables.ts';
import { findExport, type SubjectExportRow } from './subjectExportRepository.ts';
import type { SubjectRequestRow } from './subjectRequestRepository.ts';

/**
 * A subject request as its partner sees it (the events' shape, events/subjectRequestPayload.ts),
 * with its export where the kind has one. Apart from the request's commands, so that the end of a
 * request (subjectOutcomes.ts), which the export's job calls, needs nothing that queues that job.
 */

const seconds = (ms: number) => Math.floor(ms / 1000);

export const EXPORTING_KINDS: readonly SubjectRequestKind[] = ['access', 'portability'];

export function subjectRequestView(
  row: SubjectRequestRow,
  made: SubjectExportRow | undefined,
  now: number,
): SubjectRequestView {
  return {
    request_id: row.request_id,
    kind: row.kind,
    status: row.status,
    busi_water_no: row.busi_water_no,
    applications: JSON.parse(row.serials) as string[],
    reason_code: row.reason_code,
    reason: row.reason,
    restricted_until: row.restricted_until === null ? null : seconds(Number(row.restricted_until)),
    due_at: seconds(Number(row.due_at)),
    created_at: seconds(Number(row.created_at)),
    updated_at: seconds(Number(row.updated_at)),
    ended_at: row.ended_at === null ? null : seconds(Number(row.ended_at)),
    export: !EXPORTING_KINDS.includes(row.kind)
      ? null
      : made === undefined
        ? { ready: false, expires_at: null, fetched_at: null }
        : {
            ready: made.erased_at === null && Number(made.expires_at) > now,
            expires_at: seconds(Number(made.expires_at)),
            fetched_at: made.fetched_at === null ? null : seconds(Number(made.fetched_at)),
          },
  };
}

/** A request's view with its export read (one query): what every answer after a change shows. */
export async function viewOfSubjectRequest(
  db: Kysely<Database>,
  row: SubjectRequestRow,
  now: number,
): Promise<SubjectRequestView> {
  return subjectRequestView(row, await findExport(db, row.request_id), now);
}

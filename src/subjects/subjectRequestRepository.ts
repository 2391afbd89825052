import type { Kysely } from 'kysely';
import type { Database, SubjectRequestsTable } from '../store/tables.ts';

/** Every query of `subject_requests` (migration 0106): an applicant's requests through the partner. */

export type SubjectRequestRow = SubjectRequestsTable;

export async function insertSubjectRequest(db: Kysely<Database>, row: SubjectRequestRow): Promise<void> {
  await db.insertInto('subject_requests').values(row).execute();
}

/** An open request (received or in progress) of one kind for one person at one app. */
export async function findOpenRequest(
  db: Kysely<Database>,
  query: { appId: string; certHash: string; kind: SubjectRequestRow['kind'] },
) {
  return db
    .selectFrom('subject_requests')
    .select('request_id')
    .where('app_id', '=', query.appId)
    .where('cert_hash', '=', query.certHash)
    .where('kind', '=', query.kind)
    .where('status', 'in', ['received', 'in_progress'])
    .executeTakeFirst();
}

/** One request of one app; another app's is not found, exactly like an unknown one. */
export async function findSubjectRequest(db: Kysely<Database>, appId: string, requestId: string) {
  return db
    .selectFrom('subject_requests')
    .selectAll()
    .where('request_id', '=', requestId)
    .where('app_id', '=', appId)
    .executeTakeFirst();
}

/** An app's requests, newest first, below the cursor's id. */
export async function listSubjectRequests(
  db: Kysely<Database>,
  query: {
    appId: string;
    status?: SubjectRequestRow['status'] | undefined;
    kind?: SubjectRequestRow['kind'] | undefined;
    beforeId?: string | undefined;
    limit: number;
  },
) {
  let select = db.selectFrom('subject_requests').selectAll().where('app_id', '=', query.appId);
  if (query.status !== undefined) select = select.where('status', '=', query.status);
  if (query.kind !== undefined) select = select.where('kind', '=', query.kind);
  if (query.beforeId !== undefined) select = select.where('request_id', '<', query.beforeId);
  return select.orderBy('request_id', 'desc').limit(query.limit).execute();
}

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

/** One request, whichever app's: the operators' side. */
export async function findSubjectRequestById(db: Kysely<Database>, requestId: string) {
  return db.selectFrom('subject_requests').selectAll().where('request_id', '=', requestId).executeTakeFirst();
}

/**
 * Moves an open request (received or in progress) to `changes.status`, if it is still in one of
 * `from`: false when it no longer is (it ended, or another operator moved it first).
 */
export async function moveSubjectRequest(
  db: Kysely<Database>,
  requestId: string,
  from: readonly SubjectRequestRow['status'][],
  changes: Partial<
    Pick<
      SubjectRequestRow,
      'status' | 'reason_code' | 'reason' | 'restricted_until' | 'ended_at' | 'linked_serial'
    >
  > & { updated_at: number },
): Promise<boolean> {
  const result = await db
    .updateTable('subject_requests')
    .set(changes)
    .where('request_id', '=', requestId)
    .where('status', 'in', [...from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Every app's requests for the operators, newest first, below the cursor's id. */
export async function listAllSubjectRequests(
  db: Kysely<Database>,
  query: {
    appId?: string | undefined;
    status?: SubjectRequestRow['status'] | undefined;
    kind?: SubjectRequestRow['kind'] | undefined;
    open?: boolean | undefined;
    beforeId?: string | undefined;
    limit: number;
  },
) {
  let select = db.selectFrom('subject_requests').selectAll();
  if (query.appId !== undefined) select = select.where('app_id', '=', query.appId);
  if (query.status !== undefined) select = select.where('status', '=', query.status);
  if (query.open === true) select = select.where('status', 'in', ['received', 'in_progress']);
  if (query.kind !== undefined) select = select.where('kind', '=', query.kind);
  if (query.beforeId !== undefined) select = select.where('request_id', '<', query.beforeId);
  return select.orderBy('request_id', 'desc').limit(query.limit).execute();
}

/** How many open requests are past their due date, and the oldest due date among them. */
export async function countOverdueSubjectRequests(
  db: Kysely<Database>,
  now: number,
): Promise<{ count: number; oldestDueAt: number | null }> {
  const row = await db
    .selectFrom('subject_requests')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('due_at').as('oldest')])
    .where('status', 'in', ['received', 'in_progress'])
    .where('due_at', '<', now)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), oldestDueAt: row.oldest === null ? null : Number(row.oldest) };
}

/** The open correction requests answered by a request for information on this application. */
export async function findCorrectionsLinkedTo(db: Kysely<Database>, busiWaterNo: string) {
  return db
    .selectFrom('subject_requests')
    .select('request_id')
    .where('linked_serial', '=', busiWaterNo)
    .where('status', 'in', ['received', 'in_progress'])
    .where('kind', '=', 'correction')
    .execute();
}

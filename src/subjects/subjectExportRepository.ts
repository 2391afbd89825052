import type { Kysely } from 'kysely';
import type { Store } from '../store/store.ts';
import type { Database, SubjectExportChunksTable, SubjectExportsTable } from '../store/tables.ts';

/**
 * Every query of `subject_exports` and `subject_export_chunks` (migration 0125): the sealed export
 * that answers an access or portability request, and the two the export job needs of
 * `subject_requests` (the rest of that table is subjectRequestRepository.ts's).
 */

export type SubjectExportRow = SubjectExportsTable;

export async function insertExportChunks(
  store: Store,
  rows: readonly SubjectExportChunksTable[],
): Promise<void> {
  if (rows.length === 0) return;
  await store.transaction(async (trx) => {
    for (const row of rows) await trx.insertInto('subject_export_chunks').values(row).execute();
  });
}

/** Up to `count` chunks of an export from `seq` on, in order: fewer when some are missing. */
export async function exportChunks(db: Kysely<Database>, requestId: string, from: number, count: number) {
  return db
    .selectFrom('subject_export_chunks')
    .select(['chunk_id', 'seq', 'key_id', 'chunk_enc'])
    .where('request_id', '=', requestId)
    .where('seq', '>=', from)
    .where('seq', '<', from + count)
    .orderBy('seq')
    .execute();
}

export async function deleteExportChunks(db: Kysely<Database>, requestId: string): Promise<void> {
  await db.deleteFrom('subject_export_chunks').where('request_id', '=', requestId).execute();
}

export async function insertExport(db: Kysely<Database>, row: SubjectExportRow): Promise<void> {
  await db.insertInto('subject_exports').values(row).execute();
}

export async function findExport(
  db: Kysely<Database>,
  requestId: string,
): Promise<SubjectExportRow | undefined> {
  return db.selectFrom('subject_exports').selectAll().where('request_id', '=', requestId).executeTakeFirst();
}

/** The exports of some requests (a list page's), by request id. */
export async function exportsOf(
  db: Kysely<Database>,
  requestIds: readonly string[],
): Promise<Map<string, SubjectExportRow>> {
  if (requestIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('subject_exports')
    .selectAll()
    .where('request_id', 'in', requestIds)
    .execute();
  return new Map(rows.map((row) => [row.request_id, row]));
}

/**
 * The one delivery: marks the export fetched and erased, if it is still held and not expired at
 * `now`; false when another download took it first (or it ran out meanwhile).
 */
export async function markExportFetched(
  db: Kysely<Database>,
  requestId: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('subject_exports')
    .set({ fetched_at: now, erased_at: now })
    .where('request_id', '=', requestId)
    .where('fetched_at', 'is', null)
    .where('erased_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Marks an unfetched export erased (its time ran out); false when already erased. */
export async function markExportErased(
  db: Kysely<Database>,
  requestId: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('subject_exports')
    .set({ erased_at: now })
    .where('request_id', '=', requestId)
    .where('erased_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

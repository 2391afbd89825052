import type { Kysely, Updateable } from 'kysely';
import type { Store } from '../store/store.ts';
import type { Database, DocumentChunksTable, DocumentsTable, ReadChunk } from '../store/tables.ts';

/**
 * Queries over the documents rows (a field's state and the copy kept of it) and their chunks, as
 * the fetch job, the reviewer's risk flags, the console and retention read and write them (the
 * chunks' bytes pass the cipher in documentStore.ts; what they read of the application itself is
 * applicationRepository.ts's). Takes a Kysely handle or a transaction.
 */

/**
 * Kept documents with any of these hashes (SHA-256 of the bytes), held for an active application of
 * another applicant than `busiWaterNo`'s, in serial order: the same bytes under another identity.
 */
export async function keptByOtherApplicants(
  db: Kysely<Database>,
  busiWaterNo: string,
  sha256s: readonly string[],
) {
  return (
    db
      .selectFrom('documents')
      .innerJoin('applications', 'applications.busi_water_no', 'documents.busi_water_no')
      .select(['documents.sha256', 'documents.busi_water_no'])
      .where('documents.sha256', 'in', sha256s)
      .where('documents.state', '=', 'kept')
      .where('documents.busi_water_no', '!=', busiWaterNo)
      // Active (not final) and another applicant: a different identity document.
      .where('applications.active_cert_hash', 'is not', null)
      .where((eb) =>
        eb(
          'applications.cert_hash',
          '!=',
          eb
            .selectFrom('applications as own')
            .select('own.cert_hash')
            .where('own.busi_water_no', '=', busiWaterNo),
        ),
      )
      .orderBy('documents.busi_water_no')
      .execute()
  );
}

/** The columns of a kept copy, for a row that has none (pending or failed). */
const NO_COPY = {
  blob_id: null,
  content_type: null,
  byte_size: null,
  sha256: null,
  width: null,
  height: null,
  chunk_count: null,
  fetched_at: null,
  preview_blob_id: null,
  preview_chunk_count: null,
  preview_byte_size: null,
} as const;

/**
 * Rows pending for fields not yet taken up, and pending again for a row about another URL; a row
 * already about the same URL is left alone.
 */
export async function markDocumentsPending(
  db: Kysely<Database>,
  busiWaterNo: string,
  fields: readonly { field: string; urlHash: string }[],
  now: number,
): Promise<void> {
  await db
    .insertInto('documents')
    .values(
      fields.map(({ field, urlHash }) => ({
        busi_water_no: busiWaterNo,
        field,
        state: 'pending' as const,
        reason: null,
        url_hash: urlHash,
        ...NO_COPY,
        updated_at: now,
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(['busi_water_no', 'field'])
        .doUpdateSet((eb) => ({
          state: 'pending' as const,
          reason: null,
          url_hash: eb.ref('excluded.url_hash'),
          updated_at: now,
        }))
        .whereRef('documents.url_hash', '!=', 'excluded.url_hash'),
    )
    .execute();
}

/** The field pending for this URL, whatever its row said; the copy it holds, if any, stays. */
export async function restartDocument(
  db: Kysely<Database>,
  busiWaterNo: string,
  field: string,
  urlHash: string,
  now: number,
): Promise<void> {
  const fresh = { state: 'pending' as const, reason: null, url_hash: urlHash, updated_at: now };
  await db
    .insertInto('documents')
    .values({
      busi_water_no: busiWaterNo,
      field,
      ...fresh,
      ...NO_COPY,
    })
    .onConflict((oc) => oc.columns(['busi_water_no', 'field']).doUpdateSet(fresh))
    .execute();
}

/** The blobs the field's row names: its kept copy and its preview (or the ones before an amend). */
export async function heldBlobIds(
  db: Kysely<Database>,
  busiWaterNo: string,
  field: string,
): Promise<string[]> {
  const held = await db
    .selectFrom('documents')
    .select(['blob_id', 'preview_blob_id'])
    .where('busi_water_no', '=', busiWaterNo)
    .where('field', '=', field)
    .executeTakeFirst();
  return [held?.blob_id ?? null, held?.preview_blob_id ?? null].filter((id) => id !== null);
}

/**
 * Writes a field's outcome if the row is still pending for the same URL: false when an amend or
 * another run got there first.
 */
export async function settleIfPending(
  db: Kysely<Database>,
  place: { busiWaterNo: string; field: string; urlHash: string },
  values: Updateable<DocumentsTable>,
  now: number,
): Promise<boolean> {
  const updated = await db
    .updateTable('documents')
    .set({ ...values, updated_at: now })
    .where('busi_water_no', '=', place.busiWaterNo)
    .where('field', '=', place.field)
    .where('url_hash', '=', place.urlHash)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

export async function documentRows(db: Kysely<Database>, serials: readonly string[]) {
  if (serials.length === 0) return [];
  return db
    .selectFrom('documents')
    .select([
      'busi_water_no',
      'field',
      'state',
      'reason',
      'url_hash',
      'blob_id',
      'content_type',
      'byte_size',
      'sha256',
      'width',
      'height',
      'chunk_count',
      'fetched_at',
      'preview_blob_id',
      'preview_chunk_count',
      'preview_byte_size',
    ])
    .where('busi_water_no', 'in', serials)
    .execute();
}

export type DocumentRow = Awaited<ReturnType<typeof documentRows>>[number];

/** Every document and chunk of an application: erased with it (retention, erasure). */
export async function eraseDocuments(db: Kysely<Database>, busiWaterNo: string): Promise<void> {
  await db.deleteFrom('document_chunks').where('busi_water_no', '=', busiWaterNo).execute();
  await db.deleteFrom('documents').where('busi_water_no', '=', busiWaterNo).execute();
}

/** Writes sealed chunks: on PostgreSQL one COPY, elsewhere in one transaction. */
export async function insertChunks(store: Store, rows: readonly DocumentChunksTable[]): Promise<void> {
  if (store.copyDocumentChunks !== undefined) {
    // PostgreSQL: one COPY, the chunks sent as they are (an INSERT's would be copied by the driver).
    await store.copyDocumentChunks(rows);
  } else {
    await store.transaction(async (trx) => {
      for (const row of rows) await trx.insertInto('document_chunks').values(row).execute();
    });
  }
}

/**
 * Up to `count` chunks of a blob from `seq` on, in order: fewer when some are missing. Each chunk's
 * bytes are a buffer of their own, the caller's to free: on PostgreSQL read by one binary COPY.
 */
export async function chunksOf(
  store: Store,
  blobId: string,
  from: number,
  count: number,
): Promise<ReadChunk[]> {
  if (store.copyChunksOut !== undefined) return store.copyChunksOut({ blobId, from, count });
  return store.db
    .selectFrom('document_chunks')
    .select(['chunk_id', 'seq', 'key_id', 'chunk_enc'])
    .where('blob_id', '=', blobId)
    .where('seq', '>=', from)
    .where('seq', '<', from + count)
    .orderBy('seq')
    .execute();
}

export async function deleteBlob(db: Kysely<Database>, blobId: string): Promise<void> {
  await db.deleteFrom('document_chunks').where('blob_id', '=', blobId).execute();
}

/** Chunks of the field in none of the blobs `keep`: the copy replaced, and whatever a crash left behind. */
export async function deleteOtherBlobs(
  db: Kysely<Database>,
  place: { busiWaterNo: string; field: string },
  keep: readonly string[],
): Promise<void> {
  let query = db
    .deleteFrom('document_chunks')
    .where('busi_water_no', '=', place.busiWaterNo)
    .where('field', '=', place.field);
  if (keep.length > 0) query = query.where('blob_id', 'not in', keep);
  await query.execute();
}

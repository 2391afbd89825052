import type { Kysely } from 'kysely';
import type { Database } from '../store/tables.ts';

/**
 * Queries over the documents rows (a field's state and the copy kept of it), as the fetch job, the
 * reviewer's risk flags and the console read and write them (the chunks' bytes are
 * documentStore.ts's). Takes a Kysely handle or a transaction.
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

/**
 * Whether the application exists. Asked here rather than of the application repository: the
 * console's document route needs no more of the row, and documents/ reaches no further up.
 */
export async function applicationExists(db: Kysely<Database>, busiWaterNo: string): Promise<boolean> {
  const application = await db
    .selectFrom('applications')
    .select('busi_water_no')
    .where('busi_water_no', '=', busiWaterNo)
    .executeTakeFirst();
  return application !== undefined;
}

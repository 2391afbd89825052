import type { Kysely } from 'kysely';
import type { Database } from '../store/tables.ts';

/**
 * Queries over the applications of one person at one app, as an applicant's request through the
 * partner reads and marks them (docs/PRIVACY.md): who the person is (the keyed hash of the identity
 * document), which applications are theirs, what a deletion weighs of them, and their restriction.
 * The rest of the application rows' queries are applicationRepository.ts's.
 */

/** The person behind one of an app's applications: the keyed hash of its identity document. */
export async function findCertHashOf(
  db: Kysely<Database>,
  appId: string,
  busiWaterNo: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('applications')
    .select('cert_hash')
    .where('busi_water_no', '=', busiWaterNo)
    .where('app_id', '=', appId)
    .executeTakeFirst();
  return row?.cert_hash;
}

/**
 * Every application of one person at one app, oldest first, matched by the identity document's
 * keyed hash as the duplicate check matches them: what a subject request covers. A partner's
 * applications are read through its index on app_id; subject requests are rare, and an index of
 * its own would cost every submission one more entry.
 */
export async function findSerialsOfPerson(
  db: Kysely<Database>,
  appId: string,
  certHash: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('applications')
    .select('busi_water_no')
    .where('app_id', '=', appId)
    .where('cert_hash', '=', certHash)
    .orderBy('created_at')
    .orderBy('busi_water_no')
    .execute();
  return rows.map((row) => row.busi_water_no);
}

/**
 * What a deletion request weighs of the applications it covers (docs/PRIVACY.md): their state, when
 * they last changed, whether they are erased or restricted already. That app's only.
 */
export async function findCoveredApplications(
  db: Kysely<Database>,
  appId: string,
  serials: readonly string[],
) {
  if (serials.length === 0) return [];
  const rows = await db
    .selectFrom('applications')
    .select(['busi_water_no', 'status', 'updated_at', 'erased_at', 'restricted_until'])
    .where('app_id', '=', appId)
    .where('busi_water_no', 'in', serials)
    .orderBy('busi_water_no')
    .execute();
  return rows.map((row) => ({
    ...row,
    updated_at: Number(row.updated_at),
    erased_at: row.erased_at == null ? null : Number(row.erased_at),
    restricted_until: row.restricted_until == null ? null : Number(row.restricted_until),
  }));
}

/**
 * Marks applications restricted until `until` (ms): kept under record keeping, withdrawn from every
 * operator but a compliance one, erased by retention at that date. A later date never shortens an
 * earlier one's.
 */
export async function restrictApplications(
  db: Kysely<Database>,
  serials: readonly string[],
  until: number,
): Promise<void> {
  if (serials.length === 0) return;
  await db
    .updateTable('applications')
    .set({ restricted_until: until })
    .where('busi_water_no', 'in', serials)
    .where((eb) => eb.or([eb('restricted_until', 'is', null), eb('restricted_until', '<', until)]))
    .execute();
}

/** When an application is restricted until (ms), or null; undefined when there is none. */
export async function findRestriction(
  db: Kysely<Database>,
  busiWaterNo: string,
): Promise<{ restricted_until: number | null } | undefined> {
  const row = await db
    .selectFrom('applications')
    .select('restricted_until')
    .where('busi_water_no', '=', busiWaterNo)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  return { restricted_until: row.restricted_until == null ? null : Number(row.restricted_until) };
}

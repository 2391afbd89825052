import type { Kysely } from 'kysely';
import type { Database, RiskAssessmentsTable, RiskPoliciesTable } from '../store/tables.ts';

/**
 * Every query of the risk tables (migration 0071): the policies assessments were made under, the
 * assessments themselves (the latest is the application's rating, the others its history), and
 * the keyed hashes of the contact details that find applicants sharing one. Takes a Kysely handle
 * or a transaction.
 */

/** Keeps a policy's text under its version, once: the first assessment made under it stores it. */
export async function keepPolicy(db: Kysely<Database>, row: RiskPoliciesTable): Promise<void> {
  await db
    .insertInto('risk_policies')
    .values(row)
    .onConflict((oc) => oc.column('version').doNothing())
    .execute();
}

export async function findPolicy(
  db: Kysely<Database>,
  version: string,
): Promise<RiskPoliciesTable | undefined> {
  return db.selectFrom('risk_policies').selectAll().where('version', '=', version).executeTakeFirst();
}

export async function insertAssessment(db: Kysely<Database>, row: RiskAssessmentsTable): Promise<void> {
  await db.insertInto('risk_assessments').values(row).execute();
}

/** The application's assessments, newest first (its rating, then its risk history). */
export async function assessmentsOf(db: Kysely<Database>, busiWaterNo: string, limit = 50) {
  return db
    .selectFrom('risk_assessments')
    .selectAll()
    .where('busi_water_no', '=', busiWaterNo)
    .orderBy('assessed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * Records the application's contact hashes, replacing those of an earlier assessment. An upsert,
 * not a delete and an insert: two assessments of one application at once (its own job and a
 * re-assessment) would otherwise both insert after both deleted, and the second would fail on the
 * primary key.
 */
export async function putContacts(
  db: Kysely<Database>,
  busiWaterNo: string,
  certHash: string,
  contacts: readonly { kind: string; hash: string }[],
): Promise<void> {
  const kinds = contacts.map((c) => c.kind);
  let gone = db.deleteFrom('risk_contacts').where('busi_water_no', '=', busiWaterNo);
  if (kinds.length > 0) gone = gone.where('kind', 'not in', kinds);
  await gone.execute();
  if (contacts.length === 0) return;
  await db
    .insertInto('risk_contacts')
    .values(
      contacts.map((c) => ({ busi_water_no: busiWaterNo, kind: c.kind, hash: c.hash, cert_hash: certHash })),
    )
    .onConflict((oc) =>
      oc.columns(['busi_water_no', 'kind']).doUpdateSet((eb) => ({
        hash: eb.ref('excluded.hash'),
        cert_hash: eb.ref('excluded.cert_hash'),
      })),
    )
    .execute();
}

/** Forgets the application's contact hashes (retention's erasure). */
export async function deleteContacts(db: Kysely<Database>, busiWaterNo: string): Promise<void> {
  await db.deleteFrom('risk_contacts').where('busi_water_no', '=', busiWaterNo).execute();
}

/**
 * Other applicants' active applications that gave the same contact: another identity document
 * (the same person applying again is no match), not final, at most `limit` serials.
 */
export async function sharingContact(
  db: Kysely<Database>,
  contact: { busiWaterNo: string; certHash: string; kind: string; hash: string },
  limit = 20,
): Promise<string[]> {
  const rows = await db
    .selectFrom('risk_contacts')
    .innerJoin('applications', 'applications.busi_water_no', 'risk_contacts.busi_water_no')
    .select('risk_contacts.busi_water_no')
    .where('risk_contacts.kind', '=', contact.kind)
    .where('risk_contacts.hash', '=', contact.hash)
    .where('risk_contacts.busi_water_no', '!=', contact.busiWaterNo)
    .where('risk_contacts.cert_hash', '!=', contact.certHash)
    .where('applications.active_cert_hash', 'is not', null)
    .orderBy('risk_contacts.busi_water_no')
    .limit(limit)
    .execute();
  return rows.map((row) => row.busi_water_no);
}

/** The risk level an operator set for the partner, if any. */
export async function partnerRiskLevel(db: Kysely<Database>, appId: string): Promise<string | null> {
  const row = await db.selectFrom('apps').select('risk_level').where('app_id', '=', appId).executeTakeFirst();
  return row?.risk_level ?? null;
}

/**
 * The next serials after `after`, in order, that have an assessment and were submitted inside the
 * window (Unix milliseconds, `to` excluded): a replay's pages.
 */
export async function assessedSerialsAfter(
  db: Kysely<Database>,
  after: string,
  window: { from?: number; to?: number },
  limit: number,
): Promise<string[]> {
  let query = db
    .selectFrom('applications')
    .select('busi_water_no')
    .where('busi_water_no', '>', after)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('risk_assessments')
          .select('risk_assessments.id')
          .whereRef('risk_assessments.busi_water_no', '=', 'applications.busi_water_no'),
      ),
    );
  if (window.from !== undefined) query = query.where('created_at', '>=', window.from);
  if (window.to !== undefined) query = query.where('created_at', '<', window.to);
  const rows = await query.orderBy('busi_water_no').limit(limit).execute();
  return rows.map((row) => row.busi_water_no);
}

/** The latest assessment of each serial (the one the application view shows). */
export async function latestAssessmentsOf(
  db: Kysely<Database>,
  serials: string[],
): Promise<RiskAssessmentsTable[]> {
  const rows = await db
    .selectFrom('risk_assessments')
    .selectAll()
    .where('busi_water_no', 'in', serials)
    .orderBy('busi_water_no')
    .orderBy('assessed_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.filter((row, i) => i === 0 || rows[i - 1]!.busi_water_no !== row.busi_water_no);
}

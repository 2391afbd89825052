import { sql, type Kysely, type Updateable } from 'kysely';
import type { Store } from '../store/connect.ts';
import type { Status } from '../store/applicationTables.ts';
import { OPEN_HIT_STATES } from '../store/screeningTables.ts';
import type { ApplicationsTable, Database } from '../store/tables.ts';

export type { SubmissionRows } from '../store/connect.ts';

/**
 * Queries over the application rows: the submit's conflicts, the reads of a move, a listing's page,
 * the update at a version. Its events are events/eventRepository.ts's, its review claim
 * reviewClaimRepository.ts's, its screening hits screening/hitRepository.ts's, the applications of
 * one person and their restriction personRepository.ts's. Takes a Kysely handle or a transaction.
 */

/** The active application (not in a final state) for an identity document, if any. */
export async function findActiveByCertHash(db: Kysely<Database>, certHash: string) {
  return db
    .selectFrom('applications')
    .select(['busi_water_no', 'app_id'])
    .where('active_cert_hash', '=', certHash)
    .executeTakeFirst();
}

/** The active application (not in a final state) of an app with a partner reference, if any. */
export async function findActiveByExternalId(db: Kysely<Database>, appId: string, externalId: string) {
  return db
    .selectFrom('applications')
    .select(['busi_water_no', 'app_id'])
    .where('app_id', '=', appId)
    .where('active_external_id', '=', externalId)
    .executeTakeFirst();
}

/**
 * The serial an app's reference names: its active application, else the latest one that carried it
 * (a final application keeps its reference). Another app's reference finds nothing.
 */
export async function findSerialByExternalId(
  db: Kysely<Database>,
  appId: string,
  externalId: string,
): Promise<string | undefined> {
  const active = await findActiveByExternalId(db, appId, externalId);
  if (active !== undefined) return active.busi_water_no;
  const latest = await db
    .selectFrom('applications')
    .select('busi_water_no')
    .where('app_id', '=', appId)
    .where('external_id', '=', externalId)
    .orderBy('created_at', 'desc')
    .orderBy('busi_water_no', 'desc')
    .executeTakeFirst();
  return latest?.busi_water_no;
}

export async function isCardNumberTaken(db: Kysely<Database>, cardNoHash: string): Promise<boolean> {
  const row = await db
    .selectFrom('applications')
    .select('busi_water_no')
    .where('card_no_hash', '=', cardNoHash)
    .executeTakeFirst();
  return row !== undefined;
}

/** An application of one app. Another app's serial is not found, exactly like an unknown one. */
export async function findApplicationOfApp(db: Kysely<Database>, appId: string, busiWaterNo: string) {
  return db
    .selectFrom('applications')
    .select([
      'busi_water_no',
      'external_id',
      'status',
      'status_reason',
      'reason_codes',
      'requested_fields',
      'card_no_masked',
      'created_at',
      'updated_at',
    ])
    .where('busi_water_no', '=', busiWaterNo)
    .where('app_id', '=', appId)
    .executeTakeFirst();
}

/** A position in the listing order (created_at, busi_water_no): where the next page starts after. */
export interface ListPosition {
  createdAt: number;
  busiWaterNo: string;
  /** In a listing by risk (`byRisk`): the row's risk_rank, the order's first key. */
  riskRank?: number | undefined;
}

export interface ApplicationFilter {
  appId?: string | undefined;
  status?: Status | undefined;
  busiWaterNo?: string | undefined;
  externalId?: string | undefined;
  /** Milliseconds, inclusive. */
  createdFrom?: number | undefined;
  /** Milliseconds, exclusive. */
  createdBefore?: number | undefined;
  after?: ListPosition | undefined;
  limit: number;
  /** By (created_at, busi_water_no): oldest first unless `desc`. */
  order?: 'asc' | 'desc' | undefined;
  /** Only applications a sanctions screening hit holds (unresolved, or cleared by one operator). */
  screeningOpen?: boolean | undefined;
  /** What a support call quotes: an exact partner reference, or serials within a range (a prefix). */
  quoted?: { externalId: string; serials?: { from: string; to: string } | undefined } | undefined;
  /** Only applications whose latest risk assessment has this tier's rank (0: not yet rated). */
  riskRank?: number | undefined;
  /** By (risk_rank, created_at, busi_water_no) instead: by tier, then as the listing orders. */
  byRisk?: boolean | undefined;
  /** Leave out the applications a deletion request restricted (record/restriction.ts). */
  withoutRestricted?: boolean | undefined;
}

const SUMMARY_COLUMNS = [
  'busi_water_no',
  'external_id',
  'app_id',
  'status',
  'status_reason',
  'reason_codes',
  'requested_fields',
  'cert_type',
  'card_no_masked',
  'version',
  'created_at',
  'updated_at',
] as const;

export type ApplicationSummaryRow = Pick<ApplicationsTable, (typeof SUMMARY_COLUMNS)[number]> & {
  risk_rank?: number;
};

/**
 * One page of applications in the order (created_at, busi_water_no), starting after a position:
 * keyset pagination, so rows inserted meanwhile never shift a page (nothing skipped or repeated).
 * Reads `limit + 1` rows so that the caller knows whether another page follows.
 */
export async function listApplicationRows(
  db: Kysely<Database>,
  filter: ApplicationFilter,
): Promise<ApplicationSummaryRow[]> {
  let query = db.selectFrom('applications').select([...SUMMARY_COLUMNS, 'risk_rank']);
  if (filter.appId !== undefined) query = query.where('app_id', '=', filter.appId);
  // With or without a status: each has its index, (status, risk_rank, created_at, busi_water_no)
  // and (risk_rank, created_at, busi_water_no) (migration 0086), in the order of either listing.
  if (filter.riskRank !== undefined) query = query.where('risk_rank', '=', filter.riskRank);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.busiWaterNo !== undefined) query = query.where('busi_water_no', '=', filter.busiWaterNo);
  if (filter.externalId !== undefined) query = query.where('external_id', '=', filter.externalId);
  if (filter.withoutRestricted === true) query = query.where('restricted_until', 'is', null);
  if (filter.createdFrom !== undefined) query = query.where('created_at', '>=', filter.createdFrom);
  if (filter.createdBefore !== undefined) query = query.where('created_at', '<', filter.createdBefore);
  const quoted = filter.quoted;
  if (quoted !== undefined) {
    // Each branch has its index: external_id's, and the primary key's range for a prefix.
    const serials = quoted.serials;
    query = query.where((eb) =>
      serials === undefined
        ? eb('external_id', '=', quoted.externalId)
        : eb.or([
            eb('external_id', '=', quoted.externalId),
            eb.and([eb('busi_water_no', '>=', serials.from), eb('busi_water_no', '<=', serials.to)]),
          ]),
    );
  }
  if (filter.screeningOpen === true) {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('screening_hits')
          .select('screening_hits.id')
          .whereRef('screening_hits.busi_water_no', '=', 'applications.busi_water_no')
          .where('screening_hits.state', 'in', OPEN_HIT_STATES),
      ),
    );
  }
  const after = filter.after;
  const order = filter.order ?? 'asc';
  const byRisk = filter.byRisk === true;
  if (after !== undefined) {
    const rank = after.riskRank ?? 0;
    query = query.where((eb) =>
      byRisk
        ? eb(
            eb.refTuple('risk_rank', 'created_at', 'busi_water_no'),
            order === 'desc' ? '<' : '>',
            eb.tuple(rank, after.createdAt, after.busiWaterNo),
          )
        : eb(
            eb.refTuple('created_at', 'busi_water_no'),
            order === 'desc' ? '<' : '>',
            eb.tuple(after.createdAt, after.busiWaterNo),
          ),
    );
  }
  if (byRisk) query = query.orderBy('risk_rank', order);
  return query
    .orderBy('created_at', order)
    .orderBy('busi_water_no', order)
    .limit(filter.limit + 1)
    .execute();
}

/** The encrypted payloads of some applications, by serial. */
export async function payloadsOf(db: Kysely<Database>, serials: readonly string[]) {
  if (serials.length === 0) return [];
  return db
    .selectFrom('applications')
    .select(['busi_water_no', 'payload_enc'])
    .where('busi_water_no', 'in', serials)
    .execute();
}

/** The partner (app id) of some applications, by serial: whose documents a fetch job's are. */
export async function partnersOf(db: Kysely<Database>, serials: readonly string[]) {
  if (serials.length === 0) return new Map<string, string>();
  const rows = await db
    .selectFrom('applications')
    .select(['busi_water_no', 'app_id'])
    .where('busi_water_no', 'in', serials)
    .execute();
  return new Map(rows.map((row) => [row.busi_water_no, row.app_id]));
}

/** An application with its encrypted payload, for the operators' view. */
export async function findApplication(db: Kysely<Database>, busiWaterNo: string) {
  return db
    .selectFrom('applications')
    .select([...SUMMARY_COLUMNS, 'risk_rank', 'payload_enc'])
    .where('busi_water_no', '=', busiWaterNo)
    .executeTakeFirst();
}

/** What a risk assessment reads of the row: its state, its partner, its document's hash, its payload. */
export async function findForAssessment(db: Kysely<Database>, busiWaterNo: string) {
  return db
    .selectFrom('applications')
    .select(['busi_water_no', 'app_id', 'status', 'version', 'cert_hash', 'payload_enc'])
    .where('busi_water_no', '=', busiWaterNo)
    .executeTakeFirst();
}

/** Whether the application exists (the console's document route needs no more of the row). */
export async function applicationExists(db: Kysely<Database>, busiWaterNo: string): Promise<boolean> {
  const application = await db
    .selectFrom('applications')
    .select('busi_water_no')
    .where('busi_water_no', '=', busiWaterNo)
    .executeTakeFirst();
  return application !== undefined;
}

/**
 * What a document's event shows of its application, the row locked until the transaction ends:
 * holding it serialises the outcomes of the application's fields (and an amend).
 */
export async function lockForDocumentEvent(
  store: Pick<Store, 'lockRows'>,
  trx: Kysely<Database>,
  busiWaterNo: string,
) {
  const read = trx
    .selectFrom('applications')
    .select(['busi_water_no', 'app_id', 'status', 'card_no_masked', 'external_id'])
    .where('busi_water_no', '=', busiWaterNo);
  return store.lockRows(read).executeTakeFirst();
}

/** What a move reads of an application: its state and what its event shows. `appId`: that app's only. */
export async function findForMove(db: Kysely<Database>, busiWaterNo: string, appId?: string) {
  let query = db
    .selectFrom('applications')
    .select(['busi_water_no', 'app_id', 'status', 'version', 'card_no_masked', 'external_id'])
    .where('busi_water_no', '=', busiWaterNo);
  if (appId !== undefined) query = query.where('app_id', '=', appId);
  return query.executeTakeFirst();
}

/** What an amendment reads of the app's application: its state, the fields asked for, the payload. */
export async function findForAmend(db: Kysely<Database>, busiWaterNo: string, appId: string) {
  return db
    .selectFrom('applications')
    .select([
      'busi_water_no',
      'status',
      'version',
      'requested_fields',
      'payload_enc',
      'card_no_hash',
      'external_id',
    ])
    .where('busi_water_no', '=', busiWaterNo)
    .where('app_id', '=', appId)
    .executeTakeFirst();
}

/**
 * Writes a change of the row if it is still at `version`, and moves it to the next version: false
 * when another change got there first (optimistic; of two concurrent changes exactly one writes).
 */
export async function updateAtVersion(
  db: Kysely<Database>,
  busiWaterNo: string,
  version: number,
  changes: Updateable<ApplicationsTable>,
): Promise<boolean> {
  const updated = await db
    .updateTable('applications')
    .set({ ...changes, version: sql<number>`version + 1` })
    .where('busi_water_no', '=', busiWaterNo)
    .where('version', '=', version)
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

/** Applications waiting for an amendment past their due time, the longest due first. */
export async function findSupplementsDue(db: Kysely<Database>, now: number, limit: number) {
  return db
    .selectFrom('applications')
    .select('busi_water_no')
    .where('status', '=', 'SUPPLEMENT_REQUIRED')
    .where('supplement_due_at', '<=', now)
    .orderBy('supplement_due_at')
    .limit(limit)
    .execute();
}

/** The sealed payloads of these applications (those that exist). */
export async function sealedPayloads(db: Kysely<Database>, serials: readonly string[]) {
  if (serials.length === 0) return [];
  return db
    .selectFrom('applications')
    .select(['busi_water_no', 'payload_enc'])
    .where('busi_water_no', 'in', serials)
    .execute();
}

/** Applications with their state and sealed payload, for screening (those that exist). */
export async function sealedApplications(db: Kysely<Database>, serials: readonly string[]) {
  if (serials.length === 0) return [];
  return db
    .selectFrom('applications')
    .select(['busi_water_no', 'status', 'payload_enc'])
    .where('busi_water_no', 'in', serials)
    .execute();
}

/** The next `limit` applications not erased, in serial order after `after` (from the first: null). */
export async function unerasedAfter(db: Kysely<Database>, after: string | null, limit: number) {
  let query = db
    .selectFrom('applications')
    .select(['busi_water_no', 'status', 'payload_enc'])
    .where('erased_at', 'is', null)
    .orderBy('busi_water_no')
    .limit(limit);
  if (after !== null) query = query.where('busi_water_no', '>', after);
  return query.execute();
}

/** The serials of an app's applications in any of `statuses` (through its (app_id, status) index). */
export async function serialsOfAppIn(
  db: Kysely<Database>,
  appId: string,
  statuses: readonly Status[],
): Promise<string[]> {
  if (statuses.length === 0) return [];
  const rows = await db
    .selectFrom('applications')
    .select('busi_water_no')
    .where('app_id', '=', appId)
    .where('status', 'in', statuses)
    .execute();
  return rows.map((row) => row.busi_water_no);
}

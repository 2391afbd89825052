import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  OPEN_HIT_STATES,
  type EntryChanges,
  type RescreenOutcome,
  type ScreeningHitsTable,
  type ScreeningListsTable,
} from '../store/screeningTables.ts';
import type { Database } from '../store/tables.ts';
import type { ListEntry, ListName } from './listEntry.ts';
import type { ScreeningMatch } from './screeningIndex.ts';
import type { RecordedHit } from './clearances.ts';

/** Every query of the screening tables. */

/**
 * The screening hits of an application that still hold it (screening/screeningGuard.ts): those
 * unresolved, or cleared by one operator only.
 */
export async function countOpenHits(db: Kysely<Database>, busiWaterNo: string): Promise<number> {
  const row = await db
    .selectFrom('screening_hits')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('busi_water_no', '=', busiWaterNo)
    .where('state', 'in', OPEN_HIT_STATES)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A version of a list as imported: the row of `screening_lists`, its list named. */
export type ListVersionRow = Omit<ScreeningListsTable, 'list' | 'entry_changes' | 'rescreen_outcome'> & {
  list: ListName;
};

/** A version with what its import changed and what its re-screen found (null until it ends). */
export type ListVersion = ListVersionRow & {
  changes: EntryChanges | null;
  rescreen: RescreenOutcome | null;
};

function listVersionOf(row: ScreeningListsTable): ListVersion {
  const { entry_changes, rescreen_outcome, ...version } = row;
  return {
    ...(version as ListVersionRow),
    changes: entry_changes === null ? null : (JSON.parse(entry_changes) as EntryChanges),
    rescreen: rescreen_outcome === null ? null : (JSON.parse(rescreen_outcome) as RescreenOutcome),
  };
}

/** The newest version of each list: what is in force. */
export async function versionsInForce(db: Kysely<Database>): Promise<ListVersion[]> {
  const latest = await db
    .selectFrom('screening_lists')
    .select(['list', (eb) => eb.fn.max('imported_at').as('at')])
    .groupBy('list')
    .execute();
  if (latest.length === 0) return [];
  const rows = await db
    .selectFrom('screening_lists')
    .selectAll()
    .where((eb) =>
      eb.or(latest.map((l) => eb.and([eb('list', '=', l.list), eb('imported_at', '=', Number(l.at))]))),
    )
    .orderBy('list')
    .orderBy('version_id')
    .execute();
  // Two imports in one millisecond: the later id (random) is as good as the other; keep one per list.
  return rows.filter((row, i) => rows.findIndex((r) => r.list === row.list) === i).map(listVersionOf);
}

/** The version of `list` in force now (before an import adds its own), if any. */
export async function versionInForceOf(db: Kysely<Database>, list: ListName): Promise<string | undefined> {
  const row = await db
    .selectFrom('screening_lists')
    .select('version_id')
    .where('list', '=', list)
    .orderBy('imported_at', 'desc')
    .orderBy('version_id')
    .limit(1)
    .executeTakeFirst();
  return row?.version_id;
}

/** Whether any list was ever imported: one is then in force. */
export async function anyListImported(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('screening_lists').select('version_id').limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function listVersions(db: Kysely<Database>, limit: number): Promise<ListVersion[]> {
  const rows = await db
    .selectFrom('screening_lists')
    .selectAll()
    .orderBy('imported_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map(listVersionOf);
}

export async function insertListVersion(db: Kysely<Database>, version: ListVersionRow): Promise<void> {
  await db
    .insertInto('screening_lists')
    .values({ ...version, entry_changes: null, rescreen_outcome: null })
    .execute();
}

/** A version's counts and file facts, once its entries are all in. */
export async function completeListVersion(
  db: Kysely<Database>,
  versionId: string,
  facts: Pick<ScreeningListsTable, 'entries' | 'names' | 'documents' | 'sha256' | 'published_at'> & {
    changes: EntryChanges;
  },
): Promise<void> {
  const { changes, ...rest } = facts;
  await db
    .updateTable('screening_lists')
    .set({ ...rest, entry_changes: JSON.stringify(changes) })
    .where('version_id', '=', versionId)
    .execute();
}

/** What a version's re-screen found, written once it ends. */
export async function recordRescreenOutcome(
  db: Kysely<Database>,
  versionId: string,
  outcome: RescreenOutcome,
): Promise<void> {
  await db
    .updateTable('screening_lists')
    .set({ rescreen_outcome: JSON.stringify(outcome) })
    .where('version_id', '=', versionId)
    .execute();
}

/**
 * Writes entries, each with the hash of what it says (`hashOf`; importChanges.ts): a list that
 * names one reference twice keeps the first.
 */
export async function insertEntries(
  db: Kysely<Database>,
  versionId: string,
  entries: readonly ListEntry[],
  hashOf: (entry: ListEntry) => string,
) {
  if (entries.length === 0) return;
  await db
    .insertInto('screening_entries')
    .values(
      entries.map((e) => ({
        version_id: versionId,
        reference: e.reference,
        entry: JSON.stringify(e),
        content_hash: hashOf(e),
      })),
    )
    .onConflict((oc) => oc.columns(['version_id', 'reference']).doNothing())
    .execute();
}

/** Hashes the entries of a version imported before the hashes were kept (migration 0116), once. */
export async function fillContentHashes(
  db: Kysely<Database>,
  versionId: string,
  hashOf: (entry: ListEntry) => string,
): Promise<void> {
  for (;;) {
    const rows = await db
      .selectFrom('screening_entries')
      .select(['reference', 'entry'])
      .where('version_id', '=', versionId)
      .where('content_hash', 'is', null)
      .limit(500)
      .execute();
    if (rows.length === 0) return;
    for (const row of rows) {
      await db
        .updateTable('screening_entries')
        .set({ content_hash: hashOf(JSON.parse(row.entry) as ListEntry) })
        .where('version_id', '=', versionId)
        .where('reference', '=', row.reference)
        .execute();
    }
  }
}

/** The references of `versionId` that `otherId` does not have: how many, and the first `limit`. */
export async function referencesOnlyIn(
  db: Kysely<Database>,
  versionId: string,
  otherId: string,
  limit: number,
): Promise<{ count: number; references: string[] }> {
  const onlyHere = db
    .selectFrom('screening_entries as n')
    .where('n.version_id', '=', versionId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('screening_entries as o')
            .select('o.reference')
            .where('o.version_id', '=', otherId)
            .whereRef('o.reference', '=', 'n.reference'),
        ),
      ),
    );
  const counted = await onlyHere.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await onlyHere.select('n.reference').orderBy('n.reference').limit(limit).execute();
  return { count: Number(counted.n), references: rows.map((r) => r.reference) };
}

/** The references in both versions whose content differs: how many, and the first `limit`. */
export async function referencesChanged(
  db: Kysely<Database>,
  versionId: string,
  otherId: string,
  limit: number,
): Promise<{ count: number; references: string[] }> {
  const changed = db
    .selectFrom('screening_entries as n')
    .innerJoin('screening_entries as o', (join) =>
      join.onRef('o.reference', '=', 'n.reference').on('o.version_id', '=', otherId),
    )
    .where('n.version_id', '=', versionId)
    .whereRef('n.content_hash', '<>', 'o.content_hash');
  const counted = await changed.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await changed.select('n.reference').orderBy('n.reference').limit(limit).execute();
  return { count: Number(counted.n), references: rows.map((r) => r.reference) };
}

/** The applications with a hit on an entry of this version (raised since its import): how many, the first `limit`. */
export async function applicationsHitBy(
  db: Kysely<Database>,
  versionId: string,
  limit: number,
): Promise<{ count: number; serials: string[] }> {
  const counted = await db
    .selectFrom('screening_hits')
    .select((eb) => eb.fn.count<number>('busi_water_no').distinct().as('n'))
    .where('version_id', '=', versionId)
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('screening_hits')
    .select('busi_water_no')
    .distinct()
    .where('version_id', '=', versionId)
    .orderBy('busi_water_no')
    .limit(limit)
    .execute();
  return { count: Number(counted.n), serials: rows.map((r) => r.busi_water_no) };
}

/** The open hits of these applications, by list and reference: what a re-screen may no longer find. */
export async function openHitsOf(
  db: Kysely<Database>,
  serials: readonly string[],
): Promise<{ busi_water_no: string; list: string; reference: string }[]> {
  if (serials.length === 0) return [];
  return db
    .selectFrom('screening_hits')
    .select(['busi_water_no', 'list', 'reference'])
    .where('busi_water_no', 'in', [...serials])
    .where('state', 'in', OPEN_HIT_STATES)
    .execute();
}

export async function entriesOf(db: Kysely<Database>, versionId: string): Promise<ListEntry[]> {
  const rows = await db
    .selectFrom('screening_entries')
    .select('entry')
    .where('version_id', '=', versionId)
    .execute();
  return rows.map((r) => JSON.parse(r.entry) as ListEntry);
}

export async function findEntry(
  db: Kysely<Database>,
  versionId: string,
  reference: string,
): Promise<ListEntry | undefined> {
  const row = await db
    .selectFrom('screening_entries')
    .select('entry')
    .where('version_id', '=', versionId)
    .where('reference', '=', reference)
    .executeTakeFirst();
  return row === undefined ? undefined : (JSON.parse(row.entry) as ListEntry);
}

/**
 * Records hits; one that an open hit of the same application and entry already answers is left out
 * (the partial unique index `screening_hits_open_entry`). New ones are returned.
 */
export async function insertHits(
  db: Kysely<Database>,
  hits: readonly {
    busi_water_no: string;
    match: ScreeningMatch;
    afterDelivery: boolean;
    entryHash?: string | undefined;
    subjectHash?: string | undefined;
  }[],
  now: number,
): Promise<ScreeningHitsTable[]> {
  if (hits.length === 0) return [];
  const rows: ScreeningHitsTable[] = hits.map(
    ({ busi_water_no, match, afterDelivery, entryHash, subjectHash }) => ({
      id: `hit_${randomUUID()}`,
      busi_water_no,
      list: match.list,
      version_id: match.version_id,
      reference: match.reference,
      matched_name: match.matched_name,
      matched_kind: match.matched_kind,
      fields: JSON.stringify(match.fields),
      score: Math.round(match.score * 1000),
      state: 'unresolved',
      after_delivery: afterDelivery ? 1 : 0,
      resolved_by: null,
      resolution_note: null,
      resolved_at: null,
      confirmed_by: null,
      confirmed_at: null,
      created_at: now,
      entry_hash: entryHash ?? null,
      subject_hash: subjectHash ?? null,
    }),
  );
  const inserted = await db
    .insertInto('screening_hits')
    .values(rows)
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .execute();
  const ids = new Set(inserted.map((r) => r.id));
  return rows.filter((r) => ids.has(r.id));
}

/** Every hit of these applications, as far as remembering a clearance goes (clearances.ts). */
export async function recordedHitsOf(
  db: Kysely<Database>,
  serials: readonly string[],
): Promise<RecordedHit[]> {
  if (serials.length === 0) return [];
  return db
    .selectFrom('screening_hits')
    .select(['busi_water_no', 'list', 'reference', 'state', 'entry_hash', 'subject_hash'])
    .where('busi_water_no', 'in', [...new Set(serials)])
    .execute();
}

export async function hitsOf(db: Kysely<Database>, busiWaterNo: string): Promise<ScreeningHitsTable[]> {
  return db
    .selectFrom('screening_hits')
    .selectAll()
    .where('busi_water_no', '=', busiWaterNo)
    .orderBy('score', 'desc')
    .orderBy('id')
    .execute();
}

export async function findHit(db: Kysely<Database>, busiWaterNo: string, id: string) {
  return db
    .selectFrom('screening_hits')
    .selectAll()
    .where('busi_water_no', '=', busiWaterNo)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Moves a hit from `from` to its next state; false when it was no longer in `from`. */
export async function updateHit(
  db: Kysely<Database>,
  id: string,
  from: ScreeningHitsTable['state'],
  set: Partial<ScreeningHitsTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('screening_hits')
    .set(set)
    .where('id', '=', id)
    .where('state', '=', from)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Open hits, and open hits found after delivery: the workload view's alert. */
export async function screeningAlerts(
  db: Kysely<Database>,
): Promise<{ open_hits: number; delivered_alerts: number }> {
  const row = await db
    .selectFrom('screening_hits')
    .select((eb) => [
      eb.fn.countAll<number>().as('open'),
      eb.fn.sum<number>('after_delivery').as('delivered'),
    ])
    .where('state', 'in', OPEN_HIT_STATES)
    .executeTakeFirstOrThrow();
  return { open_hits: Number(row.open), delivered_alerts: Number(row.delivered ?? 0) };
}

/** A hit found after delivery, with the application's app: what the issuer's alert says. */
export type DeliveredHit = Pick<
  ScreeningHitsTable,
  'id' | 'busi_water_no' | 'list' | 'version_id' | 'reference' | 'matched_kind' | 'fields' | 'score' | 'state'
> & { created_at: number; app_id: string; external_id: string | null };

function deliveredHits(db: Kysely<Database>) {
  return db
    .selectFrom('screening_hits as h')
    .innerJoin('applications as a', 'a.busi_water_no', 'h.busi_water_no')
    .select([
      'h.id',
      'h.busi_water_no',
      'h.list',
      'h.version_id',
      'h.reference',
      'h.matched_kind',
      'h.fields',
      'h.score',
      'h.state',
      'h.created_at',
      'a.app_id',
      'a.external_id',
    ])
    .where('h.after_delivery', '=', 1);
}

export async function findDeliveredHit(db: Kysely<Database>, id: string): Promise<DeliveredHit | undefined> {
  const row = await deliveredHits(db).where('h.id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : { ...row, external_id: row.external_id ?? null };
}

/** Hits found after delivery in the order they were found, from just after `after`. */
export async function deliveredHitsAfter(
  db: Kysely<Database>,
  after: { createdAt: number; id: string } | undefined,
  limit: number,
): Promise<DeliveredHit[]> {
  let query = deliveredHits(db).orderBy('h.created_at').orderBy('h.id').limit(limit);
  if (after !== undefined) {
    query = query.where((eb) =>
      eb.or([
        eb('h.created_at', '>', after.createdAt),
        eb.and([eb('h.created_at', '=', after.createdAt), eb('h.id', '>', after.id)]),
      ]),
    );
  }
  const rows = await query.execute();
  return rows.map((row) => ({ ...row, external_id: row.external_id ?? null }));
}

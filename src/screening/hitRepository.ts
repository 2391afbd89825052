import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { OPEN_HIT_STATES, type ScreeningHitsTable } from '../store/screeningTables.ts';
import type { Database } from '../store/tables.ts';
import type { ScreeningMatch } from './screeningIndex.ts';
import type { RecordedHit } from './clearances.ts';

/** Every query of `screening_hits`: the hits that hold an application until two operators clear them. */

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

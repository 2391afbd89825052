import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ScreeningPepMatchesTable } from '../store/screeningTables.ts';
import type { Database } from '../store/tables.ts';
import type { ScreeningMatch } from './screeningIndex.ts';

/** Every query of `screening_pep_matches`: PEP matches, which hold nothing (docs/SCREENING.md). */

/** Records PEP matches; one already recorded for the application and entry is left as it is. New ones are returned. */
export async function insertPepMatches(
  db: Kysely<Database>,
  matches: readonly { busi_water_no: string; match: ScreeningMatch & { pep: 'pep' | 'rca' } }[],
  now: number,
): Promise<ScreeningPepMatchesTable[]> {
  if (matches.length === 0) return [];
  const rows: ScreeningPepMatchesTable[] = matches.map(({ busi_water_no, match }) => ({
    id: `pep_${randomUUID()}`,
    busi_water_no,
    list: match.list,
    version_id: match.version_id,
    reference: match.reference,
    role: match.pep,
    matched_name: match.matched_name,
    matched_kind: match.matched_kind,
    fields: JSON.stringify(match.fields),
    score: Math.round(match.score * 1000),
    created_at: now,
  }));
  const inserted = await db
    .insertInto('screening_pep_matches')
    .values(rows)
    .onConflict((oc) => oc.columns(['busi_water_no', 'list', 'reference']).doNothing())
    .returning('id')
    .execute();
  const ids = new Set(inserted.map((r) => r.id));
  return rows.filter((r) => ids.has(r.id));
}

export async function pepMatchesOf(
  db: Kysely<Database>,
  busiWaterNo: string,
): Promise<ScreeningPepMatchesTable[]> {
  return db
    .selectFrom('screening_pep_matches')
    .selectAll()
    .where('busi_water_no', '=', busiWaterNo)
    .orderBy('score', 'desc')
    .orderBy('id')
    .execute();
}

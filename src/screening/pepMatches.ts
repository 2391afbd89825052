import type { Kysely } from 'kysely';
import { recordAudit } from '../audit/auditTrail.ts';
import type { Database } from '../store/tables.ts';
import { insertPepMatches } from './pepMatchRepository.ts';
import type { ScreeningMatch } from './screeningIndex.ts';

/** A match on a PEP list's entry, found by screening (screenApplications.ts). */
export interface FoundPepMatch {
  busi_water_no: string;
  match: ScreeningMatch & { pep: 'pep' | 'rca' };
}

/**
 * Records PEP matches with their audit entries, in the caller's transaction. A PEP match is not a
 * sanctions hit: nothing is held and nothing is to be resolved; the reviewer sees it
 * (pepMatchView.ts) and the risk rating weighs it (`pep_match`, risk/assessApplication.ts).
 */
export async function recordPepMatches(
  db: Kysely<Database>,
  found: readonly FoundPepMatch[],
  now: number,
): Promise<string[]> {
  const inserted = await insertPepMatches(db, found, now);
  for (const match of inserted) {
    await recordAudit(db, {
      actor: 'system',
      action: 'screening.pep_match',
      targetType: 'application',
      targetId: match.busi_water_no,
      details: {
        pep_match_id: match.id,
        list: match.list,
        version_id: match.version_id,
        reference: match.reference,
        role: match.role,
        score: match.score / 1000,
      },
      source: 'screening',
      at: now,
    });
  }
  return inserted.map((match) => match.busi_water_no);
}

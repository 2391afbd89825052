import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { EntryChanges, RescreenOutcome } from '../store/screeningTables.ts';
import type { Database } from '../store/tables.ts';
import { entryContentHash } from './clearances.ts';
import type { ListEntry } from './listEntry.ts';
import { fillContentHashes, referencesChanged, referencesOnlyIn } from './listRepository.ts';
import { applicationsHitBy } from './hitRepository.ts';

/**
 * Each import says what changed (docs/SCREENING.md): the entries added, removed and changed against
 * the version of the same list in force before it, written with the import; and, once its re-screen
 * ends, the applications it newly hit and those an open hit holds on an entry they no longer match.
 * Counts in full; references and serials up to `SHOWN` of each, for the operator to open.
 */
export const SHOWN = 50;

export type { EntryChanges, RescreenOutcome };

/**
 * What an entry says, hashed: what screening reads (clearances.ts) and, for a PEP, the role,
 * positions and relations the reviewer sees. The order a publisher lists aliases in is no change.
 */
export function entryDiffHash(entry: ListEntry): string {
  const pep =
    entry.pep === undefined
      ? null
      : [
          entry.pep.role,
          entry.pep.positions.map((p) => JSON.stringify(p)).sort(),
          entry.pep.relations.map((r) => JSON.stringify(r)).sort(),
        ];
  return createHash('sha256')
    .update(JSON.stringify([entryContentHash(entry), pep]), 'utf8')
    .digest('hex');
}

/** Compares a version just written with the version of its list that was in force before it. */
export async function entryChanges(
  db: Kysely<Database>,
  versionId: string,
  previousId: string | undefined,
  entries: number,
): Promise<EntryChanges> {
  if (previousId === undefined) {
    const { references } = await referencesOnlyIn(db, versionId, '', SHOWN);
    return {
      previous_version_id: null,
      added: entries,
      removed: 0,
      changed: 0,
      added_references: references,
      removed_references: [],
      changed_references: [],
    };
  }
  await fillContentHashes(db, previousId, entryDiffHash);
  const added = await referencesOnlyIn(db, versionId, previousId, SHOWN);
  const removed = await referencesOnlyIn(db, previousId, versionId, SHOWN);
  const changed = await referencesChanged(db, versionId, previousId, SHOWN);
  return {
    previous_version_id: previousId,
    added: added.count,
    removed: removed.count,
    changed: changed.count,
    added_references: added.references,
    removed_references: removed.references,
    changed_references: changed.references,
  };
}

/** A re-screen's counts so far, as its job's progress keeps them. */
export interface NoLongerHit {
  no_longer_hit: number;
  no_longer_hit_applications: string[];
}

/** The outcome of a re-screen that has just ended. */
export async function rescreenOutcome(
  db: Kysely<Database>,
  versionId: string,
  progress: { screened: number } & Partial<NoLongerHit>,
  now: number,
): Promise<RescreenOutcome> {
  const hit = await applicationsHitBy(db, versionId, SHOWN);
  return {
    finished_at: now,
    screened: progress.screened,
    newly_hit: hit.count,
    newly_hit_applications: hit.serials,
    no_longer_hit: progress.no_longer_hit ?? 0,
    no_longer_hit_applications: progress.no_longer_hit_applications ?? [],
  };
}

import { createHash } from 'node:crypto';
import type { Keys } from '../crypto/liveKeyRing.ts';
import type { ListEntry } from './listEntry.ts';
import type { ScreeningIndex, ScreeningMatch } from './screeningIndex.ts';

/**
 * Clearances remembered: a hit cleared by two operators is not raised again by a re-screen unless
 * the list entry's content or the applicant's screened fields changed since. A hit records both as
 * hashes; a match whose hit of the same application and entry is open, confirmed, or cleared on the
 * same hashes is not raised again. A cleared hit raised before the hashes were kept (no hash) stays
 * remembered, as it was.
 */

/**
 * The content of an entry that screening reads, in one canonical order (the order a publisher
 * writes aliases or documents in is not a change), hashed: names with their kind and quality, dates
 * of birth, nationalities and documents. What an importer adds beyond these is not screened, and
 * so no reason to raise a cleared hit again.
 */
export function entryContentHash(entry: ListEntry): string {
  const sorted = (values: string[]) => [...values].sort();
  const canonical = JSON.stringify([
    sorted(entry.names.map((n) => `${n.kind}|${n.weak ? 1 : 0}|${n.text}`)),
    sorted(entry.birthDates.map((d) => `${d.from}|${d.to}|${d.text}`)),
    sorted(entry.nationalities),
    sorted(entry.documents.map((d) => `${d.type}|${d.number}|${d.country ?? ''}`)),
  ]);
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

/** The applicant's screened fields, as a keyed hash (they are identity data: never stored plain). */
export function subjectHash(keyRing: Keys, fields: readonly (string | undefined)[]): string {
  return keyRing.blindIndex('screened_fields', JSON.stringify(fields.map((f) => f ?? null)));
}

const entriesByIndex = new WeakMap<ScreeningIndex, Map<string, ListEntry>>();
const entryKey = (versionId: string, reference: string) => `${versionId}\u0000${reference}`;

/** The entry a match names, from the index it was found in. */
export function matchedEntry(index: ScreeningIndex, match: ScreeningMatch): ListEntry | undefined {
  let byKey = entriesByIndex.get(index);
  if (byKey === undefined) {
    byKey = new Map(index.entries.map((e) => [entryKey(e.versionId, e.entry.reference), e.entry]));
    entriesByIndex.set(index, byKey);
  }
  return byKey.get(entryKey(match.version_id, match.reference));
}

/** A hit already recorded for an application and entry, as far as remembering goes. */
export interface RecordedHit {
  busi_water_no: string;
  list: string;
  reference: string;
  state: string;
  entry_hash: string | null;
  subject_hash: string | null;
}

/** Whether a match is already answered by a recorded hit of the same application and entry. */
export function isRemembered(
  found: { busi_water_no: string; list: string; reference: string; entryHash: string; subjectHash: string },
  recorded: readonly RecordedHit[],
): boolean {
  return recorded.some(
    (hit) =>
      hit.busi_water_no === found.busi_water_no &&
      hit.list === found.list &&
      hit.reference === found.reference &&
      (hit.state !== 'cleared' ||
        ((hit.entry_hash === null || hit.entry_hash === found.entryHash) &&
          (hit.subject_hash === null || hit.subject_hash === found.subjectHash))),
  );
}

/** The screening tables (migration 0045), as Kysely sees them; `tables.ts` lists them in Database. */
export interface ScreeningListsTable {
  version_id: string;
  list: string;
  entries: number;
  names: number;
  documents: number;
  sha256: string;
  published_at: string | null;
  imported_at: number;
  imported_by: string;
  /** JSON of the entries added, removed and changed against the version before (migration 0116). */
  entry_changes: string | null;
  /** JSON of what the import's re-screen found, once it ended (migration 0116). */
  rescreen_outcome: string | null;
}

/** `entry_changes`: what an import changed against the version before (screening/importChanges.ts). */
export interface EntryChanges {
  /** The version compared with: null on a list's first import (every entry is added). */
  previous_version_id: string | null;
  added: number;
  removed: number;
  /** Entries of both versions whose content (names, dates, nationalities, documents, PEP data) differs. */
  changed: number;
  added_references: string[];
  removed_references: string[];
  changed_references: string[];
}

/** `rescreen_outcome`: what an import's re-screen found. */
export interface RescreenOutcome {
  /** Unix milliseconds (seconds on the wire). */
  finished_at: number;
  screened: number;
  /** Applications with a hit raised on an entry of this version: a new match, or a cleared one raised again. */
  newly_hit: number;
  newly_hit_applications: string[];
  /** Applications an open hit holds on an entry the re-screen no longer matched (removed, changed). */
  no_longer_hit: number;
  no_longer_hit_applications: string[];
}

export interface ScreeningEntriesTable {
  version_id: string;
  reference: string;
  /** JSON of the entry (screening/listEntry.ts). */
  entry: string;
  /** What the entry says, hashed (importChanges.ts); null on entries imported before migration 0116. */
  content_hash: string | null;
}

export type ScreeningHitState = 'unresolved' | 'clearing' | 'cleared' | 'confirmed';

/** The states of a screening hit that holds its application: unresolved, or cleared by one operator. */
export const OPEN_HIT_STATES: readonly ScreeningHitState[] = ['unresolved', 'clearing'];

export interface ScreeningHitsTable {
  id: string;
  busi_water_no: string;
  list: string;
  version_id: string;
  reference: string;
  matched_name: string;
  matched_kind: string;
  /** JSON array of field names. */
  fields: string;
  /** Score × 1000. */
  score: number;
  state: ScreeningHitState;
  after_delivery: number;
  resolved_by: string | null;
  resolution_note: string | null;
  resolved_at: number | null;
  confirmed_by: string | null;
  confirmed_at: number | null;
  created_at: number;
  /** What the hit was raised on (migration 0074); null on hits raised before. */
  entry_hash: string | null;
  subject_hash: string | null;
}

/** A PEP match (migration 0073): shown and weighed, never holding; no state to resolve. */
export interface ScreeningPepMatchesTable {
  id: string;
  busi_water_no: string;
  list: string;
  version_id: string;
  reference: string;
  role: 'pep' | 'rca';
  matched_name: string;
  matched_kind: string;
  /** JSON array of field names. */
  fields: string;
  /** Score × 1000. */
  score: number;
  created_at: number;
}

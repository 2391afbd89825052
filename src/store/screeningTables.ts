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
}

export interface ScreeningEntriesTable {
  version_id: string;
  reference: string;
  /** JSON of the entry (screening/listEntry.ts). */
  entry: string;
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

/**
 * The shape of the code tables on the wire and in a `CODES_FILE`: a leaf, so that the default
 * tables (`defaultTables.ts`) and the loader (`tables.ts`) both build on it without a circle.
 */

export const TABLE_NAMES = [
  'country',
  'position',
  'profession',
  'purpose',
  'wealth_source',
  'reason',
] as const;
export type TableName = (typeof TABLE_NAMES)[number];

/** One code, as the codes endpoint lists it. `other` marks the code meaning "other". */
export interface CodeEntry {
  readonly code: string;
  readonly name: string;
  readonly name_zh: string;
  readonly other: boolean;
}

/** The wire form: one list per table. */
export type CodeTables = { readonly [K in TableName]: readonly CodeEntry[] };

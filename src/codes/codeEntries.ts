import { Type, type Static } from 'typebox';

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
export const CodeEntry = Type.Object({
  code: Type.String(),
  name: Type.String({ description: 'English name.' }),
  name_zh: Type.String({ description: 'Chinese name.' }),
  other: Type.Boolean({ description: 'Marks the code meaning "other", which asks for a free-text field.' }),
});

/**
 * The wire form: one list per table. Immutable: the tables in force are shared read-only lists
 * (it changes no JSON Schema).
 */
export const CodeTables = Type.Object({
  country: Type.Immutable(Type.Array(CodeEntry, { description: 'ISO 3166-1 alpha-2 countries supported.' })),
  position: Type.Immutable(Type.Array(CodeEntry)),
  profession: Type.Immutable(
    Type.Array(CodeEntry, { description: 'Sections of GB/T 4754-2017, plus other.' }),
  ),
  purpose: Type.Immutable(Type.Array(CodeEntry)),
  wealth_source: Type.Immutable(Type.Array(CodeEntry)),
  reason: Type.Immutable(
    Type.Array(CodeEntry, {
      description:
        'Why an operator rejected an application, asked for more information or had a shipment returned: the `reason_codes` of the status view, the history and the events.',
    }),
  ),
});
export type CodeEntry = Readonly<Static<typeof CodeEntry>>;
export type CodeTables = Readonly<Static<typeof CodeTables>>;

// The schema names every table: a table added to TABLE_NAMES alone fails to compile here.
TABLE_NAMES satisfies readonly (keyof CodeTables)[];

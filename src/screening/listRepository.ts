import type { Kysely } from 'kysely';
import type { EntryChanges, RescreenOutcome, ScreeningListsTable } from '../store/screeningTables.ts';
import type { Database } from '../store/tables.ts';
import type { ListEntry, ListName } from './listEntry.ts';

/** Every query of the list tables: `screening_lists` (the versions) and `screening_entries`. */

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

import { sql, type Kysely } from 'kysely';
import type { Store } from '../store/connect.ts';
import type { Database } from '../store/tables.ts';

/**
 * Queries over which key encrypts what, in each table with encrypted values: counts of rows per
 * key, and the re-encryption's batch read and conditional rewrite. Takes a Kysely handle or a
 * transaction.
 */

/** The tables with encrypted values (each with a `key_id` column). */
export type EncryptedTable =
  'applications' | 'webhook_secrets' | 'operator_totp' | 'document_chunks' | 'subject_export_chunks';

/** Where a table keeps its encrypted values: primary key, encrypted column, the column its aad needs. */
export interface EncryptedPlace {
  table: EncryptedTable;
  pk: string;
  column: string;
  /** Extra column the aad needs. */
  aadColumn: string;
}

/** The table's rows per key id, in key id order. */
export async function rowsPerKey(
  db: Kysely<Database>,
  table: EncryptedTable,
): Promise<{ key_id: string; n: number }[]> {
  const rows = await db
    .selectFrom(table)
    .select((eb) => ['key_id', eb.fn.countAll<number | string>().as('n')])
    .groupBy('key_id')
    .orderBy('key_id')
    .execute();
  return rows.map((row) => ({ key_id: row.key_id, n: Number(row.n) }));
}

/** The table's rows under one key. */
export async function rowsUnderKey(
  db: Kysely<Database>,
  table: EncryptedTable,
  keyId: string,
): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('key_id', '=', keyId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** A row of the batch: its primary key, its encrypted value, the column its aad needs. */
export interface EncryptedRow {
  pk: string;
  enc: string | Uint8Array;
  aad_part: string;
}

/**
 * The table's rows under `keyId` after `after`, in primary key order; locked past others where the
 * store can (SKIP LOCKED), so instances re-encrypting at once take different rows.
 */
export async function rowsUnderKeyAfter(
  store: Pick<Store, 'table' | 'skipLockedClause'>,
  trx: Kysely<Database>,
  place: EncryptedPlace,
  keyId: string,
  after: string,
  limit: number,
): Promise<EncryptedRow[]> {
  const rows = await sql<EncryptedRow>`
    select ${sql.ref(place.pk)} as pk, ${sql.ref(place.column)} as enc, ${sql.ref(place.aadColumn)} as aad_part
    from ${store.table(place.table)}
    where key_id = ${keyId} and ${sql.ref(place.pk)} > ${after}
    order by ${sql.ref(place.pk)}
    limit ${limit}${store.skipLockedClause}`.execute(trx);
  return rows.rows;
}

/** A row of the batch with its new encryption: the value read (`enc`) and the one to write. */
export interface RewrittenRow extends Pick<EncryptedRow, 'pk' | 'enc'> {
  rewritten: string | Buffer;
  keyId: string;
}

/**
 * Rows per statement of `rewriteEncrypted`: six parameters a row, well under SQLite's 32,766 and
 * PostgreSQL's 65,535 whatever the batch size (`keys reencrypt --batch-size` goes to 10,000).
 */
export const ROWS_PER_REWRITE = 500;

/**
 * The rows' values replaced by their new encryption, each only if its ciphertext is still the one
 * read (an erasure or another instance may have changed it): how many were replaced. One statement
 * for up to 500 rows, not one per row: on PostgreSQL every statement is a round trip to the
 * server, which cost a rotation more than the encryption itself. Each new value and key id is
 * chosen by primary key (`case`, whose `else` keeps the column's type for the parameters).
 */
export async function rewriteEncrypted(
  store: Pick<Store, 'table'>,
  trx: Kysely<Database>,
  place: EncryptedPlace,
  rows: readonly RewrittenRow[],
): Promise<number> {
  const pk = sql.ref(place.pk);
  const column = sql.ref(place.column);
  let replaced = 0;
  for (let start = 0; start < rows.length; start += ROWS_PER_REWRITE) {
    const part = rows.slice(start, start + ROWS_PER_REWRITE);
    const byPk = (value: (row: RewrittenRow) => string | Buffer) =>
      sql.join(
        part.map((row) => sql`when ${row.pk} then ${value(row)}`),
        sql` `,
      );
    const updated = await sql`
      update ${store.table(place.table)}
      set ${column} = case ${pk} ${byPk((row) => row.rewritten)} else ${column} end,
        key_id = case ${pk} ${byPk((row) => row.keyId)} else key_id end
      where ${sql.join(
        part.map((row) => sql`(${pk} = ${row.pk} and ${column} = ${row.enc})`),
        sql` or `,
      )}`.execute(trx);
    replaced += Number(updated.numAffectedRows ?? 0n);
  }
  return replaced;
}

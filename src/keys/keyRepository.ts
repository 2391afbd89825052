import { sql, type Kysely } from 'kysely';
import type { Store } from '../store/connect.ts';
import type { Database } from '../store/tables.ts';

/**
 * Queries over which key encrypts what, in each table with encrypted values: counts of rows per
 * key, and the re-encryption's batch read and conditional rewrite. Takes a Kysely handle or a
 * transaction.
 */

/** The tables with encrypted values (each with a `key_id` column). */
export type EncryptedTable = 'applications' | 'webhook_secrets' | 'operator_totp' | 'document_chunks';

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

/**
 * The row's value replaced by its new encryption, if its ciphertext is still the one read (an
 * erasure or another instance may have changed it): false when it is not.
 */
export async function rewriteEncrypted(
  store: Pick<Store, 'table'>,
  trx: Kysely<Database>,
  place: EncryptedPlace,
  row: Pick<EncryptedRow, 'pk' | 'enc'>,
  rewritten: { enc: string | Buffer; keyId: string },
): Promise<boolean> {
  const updated = await sql`
    update ${store.table(place.table)}
    set ${sql.ref(place.column)} = ${rewritten.enc}, key_id = ${rewritten.keyId}
    where ${sql.ref(place.pk)} = ${row.pk} and ${sql.ref(place.column)} = ${row.enc}`.execute(trx);
  return Number(updated.numAffectedRows ?? 0n) === 1;
}

import type { Kysely } from 'kysely';
import type { Database } from '../store/tables.ts';
import type { EncryptedColumn } from './reencrypt.ts';

/** Queries over which key encrypts what: counts of rows per key, in each table with encrypted values. */

/** The table's rows per key id, in key id order. */
export async function rowsPerKey(
  db: Kysely<Database>,
  table: EncryptedColumn['table'],
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
  table: EncryptedColumn['table'],
  keyId: string,
): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('key_id', '=', keyId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

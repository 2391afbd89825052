import { sql, type Kysely } from 'kysely';
import type { Store } from '../../store/connect.ts';
import { isFinal, STATUSES } from '../../record/lifecycle.ts';
import { ERASED_CERT_HASH } from '../../record/erasure.ts';
import type { Database } from '../../store/tables.ts';

/**
 * Queries of the application record's upkeep, beside the service's own (applicationRepository.ts):
 * the re-keying of rows stored under the old document hash (documentRekey.ts) and retention's
 * erasure (retention/retention.ts). Takes a Kysely handle or a transaction.
 */

/** A row still under the duplicate check's old document hash (version 1, migration 0006). */
export interface OldHashRow {
  busi_water_no: string;
  cert_hash: string;
  active_cert_hash: string | null;
  payload_enc: string;
}

/** Rows under the old document hash after `after`, in serial order; locked past others where the store can. */
export async function rowsUnderOldDocumentHash(
  store: Store,
  trx: Kysely<Database>,
  after: string,
  limit: number,
): Promise<OldHashRow[]> {
  const rows = await sql<OldHashRow>`
    select busi_water_no, cert_hash, active_cert_hash, payload_enc
    from ${store.table('applications')}
    where cert_hash_version = 1 and busi_water_no > ${after}
    order by busi_water_no
    limit ${limit}${store.skipLockedClause}`.execute(trx);
  return rows.rows;
}

/** Whether an active application other than `serial` holds this document hash. */
export async function otherActiveHolder(
  db: Kysely<Database>,
  hash: string,
  serial: string,
): Promise<boolean> {
  const holder = await db
    .selectFrom('applications')
    .select('busi_water_no')
    .where('active_cert_hash', '=', hash)
    .where('busi_water_no', '!=', serial)
    .executeTakeFirst();
  return holder !== undefined;
}

/**
 * The row's document hash replaced by the canonical one (version 2), if the row is as it was read
 * (still version 1, same ciphertext): false when it changed meanwhile. The active hash follows the
 * state at the time of writing: a row that became final meanwhile has none.
 */
export async function setDocumentHash(
  store: Store,
  trx: Kysely<Database>,
  row: Pick<OldHashRow, 'busi_water_no' | 'payload_enc'>,
  hash: string,
): Promise<boolean> {
  const updated = await sql`
    update ${store.table('applications')}
    set cert_hash = ${hash}, cert_hash_version = 2,
      active_cert_hash = case when active_cert_hash is null then null else cast(${hash} as text) end
    where busi_water_no = ${row.busi_water_no} and cert_hash_version = 1
      and payload_enc = ${row.payload_enc}`.execute(trx);
  return Number(updated.numAffectedRows ?? 0n) === 1;
}

/** Rows still under the old document hash. */
export async function countUnderOldDocumentHash(store: Store): Promise<number> {
  const left = await sql<{ n: number | string }>`
    select count(*) as n from ${store.table('applications')} where cert_hash_version = 1`.execute(store.db);
  return Number(left.rows[0]?.n ?? 0);
}

/** An active application holding any of these document hashes. */
export async function findActiveByCertHashes(db: Kysely<Database>, hashes: readonly string[]) {
  return db
    .selectFrom('applications')
    .select(['busi_water_no', 'app_id'])
    .where('active_cert_hash', 'in', hashes)
    .executeTakeFirst();
}

// Literal, as in the partial index `applications_retention`, so that SQLite can use that index.
const FINAL_IN = sql.raw(
  `(${STATUSES.filter(isFinal)
    .map((s) => `'${s}'`)
    .join(', ')})`,
);

/** An application retention may erase: final, not erased. */
export interface ErasableRow {
  busi_water_no: string;
  status: string;
  updated_at: number;
}

/**
 * Applications final since before `cutoff` and not erased, after a position in
 * (updated_at, busi_water_no) order; `lock`: locked past others where the store can.
 */
export async function erasableAfter(
  store: Store,
  db: Kysely<Database>,
  cutoff: number,
  after: { updatedAt: number; busiWaterNo: string } | undefined,
  limit: number,
  lock: boolean,
): Promise<ErasableRow[]> {
  const position =
    after === undefined
      ? sql``
      : sql` and (updated_at, busi_water_no) > (${after.updatedAt}, ${after.busiWaterNo})`;
  const rows = await sql<ErasableRow>`
    select busi_water_no, status, updated_at from ${store.table('applications')}
    where erased_at is null and status in ${FINAL_IN} and updated_at < ${cutoff}${position}
    order by updated_at, busi_water_no
    limit ${limit}${lock ? store.skipLockedClause : sql``}`.execute(db);
  return rows.rows.map((r) => ({ ...r, updated_at: Number(r.updated_at) }));
}

/**
 * Replaces the application's payload with its tombstone and its document hash with the erased
 * marker, if it is still final, not erased and old enough: false when it no longer is.
 */
export async function eraseIfEligible(
  store: Store,
  trx: Kysely<Database>,
  erasure: { busiWaterNo: string; tombstone: string; keyId: string; erasedAt: number; cutoff: number },
): Promise<boolean> {
  const updated = await sql`
    update ${store.table('applications')}
    set payload_enc = ${erasure.tombstone}, key_id = ${erasure.keyId},
      cert_hash = ${ERASED_CERT_HASH}, erased_at = ${erasure.erasedAt}
    where busi_water_no = ${erasure.busiWaterNo}
      and erased_at is null and status in ${FINAL_IN} and updated_at < ${erasure.cutoff}`.execute(trx);
  return Number(updated.numAffectedRows ?? 0n) === 1;
}

/** Restricted applications (a deletion under record keeping) whose date has come, oldest date first. */
export async function restrictedDue(
  store: Store,
  db: Kysely<Database>,
  now: number,
  limit: number,
  lock: boolean,
): Promise<ErasableRow[]> {
  const rows = await sql<ErasableRow>`
    select busi_water_no, status, updated_at from ${store.table('applications')}
    where restricted_until is not null and restricted_until <= ${now} and erased_at is null
    order by restricted_until, busi_water_no
    limit ${limit}${lock ? store.skipLockedClause : sql``}`.execute(db);
  return rows.rows.map((r) => ({ ...r, updated_at: Number(r.updated_at) }));
}

/**
 * Erases an application now, whatever its age (a deletion request: docs/PRIVACY.md), or at its
 * restriction's date: the same tombstone and marker as retention's, the restriction lifted (nothing
 * is left to withdraw), the document no longer held active. False when it was erased already.
 */
export async function eraseNow(
  store: Store,
  trx: Kysely<Database>,
  erasure: { busiWaterNo: string; tombstone: string; keyId: string; erasedAt: number; restrictedBy?: number },
): Promise<boolean> {
  const due =
    erasure.restrictedBy === undefined ? sql`` : sql` and restricted_until <= ${erasure.restrictedBy}`;
  const updated = await sql`
    update ${store.table('applications')}
    set payload_enc = ${erasure.tombstone}, key_id = ${erasure.keyId},
      cert_hash = ${ERASED_CERT_HASH}, active_cert_hash = null, erased_at = ${erasure.erasedAt},
      restricted_until = null
    where busi_water_no = ${erasure.busiWaterNo} and erased_at is null${due}`.execute(trx);
  return Number(updated.numAffectedRows ?? 0n) === 1;
}

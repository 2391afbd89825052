import { sql } from 'kysely';
import pg from 'pg';
import type { ServiceContext } from '../../../src/context.ts';

/**
 * What the store holds after a fault: every application, its card number read back through the key
 * ring, and the store's own integrity check (SQLite `integrity_check`; PostgreSQL amcheck's
 * `bt_index_check` with heap verification on every unique index, plus uniqueness queries).
 */
export interface StoreState {
  serials: Set<string>;
  rows: number;
  duplicateSerials: number;
  duplicateCardHashes: number;
  /** Card numbers decrypted from the payloads that occur more than once. */
  duplicateCardNumbers: number;
  /** Card numbers in the store (decrypted), for leak searches. */
  cardNumbers: string[];
  /** `ok`, or what the check reported. */
  integrity: string;
  /** Which check ran: `integrity_check`, `amcheck (n indexes)`, `uniqueness queries`. */
  integrityCheck: string;
}

export interface PostgresLocation {
  url: string;
  schema: string;
}

export async function inspectStore(ctx: ServiceContext, postgres?: PostgresLocation): Promise<StoreState> {
  const rows = await ctx.store.db
    .selectFrom('applications')
    .select(['busi_water_no', 'card_no_hash', 'payload_enc'])
    .execute();
  const serials = new Set(rows.map((r) => r.busi_water_no));
  const cardHashes = new Set(rows.map((r) => r.card_no_hash));
  const cardNumbers = rows.map(
    (r) => (JSON.parse(ctx.keyRing.decrypt(r.payload_enc, r.busi_water_no)) as { card_no: string }).card_no,
  );
  const state: StoreState = {
    serials,
    rows: rows.length,
    duplicateSerials: rows.length - serials.size,
    duplicateCardHashes: rows.length - cardHashes.size,
    duplicateCardNumbers: cardNumbers.length - new Set(cardNumbers).size,
    cardNumbers,
    integrity: 'ok',
    integrityCheck: '',
  };
  if (postgres === undefined) {
    const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(ctx.store.db);
    state.integrity = check.rows.map((r) => r.integrity_check).join('; ');
    state.integrityCheck = 'integrity_check';
  } else {
    Object.assign(state, await checkPostgres(postgres));
  }
  return state;
}

/**
 * amcheck when the extension can be had: created inside a transaction that is rolled back, so the
 * database is left as it was (and concurrent checks do not race on a shared extension). Where it
 * cannot, the unique columns are checked with queries.
 */
async function checkPostgres(
  location: PostgresLocation,
): Promise<Pick<StoreState, 'integrity' | 'integrityCheck'>> {
  const client = new pg.Client({ connectionString: location.url });
  await client.connect();
  const problems: string[] = [];
  try {
    const uniqueIndexes = await client.query<{ index: string }>(
      `SELECT format('%I.%I', n.nspname, ic.relname) AS index
         FROM pg_index i
         JOIN pg_class ic ON ic.oid = i.indexrelid
         JOIN pg_class tc ON tc.oid = i.indrelid
         JOIN pg_namespace n ON n.oid = tc.relnamespace
         JOIN pg_am am ON am.oid = ic.relam
        WHERE n.nspname = $1 AND i.indisunique AND am.amname = 'btree'`,
      [location.schema],
    );
    let integrityCheck = 'uniqueness queries';
    await client.query('BEGIN');
    try {
      let amcheckSchema: string | undefined;
      const existing = await client.query<{ nspname: string }>(
        `SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'amcheck'`,
      );
      if (existing.rows[0] !== undefined) amcheckSchema = existing.rows[0].nspname;
      else {
        await client.query('SAVEPOINT amcheck');
        try {
          await client.query(`CREATE EXTENSION amcheck SCHEMA "${location.schema}"`);
          amcheckSchema = location.schema;
        } catch {
          await client.query('ROLLBACK TO SAVEPOINT amcheck');
        }
      }
      if (amcheckSchema !== undefined) {
        for (const { index } of uniqueIndexes.rows) {
          try {
            await client.query(`SELECT "${amcheckSchema}".bt_index_check($1::regclass, true)`, [index]);
          } catch (error) {
            problems.push(`${index}: ${(error as Error).message}`);
          }
        }
        integrityCheck = `amcheck bt_index_check on ${uniqueIndexes.rows.length} unique indexes`;
      }
    } finally {
      await client.query('ROLLBACK');
    }
    // Whatever amcheck says, the unique columns are unique.
    const q = (column: string) =>
      `SELECT count(*)::int - count(DISTINCT ${column})::int AS d FROM "${location.schema}".applications`;
    for (const column of ['busi_water_no', 'card_no_hash']) {
      const d = (await client.query<{ d: number }>(q(column))).rows[0]!.d;
      if (d !== 0) problems.push(`${column}: ${d} duplicates`);
    }
    const activeDuplicates = await client.query<{ d: number }>(
      `SELECT count(*)::int - count(DISTINCT active_cert_hash)::int AS d FROM "${location.schema}".applications WHERE active_cert_hash IS NOT NULL`,
    );
    if (activeDuplicates.rows[0]!.d !== 0) problems.push('active_cert_hash: duplicates');
    return { integrity: problems.length === 0 ? 'ok' : problems.join('; '), integrityCheck };
  } finally {
    await client.end();
  }
}

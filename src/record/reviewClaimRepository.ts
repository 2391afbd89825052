import type { Kysely } from 'kysely';
import type { Database, ReviewClaimsTable } from '../store/tables.ts';

/** Every query of the review claims (`review_claims`): who holds an application in review. */

/** A review claim: who holds the application in review, until when. */
export type ClaimRow = ReviewClaimsTable;

/** The application's claim, lapsed or not. */
export async function findClaim(db: Kysely<Database>, serial: string): Promise<ClaimRow | undefined> {
  return db.selectFrom('review_claims').selectAll().where('busi_water_no', '=', serial).executeTakeFirst();
}

/** The application's claim is this one now, whoever held it before. */
export async function putClaim(db: Kysely<Database>, row: ClaimRow): Promise<void> {
  await deleteClaim(db, row.busi_water_no);
  await db.insertInto('review_claims').values(row).execute();
}

/**
 * The claim of an operator who starts a review: put when its holder is a known operator, else
 * nothing (a test fixture's made-up actor holds no claim).
 */
export async function putOperatorClaim(db: Kysely<Database>, row: ClaimRow): Promise<void> {
  const operator = await db
    .selectFrom('operators')
    .select('username')
    .where('username', '=', row.username)
    .executeTakeFirst();
  if (operator !== undefined) await putClaim(db, row);
}

export async function deleteClaim(db: Kysely<Database>, serial: string): Promise<void> {
  await db.deleteFrom('review_claims').where('busi_water_no', '=', serial).execute();
}

/** Claims not lapsed at `now`, oldest first. */
export async function liveClaims(db: Kysely<Database>, now: number): Promise<ClaimRow[]> {
  return db
    .selectFrom('review_claims')
    .selectAll()
    .where('expires_at', '>', now)
    .orderBy('claimed_at')
    .execute();
}

/** Who holds each of these applications at `now` (those held). */
export async function liveClaimsOf(db: Kysely<Database>, serials: readonly string[], now: number) {
  if (serials.length === 0) return [];
  return db
    .selectFrom('review_claims')
    .select(['busi_water_no', 'username'])
    .where('busi_water_no', 'in', serials)
    .where('expires_at', '>', now)
    .execute();
}

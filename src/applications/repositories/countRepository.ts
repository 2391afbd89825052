import type { Kysely } from 'kysely';
import type { Database } from '../../store/tables.ts';
import type { Status } from '../../record/lifecycle.ts';

/**
 * Queries that count applications for the counts per status and the review workload: from the
 * rows themselves where a range is partial or a window is bounded, and from the counters the
 * store's triggers keep (per status 0036, per day of creation 0051, per hour 0050) elsewhere.
 */

/** Per status, the applications created in [from, to) (milliseconds), counted one by one. */
export async function countCreated(
  db: Kysely<Database>,
  appId: string | undefined,
  from: number | undefined,
  to: number | undefined,
) {
  let select = db
    .selectFrom('applications')
    .select((eb) => ['status', eb.fn.countAll<number | string | bigint>().as('n')])
    .groupBy('status');
  if (appId !== undefined) select = select.where('app_id', '=', appId);
  if (from !== undefined) select = select.where('created_at', '>=', from);
  if (to !== undefined) select = select.where('created_at', '<', to);
  return select.execute();
}

/** Per status, from the counts kept per day of creation (migration 0051): days [from, to). */
export async function keptDays(
  db: Kysely<Database>,
  appId: string | undefined,
  from: number | undefined,
  to: number | undefined,
) {
  let select = db
    .selectFrom('application_days')
    .select((eb) => ['status', eb.fn.sum<number | string | bigint>('n').as('n')])
    .groupBy('status');
  if (appId !== undefined) select = select.where('app_id', '=', appId);
  if (from !== undefined) select = select.where('day', '>=', from);
  if (to !== undefined) select = select.where('day', '<', to);
  return select.execute();
}

/** Per status, from the counts kept by the store's triggers (migration 0036). */
export async function keptCounts(db: Kysely<Database>, appId?: string) {
  let select = db
    .selectFrom('application_counts')
    .select((eb) => ['status', eb.fn.sum<number | string | bigint>('n').as('n')])
    .groupBy('status');
  if (appId !== undefined) select = select.where('app_id', '=', appId);
  return select.execute();
}

/** How many of a status entered it before `before` (or at or after it), counting at most `cap`. */
export async function countEntered(
  db: Kysely<Database>,
  status: Status,
  side: '<' | '>=',
  before: number,
  cap: number,
): Promise<number> {
  const window = db
    .selectFrom('applications')
    .select('updated_at')
    .where('status', '=', status)
    .where('updated_at', side, before)
    .limit(cap);
  const row = await db
    .selectFrom(window.as('w'))
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The entry time at a position of a status's applications, oldest first or newest first. */
export async function enteredAt(
  db: Kysely<Database>,
  status: Status,
  offset: number,
  order: 'asc' | 'desc' = 'asc',
): Promise<number | null> {
  const row = await db
    .selectFrom('applications')
    .select('updated_at')
    .where('status', '=', status)
    .orderBy('updated_at', order)
    .limit(1)
    .offset(offset)
    .executeTakeFirst();
  return row === undefined ? null : Number(row.updated_at);
}

/** Arrivals and decisions per hour, for the hours [firstHour, firstHour + hours), summed over shards. */
export async function hourlyWorkload(db: Kysely<Database>, firstHour: number, hours: number) {
  return db
    .selectFrom('workload_hours')
    .select((eb) => [
      'hour',
      eb.fn.sum<number | string>('arrivals').as('arrivals'),
      eb.fn.sum<number | string>('decisions').as('decisions'),
      eb.fn.sum<number | string>('policy_decisions').as('policy_decisions'),
    ])
    .where('hour', '>=', firstHour)
    .where('hour', '<', firstHour + hours)
    .groupBy('hour')
    .execute();
}

/**
 * Rated applications that are not final, per rank of their tier (1 low to 4 prohibited), from the
 * counts the store keeps (risk_tier_counts, migration 0086): a few rows at any size.
 */
export async function riskTierCounts(db: Kysely<Database>) {
  return db
    .selectFrom('risk_tier_counts')
    .select((eb) => ['risk_rank', eb.fn.sum<number | string | bigint>('n').as('n')])
    .groupBy('risk_rank')
    .execute();
}

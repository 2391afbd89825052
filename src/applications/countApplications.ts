import type { Kysely } from 'kysely';
import type { ServiceContext } from '../context.ts';
import type { Database } from '../store/tables.ts';
import { STATUSES, type Status } from './lifecycle.ts';

/** Filters of the counts, as on the wire: times in Unix seconds, both ends inclusive. */
export interface CountQuery {
  app_id?: string | undefined;
  created_from?: number | undefined;
  created_to?: number | undefined;
}

export interface StatusCounts {
  /** Every status, zero included, in the lifecycle's order. */
  counts: Record<Status, number>;
  total: number;
}

/**
 * How many applications are in each status: the console's queue shows them at a glance. Without a
 * creation range, from the counts the store keeps per app and status (a few rows at any size);
 * with one, by counting the range's applications.
 */
export async function countApplicationsByStatus(
  ctx: ServiceContext,
  query: CountQuery,
): Promise<StatusCounts> {
  if (query.created_from === undefined && query.created_to === undefined) {
    return tally(await keptCounts(ctx.store.db, query.app_id));
  }
  let select = ctx.store.db
    .selectFrom('applications')
    .select((eb) => ['status', eb.fn.countAll<number | string | bigint>().as('n')])
    .groupBy('status');
  if (query.app_id !== undefined) select = select.where('app_id', '=', query.app_id);
  if (query.created_from !== undefined) select = select.where('created_at', '>=', query.created_from * 1000);
  if (query.created_to !== undefined) select = select.where('created_at', '<', (query.created_to + 1) * 1000);
  return tally(await select.execute());
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

function tally(rows: { status: string; n: number | string | bigint }[]): StatusCounts {
  const counts = Object.fromEntries(STATUSES.map((status) => [status, 0])) as Record<Status, number>;
  let total = 0;
  for (const row of rows) {
    const n = Number(row.n);
    if (row.status in counts) counts[row.status as Status] = n;
    total += n;
  }
  return { counts, total };
}

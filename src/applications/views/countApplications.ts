import { Type, type Static } from 'typebox';
import type { ServiceContext } from '../../context.ts';
import { countCreated, keptCounts, keptDays } from '../repositories/countRepository.ts';
import { STATUSES, type Status } from '../../record/lifecycle.ts';

/** Filters of the counts, as on the wire: times in Unix seconds, both ends inclusive. */
export interface CountQuery {
  app_id?: string | undefined;
  created_from?: number | undefined;
  created_to?: number | undefined;
}

/** Every status, zero included, in the lifecycle's order, and their sum. */
export const StatusCounts = Type.Object({
  counts: Type.Object(Object.fromEntries(STATUSES.map((status) => [status, Type.Integer()]))),
  total: Type.Integer(),
});
export type StatusCounts = Static<typeof StatusCounts>;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/**
 * How many applications are in each status: the console's queue shows them at a glance. Without a
 * creation range, from the counts the store keeps per app and status (a few rows at any size);
 * with one, the range's whole days from the counts it keeps per app, day of creation and status
 * (migration 0051), and only what lies outside whole days (less than a day at each end) by
 * counting those applications through the created_at indexes: at any size the read is bounded by
 * the range's days and at most two days' arrivals, not by what is stored.
 */
export async function countApplicationsByStatus(
  ctx: ServiceContext,
  query: CountQuery,
): Promise<StatusCounts> {
  if (query.created_from === undefined && query.created_to === undefined) {
    return tally(await keptCounts(ctx.store.db, query.app_id));
  }
  // Milliseconds, from inclusive, to exclusive.
  const from = query.created_from === undefined ? undefined : query.created_from * 1000;
  // A range that ends later than an hour from now is open: nothing is created in the future (the
  // hour allows for the clocks of several instances), so today is a whole day of the counts too.
  const to =
    query.created_to === undefined || query.created_to * 1000 > ctx.now() + HOUR_MS
      ? undefined
      : (query.created_to + 1) * 1000;
  const firstDay = from === undefined ? undefined : Math.ceil(from / DAY_MS);
  const endDay = to === undefined ? undefined : Math.floor(to / DAY_MS);
  if (firstDay !== undefined && endDay !== undefined && firstDay >= endDay) {
    return tally(await countCreated(ctx.store.db, query.app_id, from, to));
  }
  const rows = await keptDays(ctx.store.db, query.app_id, firstDay, endDay);
  if (from !== undefined && firstDay !== undefined && from < firstDay * DAY_MS) {
    rows.push(...(await countCreated(ctx.store.db, query.app_id, from, firstDay * DAY_MS)));
  }
  if (to !== undefined && endDay !== undefined && endDay * DAY_MS < to) {
    rows.push(...(await countCreated(ctx.store.db, query.app_id, endDay * DAY_MS, to)));
  }
  return tally(rows);
}

function tally(rows: { status: Status; n: number | string | bigint }[]): StatusCounts {
  const counts = Object.fromEntries(STATUSES.map((status) => [status, 0])) as Record<Status, number>;
  let total = 0;
  for (const row of rows) {
    const n = Number(row.n);
    // Added: a status may come from the kept days and from either end of the range.
    counts[row.status] += n;
    total += n;
  }
  return { counts, total };
}

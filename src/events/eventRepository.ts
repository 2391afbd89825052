import { sql, type Kysely } from 'kysely';
import type { Store } from '../store/store.ts';
import type { Database, EventHistory, EventsTable } from '../store/tables.ts';
import { FAN_OUT_TRACKED_APART } from './outbox.ts';

/**
 * Queries over the outbox's events: the append (in the transaction of the change it reports),
 * their reads and the relay's. Takes a Kysely handle or a transaction.
 */

/**
 * Appends an event (the outbox's row, events/outbox.ts) to its application's at the next number of
 * the application's own sequence (`seq`), which receivers order by. Call it after the application
 * row has been changed in the same transaction: on PostgreSQL the row lock then serialises two
 * changes of one application, so each sees the other's event (a unique index on
 * (busi_water_no, seq) refuses a duplicate in any case).
 */
export async function appendEvent(db: Kysely<Database>, row: Omit<EventsTable, 'seq'>): Promise<void> {
  // One statement: the number comes from a subquery on that unique index, not a read before.
  await db
    .insertInto('events')
    .values((eb) => ({
      ...row,
      seq: eb
        .selectFrom('events')
        .select(sql<number>`coalesce(max(seq), 0) + 1`.as('next'))
        .where('busi_water_no', '=', row.busi_water_no),
    }))
    .execute();
}

/** An event's app and type. */
export async function findEvent(db: Kysely<Database>, eventId: string) {
  return db
    .selectFrom('events')
    .select(['event_id', 'app_id', 'type'])
    .where('event_id', '=', eventId)
    .executeTakeFirst();
}

/** An application's events, in its order (`seq`). */
export async function findApplicationEvents(db: Kysely<Database>, busiWaterNo: string) {
  return db
    .selectFrom('events')
    .select(['event_id', 'type', 'payload', 'created_at', 'seq'])
    .where('busi_water_no', '=', busiWaterNo)
    .orderBy('seq')
    .execute();
}

/** An entry of an application's history: an event that reports a change of state. */
export interface HistoryRow extends EventHistory {
  busi_water_no: string;
  /** The event's `created_at`: when the change was made. */
  at: number;
}

/** The history's columns of an application's events (those with a `to_status`), in `seq` order. */
function historyOf(db: Kysely<Database>) {
  return db
    .selectFrom('events')
    .select(['busi_water_no', 'from_status', 'to_status', 'actor', 'reason', 'reason_codes', 'details'])
    .select('created_at as at')
    .where('to_status', 'is not', null)
    .orderBy('seq')
    .$narrowType<EventHistory>();
}

/** An application's history, oldest first (through the index on (busi_water_no, seq)). */
export async function listHistory(db: Kysely<Database>, busiWaterNo: string): Promise<HistoryRow[]> {
  return historyOf(db).where('busi_water_no', '=', busiWaterNo).execute();
}

/** The histories of several applications in one round trip, each oldest first. */
export async function listHistories(
  db: Kysely<Database>,
  busiWaterNos: readonly string[],
): Promise<Map<string, HistoryRow[]>> {
  const histories = new Map<string, HistoryRow[]>(busiWaterNos.map((serial) => [serial, []]));
  if (busiWaterNos.length === 0) return histories;
  const rows = await historyOf(db).where('busi_water_no', 'in', busiWaterNos).execute();
  for (const row of rows) histories.get(row.busi_water_no)?.push(row);
  return histories;
}

/** Whether any event waits for its fan-out: a read, which takes no write lock. */
export async function hasNewEvents(db: Kysely<Database>): Promise<boolean> {
  const any = await db.selectFrom('events_pending').select('event_id').limit(1).executeTakeFirst();
  return any !== undefined;
}

/** What a claim took: how many pending rows, and the events among them this fan-out is to fan out. */
export interface ClaimedEvents {
  claimed: number;
  events: Pick<EventsTable, 'event_id' | 'app_id' | 'busi_water_no' | 'type' | 'payload' | 'created_at'>[];
}

/**
 * Marks the earlier version's events fanned out, those it has not marked itself; returns them. The
 * update waits for that version's fan-out if it holds one, and then passes over it.
 */
async function markEarlierVersions(
  trx: Kysely<Database>,
  eventIds: string[],
  now: number,
): Promise<Set<string>> {
  if (eventIds.length === 0) return new Set();
  const marked = await trx
    .updateTable('events')
    .set({ fanned_out_at: now })
    .where('event_id', 'in', eventIds)
    .where('fanned_out_at', 'is', null)
    .returning('event_id')
    .execute();
  return new Set(marked.map((e) => e.event_id));
}

/**
 * Takes up to `limit` events waiting for their fan-out (`events_pending`, migration 0069), oldest
 * first, and removes them from the list; rows another worker holds are skipped. Whatever the
 * transaction does with them, it commits or rolls back with this removal.
 *
 * An event the earlier version wrote (a rolling deploy) has a null `fanned_out_at`, and that
 * version's fan-out claims it by locking the event and setting it. This fan-out takes such an event
 * only if it sets `fanned_out_at` first: the update waits for the other's lock and then finds it
 * set. An event already fanned out, or gone, is only removed from the list.
 */
export async function claimNewEvents(
  store: Pick<Store, 'skipLocked'>,
  trx: Kysely<Database>,
  options: { limit: number; now: number },
): Promise<ClaimedEvents> {
  const query = trx
    .selectFrom('events_pending as p')
    .leftJoin('events as e', 'e.event_id', 'p.event_id')
    .select(['p.created_at as pending_at', 'p.event_id'])
    .select(['e.app_id', 'e.busi_water_no', 'e.type', 'e.payload', 'e.created_at', 'e.fanned_out_at'])
    .orderBy('p.created_at')
    .orderBy('p.event_id')
    .limit(options.limit);
  const pending = await store.skipLocked(query, { of: 'p' }).execute();
  if (pending.length === 0) return { claimed: 0, events: [] };
  await trx
    .deleteFrom('events_pending')
    // created_at too, so that the deletion finds them by the primary key.
    .where('created_at', 'in', [...new Set(pending.map((p) => p.pending_at))])
    .where(
      'event_id',
      'in',
      pending.map((p) => p.event_id),
    )
    .execute();
  const earlier = pending.filter((p) => p.fanned_out_at === null && p.app_id !== null);
  const taken = await markEarlierVersions(
    trx,
    earlier.map((p) => p.event_id),
    options.now,
  );
  const events: ClaimedEvents['events'] = [];
  for (const { app_id, busi_water_no, type, payload, created_at, fanned_out_at, event_id } of pending) {
    // Gone (a listed event without its row), or fanned out by the earlier version.
    if (app_id === null || busi_water_no === null || type === null || payload === null || created_at === null)
      continue;
    if (fanned_out_at !== FAN_OUT_TRACKED_APART && !taken.has(event_id)) continue;
    events.push({ event_id, app_id, busi_water_no, type, payload, created_at });
  }
  return { claimed: pending.length, events };
}

export interface AppEventsQuery {
  appId: string;
  type?: string | undefined;
  busiWaterNo?: string | undefined;
  /** The (created_at, event_id) of the last event already seen. */
  after?: { createdAt: number; eventId: string } | undefined;
  limit: number;
}

/** An app's events, oldest first. */
export async function findAppEvents(db: Kysely<Database>, request: AppEventsQuery) {
  let query = db
    .selectFrom('events')
    .select(['event_id', 'type', 'payload', 'created_at', 'seq'])
    .where('app_id', '=', request.appId);
  if (request.type !== undefined) query = query.where('type', '=', request.type);
  if (request.busiWaterNo !== undefined) query = query.where('busi_water_no', '=', request.busiWaterNo);
  const after = request.after;
  if (after !== undefined) {
    // A row value, so that the index (app_id[, type], created_at, event_id) starts at the cursor.
    query = query.where((eb) =>
      eb(eb.refTuple('created_at', 'event_id'), '>', eb.tuple(after.createdAt, after.eventId)),
    );
  }
  return query.orderBy('created_at').orderBy('event_id').limit(request.limit).execute();
}

import type { Kysely } from 'kysely';
import type { Store } from '../store/store.ts';
import type { Database, EventHistory } from '../store/tables.ts';

/**
 * Queries over the outbox's events: their reads and the relay's. An event is appended with its
 * application (record/applicationRepository.ts, `appendEvent`). Takes a Kysely handle or a
 * transaction.
 */

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
  const any = await db
    .selectFrom('events')
    .select('event_id')
    .where('fanned_out_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return any !== undefined;
}

/**
 * Up to `limit` events not fanned out yet, oldest first, locked until the transaction ends;
 * those another worker holds are skipped.
 */
export async function claimNewEvents(store: Pick<Store, 'skipLocked'>, trx: Kysely<Database>, limit: number) {
  const query = trx
    .selectFrom('events')
    .select(['event_id', 'app_id', 'busi_water_no', 'type', 'payload', 'created_at'])
    .where('fanned_out_at', 'is', null)
    .orderBy('created_at')
    .limit(limit);
  // NO KEY UPDATE: enough to keep other workers off, and no obstacle to the deliveries' foreign keys.
  return store.skipLocked(query, { keyShare: true }).execute();
}

export async function markFannedOut(
  db: Kysely<Database>,
  eventIds: readonly string[],
  now: number,
): Promise<void> {
  await db
    .updateTable('events')
    .set({ fanned_out_at: now })
    .where('event_id', 'in', [...eventIds])
    .execute();
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

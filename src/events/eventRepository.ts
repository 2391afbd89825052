import type { Kysely } from 'kysely';
import type { Database, EventsTable } from '../store/tables.ts';

/** Queries over the outbox's events. Takes a Kysely handle or a transaction. */

export async function insertEvent(db: Kysely<Database>, row: EventsTable): Promise<void> {
  await db.insertInto('events').values(row).execute();
}

/** The app an event belongs to. */
export async function findEventAppId(db: Kysely<Database>, eventId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('events')
    .select('app_id')
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  return row?.app_id;
}

/** The highest `seq` of an application's events, 0 when it has none. */
export async function lastSeq(db: Kysely<Database>, busiWaterNo: string): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('busi_water_no', '=', busiWaterNo)
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
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

import { sql, type Kysely } from 'kysely';
import type { Store } from '../store/connect.ts';
import type { Database } from '../store/tables.ts';

/**
 * The queries behind the webhook queue's gauges. They read deliveries and events, whose folders rank
 * above metrics/, so they are here rather than in those folders' repositories. Both read only the
 * partial index of pending deliveries (`deliveries_due`) and the list of events waiting for
 * their fan-out (`events_pending`).
 */

/** As the store answers: a count or a bigint's text, and null when nothing is undelivered. */
interface Undelivered {
  pending: number | string;
  oldest: number | string | null;
}

/** Deliveries pending or being delivered, and the creation time of the oldest one's event. */
export async function undeliveredDeliveries(
  store: Pick<Store, 'db' | 'table'>,
): Promise<Undelivered | undefined> {
  // The status lists are literals, as in the partial index's predicate, so that SQLite uses it.
  const undelivered = await sql<Undelivered>`
    select count(*) as pending, min(e.created_at) as oldest
    from ${store.table('deliveries')} d join ${store.table('events')} e on e.event_id = d.event_id
    where d.status in ('pending', 'delivering')`.execute(store.db);
  return undelivered.rows[0];
}

/** The creation time of the oldest event not yet fanned out to its deliveries. */
export async function oldestUnfannedEvent(db: Kysely<Database>) {
  // The list's primary key starts with created_at: its first entry.
  return db
    .selectFrom('events_pending')
    .select((eb) => eb.fn.min<number>('created_at').as('oldest'))
    .executeTakeFirst();
}

import type { Kysely } from 'kysely';
import type { Database, DeliveryStatus } from '../store/tables.ts';

/**
 * Queries over webhook deliveries and their attempts, as the console and the redelivery read and
 * change them (the dispatcher's claim and completion are deliveryQueue.ts's). Takes a Kysely
 * handle or a transaction.
 */

export interface DeliveryRowFilter {
  endpointId?: string | undefined;
  eventIds?: readonly string[] | undefined;
  status?: DeliveryStatus | undefined;
  limit?: number | undefined;
}

/** Deliveries with their event's type, newest first. */
export async function findDeliveries(db: Kysely<Database>, where: DeliveryRowFilter) {
  let query = db
    .selectFrom('deliveries as d')
    .innerJoin('events as ev', 'ev.event_id', 'd.event_id')
    .selectAll('d')
    .select('ev.type');
  if (where.endpointId !== undefined) query = query.where('d.endpoint_id', '=', where.endpointId);
  if (where.eventIds !== undefined) query = query.where('d.event_id', 'in', where.eventIds);
  if (where.status !== undefined) query = query.where('d.status', '=', where.status);
  // The order of the index (endpoint_id, created_at DESC, id): no sort beyond the page.
  query = query.orderBy('d.created_at', 'desc').orderBy('d.id');
  if (where.limit !== undefined) query = query.limit(where.limit);
  return query.execute();
}

/** The attempts of some deliveries, oldest first. */
export async function findAttempts(db: Kysely<Database>, deliveryIds: readonly string[]) {
  if (deliveryIds.length === 0) return [];
  return db
    .selectFrom('delivery_attempts')
    .selectAll()
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('id')
    .execute();
}

/** A delivery as if new: pending now, no attempt yet, until `giveUpAt`. */
function requeue(now: number, giveUpAt: number) {
  return {
    status: 'pending' as const,
    attempt_count: 0,
    next_attempt_at: now,
    give_up_at: giveUpAt,
    lease_until: null,
    leased_by: null,
    delivered_at: null,
    updated_at: now,
  };
}

/** Queues an event's deliveries to these endpoints again, but not one in flight; returns how many. */
export async function requeueEventDeliveries(
  db: Kysely<Database>,
  eventId: string,
  endpointIds: readonly string[],
  now: number,
  giveUpAt: number,
): Promise<number> {
  const reset = await db
    .updateTable('deliveries')
    .set(requeue(now, giveUpAt))
    .where('event_id', '=', eventId)
    .where('endpoint_id', 'in', endpointIds)
    .where((eb) => eb.or([eb('status', '!=', 'delivering'), eb('lease_until', '<=', now)]))
    .executeTakeFirst();
  return Number(reset.numUpdatedRows);
}

/** Queues every failed delivery of an endpoint again; returns how many. */
export async function requeueFailedDeliveries(
  db: Kysely<Database>,
  endpointId: string,
  now: number,
  giveUpAt: number,
): Promise<number> {
  const reset = await db
    .updateTable('deliveries')
    .set(requeue(now, giveUpAt))
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'failed')
    .executeTakeFirst();
  return Number(reset.numUpdatedRows);
}

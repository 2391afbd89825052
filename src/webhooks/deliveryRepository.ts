import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Store } from '../store/connect.ts';
import type { Database, DeliveriesTable, DeliveryStatus } from '../store/tables.ts';

/**
 * Queries over webhook deliveries and their attempts: the rows the fan-out inserts, the
 * dispatcher's lease and completion, and what the console and the redelivery read and change.
 * Takes a Kysely handle or a transaction, or the store where a query needs its locking.
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

export function newDeliveryId(): string {
  return `dlv_${randomBytes(12).toString('hex')}`;
}

/** New delivery rows for (event, endpoint) pairs; pairs that already have one are left alone. */
export async function insertDeliveries(
  trx: Transaction<Database>,
  pairs: readonly { eventId: string; endpointId: string }[],
  now: number,
  giveUpAt: number,
): Promise<void> {
  for (let i = 0; i < pairs.length; i += 200) {
    const rows: DeliveriesTable[] = pairs.slice(i, i + 200).map((pair) => ({
      id: newDeliveryId(),
      event_id: pair.eventId,
      endpoint_id: pair.endpointId,
      status: 'pending',
      attempt_count: 0,
      next_attempt_at: now,
      give_up_at: giveUpAt,
      lease_until: null,
      leased_by: null,
      last_status_code: null,
      last_error: null,
      delivered_at: null,
      created_at: now,
      updated_at: now,
    }));
    await trx
      .insertInto('deliveries')
      .values(rows)
      .onConflict((oc) => oc.columns(['event_id', 'endpoint_id']).doNothing())
      .execute();
  }
}

/** The attempt row written for a lease that ran out: its worker never reported. */
export const LEASE_EXPIRED = 'interrupted: the worker did not report before its lease expired';

/**
 * Leases up to `limit` due deliveries of active endpoints to `workerId` until `now + leaseMs`, in
 * one transaction (FOR UPDATE SKIP LOCKED on PostgreSQL): pending ones whose time has come, and
 * delivering ones whose lease ran out, for which an attempt row records the interruption. Returns
 * each with its endpoint's URL and its event.
 */
export async function leaseDueDeliveries(
  store: Store,
  options: { workerId: string; now: number; leaseMs: number; limit: number },
) {
  const { now, workerId, leaseMs, limit } = options;
  const due = store.db
    .selectFrom('deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .where('d.status', 'in', ['pending', 'delivering'])
    .where('d.next_attempt_at', '<=', now)
    .where('e.status', '=', 'active');
  if ((await due.select('d.id').limit(1).executeTakeFirst()) === undefined) return [];

  return store.transaction(async (trx) => {
    const query = trx
      .selectFrom('deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .select(['d.id', 'd.status', 'd.leased_by', 'd.lease_until'])
      .where('d.status', 'in', ['pending', 'delivering'])
      .where('d.next_attempt_at', '<=', now)
      .where('e.status', '=', 'active')
      .orderBy('d.next_attempt_at')
      .limit(limit);
    // Lock only the delivery rows: the endpoint row stays free for operators (and other workers).
    const rows = await store.skipLocked(query, { of: 'd' }).execute();
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const leaseUntil = now + leaseMs;
    await trx
      .updateTable('deliveries')
      .set((eb) => ({
        status: 'delivering',
        attempt_count: eb('attempt_count', '+', 1),
        next_attempt_at: leaseUntil,
        lease_until: leaseUntil,
        leased_by: workerId,
        updated_at: now,
      }))
      .where('id', 'in', ids)
      .execute();
    const interrupted = rows.filter((r) => r.status === 'delivering');
    if (interrupted.length > 0) {
      await trx
        .insertInto('delivery_attempts')
        .values(
          interrupted.map((r) => ({
            delivery_id: r.id,
            started_at: (r.lease_until ?? now) - leaseMs,
            duration_ms: null,
            status_code: null,
            error: LEASE_EXPIRED,
            worker: r.leased_by ?? 'unknown',
          })),
        )
        .execute();
    }
    return trx
      .selectFrom('deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .innerJoin('events as ev', 'ev.event_id', 'd.event_id')
      .select([
        'd.id',
        'd.event_id',
        'd.endpoint_id',
        'd.attempt_count',
        'd.give_up_at',
        'd.lease_until',
        'e.url',
        'ev.type',
        'ev.payload',
        'ev.created_at',
        'ev.seq',
      ])
      .where('d.id', 'in', ids)
      .execute();
  });
}

export interface AttemptRecord {
  startedAt: number;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
}

export type NextState =
  | { status: 'delivered' }
  | { status: 'failed' }
  /** Retry later; `release` hands back an attempt cut short by this worker without counting it. */
  | { status: 'pending'; nextAttemptAt: number; release?: boolean };

/**
 * Records one attempt and moves the delivery on, if this worker still holds its lease. Returns
 * false when it no longer does (the lease ran out and another worker took over, or an operator
 * deleted the endpoint): the attempt is still recorded while the delivery exists.
 */
export async function completeDelivery(
  store: Store,
  delivery: { id: string; workerId: string },
  attempt: AttemptRecord,
  next: NextState,
  now: number,
): Promise<boolean> {
  return store.transaction(async (trx) => {
    const exists = trx.selectFrom('deliveries').select('id').where('id', '=', delivery.id);
    if ((await store.lockRows(exists).executeTakeFirst()) === undefined) return false;
    await trx
      .insertInto('delivery_attempts')
      .values({
        delivery_id: delivery.id,
        started_at: attempt.startedAt,
        duration_ms: attempt.durationMs,
        status_code: attempt.statusCode,
        error: attempt.error,
        worker: delivery.workerId,
      })
      .execute();
    const result = await trx
      .updateTable('deliveries')
      .set((eb) => ({
        status: next.status,
        next_attempt_at: next.status === 'pending' ? next.nextAttemptAt : now,
        attempt_count:
          next.status === 'pending' && next.release === true
            ? eb('attempt_count', '-', 1)
            : eb.ref('attempt_count'),
        lease_until: null,
        leased_by: null,
        last_status_code: attempt.statusCode,
        last_error: attempt.error,
        delivered_at: next.status === 'delivered' ? now : null,
        updated_at: now,
      }))
      .where('id', '=', delivery.id)
      .where('leased_by', '=', delivery.workerId)
      .where('status', '=', 'delivering')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  });
}

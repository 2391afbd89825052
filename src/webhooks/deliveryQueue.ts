import { randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import { claimNewEvents, hasNewEvents, markFannedOut } from '../events/eventRepository.ts';
import type { ApplicationEventPayload } from '../events/outbox.ts';
import { JOB_KINDS } from '../worker/jobKinds.ts';
import { enqueueJobs, jobsForEvents, type JobKind } from '../jobs/jobQueue.ts';
import type { Store } from '../store/connect.ts';
import type { Database, DeliveriesTable } from '../store/tables.ts';
import { activeEndpointsOf, liveSecretsOf } from './endpointRepository.ts';

/**
 * The delivery queue in the store, shared by every worker.
 *
 * - Fan-out: events whose `fanned_out_at` is null become one delivery per matching active endpoint
 *   of their app, and are marked, in one transaction. The mark is on the event row itself, not a
 *   cursor, so an event that commits late (PostgreSQL hands out times and ids before commit) is
 *   never skipped.
 * - The same fan-out queues the background jobs (src/jobs/) that the events ask for: the outbox has
 *   two consumers, and a job exists exactly when its event does.
 * - Claim: due deliveries are leased (`status = delivering`, `lease_until`, `leased_by`) in one
 *   transaction; on PostgreSQL the rows are locked with FOR UPDATE SKIP LOCKED so that concurrent
 *   workers take disjoint sets, on SQLite the transaction begins IMMEDIATE and so holds the write
 *   lock. A lease that runs out (its worker died) makes the delivery claimable again.
 * - Complete: the attempt is recorded and the delivery moved on, if this worker still holds it.
 */

export function newDeliveryId(): string {
  return `dlv_${randomBytes(12).toString('hex')}`;
}

function matches(eventTypes: string | null, type: string): boolean {
  return eventTypes === null || (JSON.parse(eventTypes) as string[]).includes(type);
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

/**
 * Turns up to `limit` new events into deliveries. An endpoint receives the events that occur from
 * its registration on. Returns how many events were fanned out.
 */
export async function fanOutEvents(
  store: Store,
  options: { now: number; limit: number; maxAgeMs: number; jobKinds?: readonly JobKind[] },
): Promise<number> {
  // A read first, so that an idle worker does not take SQLite's write lock on every poll.
  if (!(await hasNewEvents(store.db))) return 0;
  return store.transaction(async (trx) => {
    const events = await claimNewEvents(store, trx, options.limit);
    if (events.length === 0) return 0;
    const endpoints = await activeEndpointsOf(trx, [...new Set(events.map((e) => e.app_id))]);
    const pairs = events.flatMap((event) =>
      endpoints
        .filter(
          (e) =>
            e.app_id === event.app_id &&
            e.created_at <= event.created_at &&
            matches(e.event_types, event.type),
        )
        .map((e) => ({ eventId: event.event_id, endpointId: e.id })),
    );
    await insertDeliveries(trx, pairs, options.now, options.now + options.maxAgeMs);
    // The outbox's other consumers: the background jobs these events ask for, in the same commit.
    const jobs = jobsForEvents(
      options.jobKinds ?? JOB_KINDS,
      events.map((event) => ({ ...event, payload: JSON.parse(event.payload) as ApplicationEventPayload })),
    );
    await enqueueJobs(trx, jobs, options.now);
    await markFannedOut(
      trx,
      events.map((e) => e.event_id),
      options.now,
    );
    return events.length;
  });
}

/** A leased delivery with everything needed to send it. */
export interface ClaimedDelivery {
  id: string;
  eventId: string;
  endpointId: string;
  url: string;
  attemptCount: number;
  giveUpAt: number;
  leaseUntil: number;
  event: { event_id: string; type: string; payload: string; created_at: number; seq: number };
  /** Encrypted secrets that sign now, with their ids (for the decryption's aad). */
  secrets: { id: string; secret_enc: string }[];
}

/** The attempt row written for a lease that ran out: its worker never reported. */
export const LEASE_EXPIRED = 'interrupted: the worker did not report before its lease expired';

export async function claimDeliveries(
  store: Store,
  options: { workerId: string; now: number; leaseMs: number; limit: number },
): Promise<ClaimedDelivery[]> {
  const { now, workerId, leaseMs, limit } = options;
  const due = store.db
    .selectFrom('deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .where('d.status', 'in', ['pending', 'delivering'])
    .where('d.next_attempt_at', '<=', now)
    .where('e.status', '=', 'active');
  if ((await due.select('d.id').limit(1).executeTakeFirst()) === undefined) return [];

  const claimed = await store.transaction(async (trx) => {
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
  if (claimed.length === 0) return [];
  const secrets = await liveSecretsOf(store.db, [...new Set(claimed.map((c) => c.endpoint_id))], now);
  return claimed.map((c) => ({
    id: c.id,
    eventId: c.event_id,
    endpointId: c.endpoint_id,
    url: c.url,
    attemptCount: c.attempt_count,
    giveUpAt: c.give_up_at,
    leaseUntil: c.lease_until ?? now + leaseMs,
    event: { event_id: c.event_id, type: c.type, payload: c.payload, created_at: c.created_at, seq: c.seq },
    secrets: secrets
      .filter((s) => s.endpoint_id === c.endpoint_id)
      .map((s) => ({ id: s.id, secret_enc: s.secret_enc })),
  }));
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

import { claimNewEvents, hasNewEvents } from '../events/eventRepository.ts';
import type { ApplicationEventPayload } from '../events/outbox.ts';
import { JOB_KINDS } from '../worker/jobKinds.ts';
import { jobsForEvents, type JobKind } from '../jobs/jobQueue.ts';
import { enqueueJobs } from '../jobs/jobRepository.ts';
import type { Store } from '../store/connect.ts';
import { insertDeliveries, leaseDueDeliveries } from './deliveryRepository.ts';
import { activeEndpointsOf, liveSecretsOf } from './endpointRepository.ts';

/**
 * The delivery queue in the store, shared by every worker; the queries of its rows are
 * deliveryRepository.ts's, and this file composes them with the events and the endpoints.
 *
 * - Fan-out: events listed in `events_pending` become one delivery per matching active endpoint
 *   of their app, and leave the list, in one transaction. The list is filled by a trigger as each
 *   event is inserted, not read through a cursor, so an event that commits late (PostgreSQL hands
 *   out times and ids before commit) is never skipped; and the event row is never updated.
 * - The same fan-out queues the background jobs (src/jobs/) that the events ask for: the outbox has
 *   two consumers, and a job exists exactly when its event does.
 * - Claim: due deliveries are leased (`status = delivering`, `lease_until`, `leased_by`) in one
 *   transaction; on PostgreSQL the rows are locked with FOR UPDATE SKIP LOCKED so that concurrent
 *   workers take disjoint sets, on SQLite the transaction begins IMMEDIATE and so holds the write
 *   lock. A lease that runs out (its worker died) makes the delivery claimable again.
 * - Complete (`completeDelivery`): the attempt is recorded and the delivery moved on, if this worker
 *   still holds it.
 */

function matches(eventTypes: string | null, type: string): boolean {
  return eventTypes === null || (JSON.parse(eventTypes) as string[]).includes(type);
}

/**
 * Turns up to `limit` new events into deliveries. An endpoint receives the events that occur from
 * its registration on. Returns how many pending events it took off the list (`limit` when more may
 * wait).
 */
export async function fanOutEvents(
  store: Store,
  options: { now: number; limit: number; maxAgeMs: number; jobKinds?: readonly JobKind[] },
): Promise<number> {
  // A read first, so that an idle worker does not take SQLite's write lock on every poll.
  if (!(await hasNewEvents(store.db))) return 0;
  return store.transaction(async (trx) => {
    const { claimed, events } = await claimNewEvents(store, trx, options);
    if (events.length === 0) return claimed;
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
    return claimed;
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

/**
 * Takes up to `limit` due deliveries, leased to `workerId` (see leaseDueDeliveries), with the
 * secrets that sign their endpoints now.
 */
export async function claimDeliveries(
  store: Store,
  options: { workerId: string; now: number; leaseMs: number; limit: number },
): Promise<ClaimedDelivery[]> {
  const { now, leaseMs } = options;
  const claimed = await leaseDueDeliveries(store, options);
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

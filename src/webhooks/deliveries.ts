import { Type, type Static, type TSchema } from 'typebox';
import type { ServiceContext } from '../context.ts';
import { ServiceError } from '../errors/serviceError.ts';
import { findEvent } from '../events/eventRepository.ts';
import type { DeliveryStatus } from '../store/tables.ts';
import { activeEndpointsOf, findEndpoint } from './endpointRepository.ts';
import {
  findAttempts,
  findDeliveries,
  insertDeliveries,
  requeueEventDeliveries,
  requeueFailedDeliveries,
} from './deliveryRepository.ts';

/**
 * What operators see of deliveries (each with its attempt log) and how they send events again:
 * one event (to every endpoint of its app, or to one), or every failed delivery of an endpoint.
 * A redelivery keeps the event's id, so receivers that already have it drop the copy.
 */

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const AttemptView = Type.Object({
  // Unix milliseconds: attempts can be closer together than a second.
  started_at_ms: Type.Integer(),
  duration_ms: nullable(Type.Integer()),
  status_code: nullable(Type.Integer()),
  error: nullable(Type.String()),
  worker: Type.String(),
});
export type AttemptView = Static<typeof AttemptView>;

/** A delivery of an event to an endpoint, with its attempt log. Times in Unix seconds. */
export const DeliveryView = Type.Object({
  id: Type.String(),
  event_id: Type.String(),
  event_type: Type.String(),
  endpoint_id: Type.String(),
  status: Type.String({ description: '`pending`, `delivering`, `delivered` or `failed`.' }),
  attempt_count: Type.Integer(),
  // While delivering: the end of the lease.
  next_attempt_at: nullable(Type.Integer()),
  give_up_at: Type.Integer(),
  leased_by: nullable(Type.String()),
  last_status_code: nullable(Type.Integer()),
  last_error: nullable(Type.String()),
  delivered_at: nullable(Type.Integer()),
  created_at: Type.Integer(),
  attempts: Type.Array(AttemptView),
});
export type DeliveryView = Static<typeof DeliveryView>;

export const MAX_DELIVERIES_LISTED = 200;

const seconds = (ms: number) => Math.floor(ms / 1000);

export async function listDeliveries(
  ctx: ServiceContext,
  filter: { endpointId?: string; eventId?: string; status?: DeliveryStatus; limit?: number },
): Promise<DeliveryView[]> {
  if (filter.endpointId === undefined && filter.eventId === undefined)
    throw new Error('listDeliveries: an endpoint or an event is required');
  const db = ctx.store.db;
  if (filter.endpointId !== undefined && (await findEndpoint(db, filter.endpointId)) === undefined)
    throw new ServiceError('webhookEndpointNotFound');
  if (filter.eventId !== undefined && (await findEvent(db, filter.eventId)) === undefined)
    throw new ServiceError('eventNotFound');
  return loadDeliveries(ctx, {
    endpointId: filter.endpointId,
    eventIds: filter.eventId === undefined ? undefined : [filter.eventId],
    status: filter.status,
    limit: Math.min(filter.limit ?? 50, MAX_DELIVERIES_LISTED),
  });
}

/**
 * Deliveries with their attempts in two queries, whatever the number of deliveries: by endpoint, by
 * a page of events (the console's list of an application's events), or both.
 */
export async function loadDeliveries(
  ctx: ServiceContext,
  where: {
    endpointId?: string | undefined;
    eventIds?: readonly string[] | undefined;
    status?: DeliveryStatus | undefined;
    limit?: number;
  },
): Promise<DeliveryView[]> {
  const db = ctx.store.db;
  if (where.eventIds !== undefined && where.eventIds.length === 0) return [];
  const rows = await findDeliveries(db, where);
  const attempts = await findAttempts(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({
    id: row.id,
    event_id: row.event_id,
    event_type: row.type,
    endpoint_id: row.endpoint_id,
    status: row.status,
    attempt_count: row.attempt_count,
    next_attempt_at:
      row.status === 'pending' || row.status === 'delivering' ? seconds(row.next_attempt_at) : null,
    give_up_at: seconds(row.give_up_at),
    leased_by: row.leased_by,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    delivered_at: row.delivered_at === null ? null : seconds(row.delivered_at),
    created_at: seconds(row.created_at),
    attempts: attempts
      .filter((a) => a.delivery_id === row.id)
      .map((a) => ({
        started_at_ms: a.started_at,
        duration_ms: a.duration_ms,
        status_code: a.status_code,
        error: a.error,
        worker: a.worker,
      })),
  }));
}

export const Redelivery = Type.Object({
  queued: Type.Integer({ description: 'Deliveries queued to be sent now.' }),
  in_flight: Type.Integer({ description: 'Left alone: an attempt is in flight.' }),
});
export type RedeliveryResult = Static<typeof Redelivery>;

/**
 * Sends an event again: to one endpoint of its app, or to every active endpoint of its app whose
 * filter takes it (including endpoints registered after the event). The retry window starts anew.
 */
export async function redeliverEvent(
  ctx: ServiceContext,
  eventId: string,
  endpointId?: string,
): Promise<RedeliveryResult> {
  const event = await findEvent(ctx.store.db, eventId);
  if (event === undefined) throw new ServiceError('eventNotFound');
  let targets: string[];
  if (endpointId !== undefined) {
    const endpoint = await findEndpoint(ctx.store.db, endpointId);
    // Another app's endpoint is not one this event can go to: answer as for an unknown one.
    if (endpoint === undefined || endpoint.app_id !== event.app_id)
      throw new ServiceError('webhookEndpointNotFound');
    if (endpoint.status !== 'active') throw new ServiceError('webhookEndpointDisabled');
    targets = [endpoint.id];
  } else {
    const endpoints = await activeEndpointsOf(ctx.store.db, [event.app_id]);
    targets = endpoints
      .filter((e) => e.event_types === null || (JSON.parse(e.event_types) as string[]).includes(event.type))
      .map((e) => e.id);
  }
  if (targets.length === 0) return { queued: 0, in_flight: 0 };
  const now = ctx.now();
  const giveUpAt = now + ctx.config.webhooks.maxAgeSeconds * 1000;
  return ctx.store.transaction(async (trx) => {
    await insertDeliveries(
      trx,
      targets.map((id) => ({ eventId, endpointId: id })),
      now,
      giveUpAt,
    );
    const queued = await requeueEventDeliveries(trx, eventId, targets, now, giveUpAt);
    return { queued, in_flight: targets.length - queued };
  });
}

/** Queues every failed delivery of an endpoint again. */
export async function redeliverFailed(ctx: ServiceContext, endpointId: string): Promise<RedeliveryResult> {
  const endpoint = await findEndpoint(ctx.store.db, endpointId);
  if (endpoint === undefined) throw new ServiceError('webhookEndpointNotFound');
  if (endpoint.status !== 'active') throw new ServiceError('webhookEndpointDisabled');
  const now = ctx.now();
  const queued = await requeueFailedDeliveries(
    ctx.store.db,
    endpointId,
    now,
    now + ctx.config.webhooks.maxAgeSeconds * 1000,
  );
  return { queued, in_flight: 0 };
}

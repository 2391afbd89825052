import { Type, type Static } from 'typebox';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { ServiceContext } from '../context.ts';
import { ServiceError } from '../errors/serviceError.ts';
import { findEvent } from '../events/eventRepository.ts';
import type { DeliveryStatus, WebhookEndpointStatus } from '../store/tables.ts';
import { listDeliveries, redeliverEvent, type DeliveryView, type RedeliveryResult } from './deliveries.ts';
import { findEndpoint, liveSecretsOf } from './endpointRepository.ts';
import {
  addEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  rotateSecret,
  secretAad,
  setEndpointStatus,
  type CreatedEndpoint,
  type DeletedEndpoint,
  type EndpointView,
} from './endpoints.ts';
import { send } from './send.ts';
import { signedHeaders } from '../crypto/webhookSignature.ts';

/**
 * A partner's own webhook endpoints, through the partner API: the operators' functions of
 * `endpoints.ts` and `deliveries.ts`, each scoped to the partner's app. Another app's endpoint or
 * event answers exactly like one that does not exist.
 */

async function own(ctx: ServiceContext, appId: string, endpointId: string): Promise<void> {
  const endpoint = await findEndpoint(ctx.store.db, endpointId);
  if (endpoint === undefined || endpoint.app_id !== appId) throw new ServiceError('webhookEndpointNotFound');
}

async function ownEvent(ctx: ServiceContext, appId: string, eventId: string): Promise<void> {
  if ((await findEvent(ctx.store.db, eventId))?.app_id !== appId) throw new ServiceError('eventNotFound');
}

export function registerOwnEndpoint(
  ctx: ServiceContext,
  appId: string,
  request: { url: string; events?: readonly string[] | undefined },
): Promise<CreatedEndpoint> {
  return addEndpoint(ctx, {
    appId,
    url: request.url,
    ...(request.events === undefined ? {} : { events: request.events }),
  });
}

export function listOwnEndpoints(ctx: ServiceContext, appId: string): Promise<EndpointView[]> {
  return listEndpoints(ctx, { appId });
}

export async function showOwnEndpoint(ctx: ServiceContext, appId: string, id: string): Promise<EndpointView> {
  await own(ctx, appId, id);
  return getEndpoint(ctx, id);
}

export async function rotateOwnSecret(
  ctx: ServiceContext,
  appId: string,
  id: string,
  overlapSeconds?: number,
): Promise<CreatedEndpoint> {
  await own(ctx, appId, id);
  return rotateSecret(ctx, id, overlapSeconds);
}

export async function setOwnEndpointStatus(
  ctx: ServiceContext,
  appId: string,
  id: string,
  status: WebhookEndpointStatus,
): Promise<EndpointView> {
  await own(ctx, appId, id);
  return setEndpointStatus(ctx, id, status);
}

export async function deleteOwnEndpoint(
  ctx: ServiceContext,
  appId: string,
  id: string,
): Promise<DeletedEndpoint> {
  await own(ctx, appId, id);
  return deleteEndpoint(ctx, id);
}

/** Deliveries (with their attempts) of one of the partner's endpoints, or of one of its events. */
export async function listOwnDeliveries(
  ctx: ServiceContext,
  appId: string,
  filter: { endpointId?: string; eventId?: string; status?: DeliveryStatus; limit?: number },
): Promise<DeliveryView[]> {
  if (filter.endpointId !== undefined) await own(ctx, appId, filter.endpointId);
  if (filter.eventId !== undefined) await ownEvent(ctx, appId, filter.eventId);
  if (filter.endpointId === undefined && filter.eventId === undefined) {
    throw new ServiceError('webhookEndpointNotFound');
  }
  return listDeliveries(ctx, filter);
}

/** Sends one of the partner's events again, to one of its endpoints or to all that take it. */
export async function redeliverOwnEvent(
  ctx: ServiceContext,
  appId: string,
  eventId: string,
  endpointId?: string,
): Promise<RedeliveryResult> {
  await ownEvent(ctx, appId, eventId);
  if (endpointId !== undefined) await own(ctx, appId, endpointId);
  return redeliverEvent(ctx, eventId, endpointId);
}

export const TestDelivery = Type.Object({
  event_id: Type.String({ description: 'The test message id (`evt_test_...`): its `webhook-id` header.' }),
  delivered: Type.Boolean({ description: 'The endpoint answered 2xx.' }),
  status_code: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()], { description: 'What went wrong, if anything.' }),
  duration_ms: Type.Integer(),
});
export type TestDelivery = Static<typeof TestDelivery>;

/**
 * A signed `webhook.test` message sent to the endpoint now, once, with the same signing, address
 * checks and time-out as every delivery; the answer says how it went. It is not an event of an
 * application: nothing is queued, retried or listed.
 */
export async function sendTestEvent(ctx: ServiceContext, appId: string, id: string): Promise<TestDelivery> {
  await own(ctx, appId, id);
  const endpoint = (await findEndpoint(ctx.store.db, id))!;
  const now = ctx.now();
  const secrets = (await liveSecretsOf(ctx.store.db, [id], now)).map((s) =>
    ctx.keyRing.decrypt(s.secret_enc, secretAad(id, s.id)),
  );
  const eventId = `evt_test_${randomBytes(12).toString('hex')}`;
  const body = JSON.stringify({
    id: eventId,
    type: 'webhook.test',
    created_at: Math.floor(now / 1000),
    data: {
      endpoint_id: id,
      app_id: appId,
      message: 'A test message: your endpoint received and verified it.',
    },
  });
  const started = performance.now();
  const config = ctx.config.webhooks;
  const result =
    secrets.length === 0
      ? { statusCode: null, error: 'no signing secret in force' }
      : await send(endpoint.url, signedHeaders(secrets, eventId, Math.floor(now / 1000), body), body, {
          signal: AbortSignal.timeout(config.timeoutMs),
          allowPrivate: config.allowPrivate,
        });
  const delivered = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  return {
    event_id: eventId,
    delivered,
    status_code: result.statusCode,
    error: result.error,
    duration_ms: Math.round(performance.now() - started),
  };
}

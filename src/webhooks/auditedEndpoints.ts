import type { ChangedBy } from '../audit/actor.ts';
import { audited } from '../audit/audited.ts';
import type { ServiceContext } from '../context.ts';
import { redeliverEvent, redeliverFailed } from './deliveries.ts';
import { addEndpoint, deleteEndpoint, rotateSecret, setEndpointStatus } from './endpoints.ts';

/**
 * Webhook endpoint changes as someone makes them (admin API, CLI): each is one audit row, in the
 * transaction of the change. Never the URL's secret parts nor the signing secret in the row.
 */
type WebhookStatus = Parameters<typeof setEndpointStatus>[2];

export function addEndpointAudited(
  ctx: ServiceContext,
  request: Parameters<typeof addEndpoint>[1],
  by: ChangedBy,
) {
  return audited(ctx, by, (inner) => addEndpoint(inner, request), {
    action: 'webhook.create',
    targetType: 'webhook_endpoint',
    targetId: (created) => created.id,
    // The URL's DNS check must not hold the store's write lock: the entry follows the commit.
    atomic: false,
    details: (created) => ({
      app_id: created.app_id,
      host: hostOf(created.url),
      events: request.events ?? null,
    }),
  });
}

export function rotateEndpointSecretAudited(
  ctx: ServiceContext,
  id: string,
  overlapSeconds: number | undefined,
  by: ChangedBy,
) {
  return audited(ctx, by, (inner) => rotateSecret(inner, id, overlapSeconds), {
    action: 'webhook.secret_rotate',
    targetType: 'webhook_endpoint',
    targetId: id,
    details: () => ({ overlap_seconds: overlapSeconds ?? null }),
  });
}

export function setEndpointStatusAudited(
  ctx: ServiceContext,
  id: string,
  status: WebhookStatus,
  by: ChangedBy,
) {
  return audited(ctx, by, (inner) => setEndpointStatus(inner, id, status), {
    action: status === 'active' ? 'webhook.enable' : 'webhook.disable',
    targetType: 'webhook_endpoint',
    targetId: id,
  });
}

export function deleteEndpointAudited(ctx: ServiceContext, id: string, by: ChangedBy) {
  return audited(ctx, by, (inner) => deleteEndpoint(inner, id), {
    action: 'webhook.delete',
    targetType: 'webhook_endpoint',
    targetId: id,
  });
}

export function redeliverFailedAudited(ctx: ServiceContext, endpointId: string, by: ChangedBy) {
  return audited(ctx, by, (inner) => redeliverFailed(inner, endpointId), {
    action: 'webhook.redeliver',
    targetType: 'webhook_endpoint',
    targetId: endpointId,
    details: (result) => ({ failed: true, ...result }),
  });
}

export function redeliverEventAudited(
  ctx: ServiceContext,
  eventId: string,
  endpointId: string | undefined,
  by: ChangedBy,
) {
  return audited(ctx, by, (inner) => redeliverEvent(inner, eventId, endpointId), {
    action: 'webhook.redeliver',
    targetType: 'event',
    targetId: eventId,
    details: (result) => ({ endpoint_id: endpointId ?? null, ...result }),
  });
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

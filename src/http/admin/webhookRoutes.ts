import type { TypedApp } from '../typedApp.ts';
import { Type } from 'typebox';
import type { ServiceContext } from '../../context.ts';
import { EVENT_TYPES } from '../../record/lifecycle.ts';
import {
  addEndpointAudited,
  deleteEndpointAudited,
  redeliverEventAudited,
  redeliverFailedAudited,
  rotateEndpointSecretAudited,
  setEndpointStatusAudited,
} from '../../webhooks/auditedEndpoints.ts';
import {
  DeliveryView,
  listDeliveries,
  MAX_DELIVERIES_LISTED,
  Redelivery,
} from '../../webhooks/deliveries.ts';
import { CreatedEndpoint, EndpointView, getEndpoint, listEndpoints } from '../../webhooks/endpoints.ts';
import { MAX_URL_LENGTH } from '../../network/endpointUrl.ts';
import { success } from '../envelope.ts';
import { changedBy, requireOperator } from './operatorAuth.ts';
import { ADMIN_SECURITY, adminBodyErrors, adminErrors, EmptyBody, numberOf, ok } from './schemas.ts';

/**
 * Webhook endpoints and deliveries in the admin API: reviewers read, admins change. Thin: the
 * domain functions in `webhooks/` do the work, as they do for the CLI.
 */

const EndpointIdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64, description: 'Endpoint id (`we_...`).' }) },
  { additionalProperties: false },
);
const EventIdParams = Type.Object(
  { event_id: Type.String({ minLength: 1, maxLength: 64, description: 'Event id (`evt_...`).' }) },
  { additionalProperties: false },
);

const AddBody = Type.Object(
  {
    app_id: Type.String({ minLength: 1, maxLength: 64 }),
    url: Type.String({
      minLength: 1,
      maxLength: MAX_URL_LENGTH,
      description: 'https, resolving to public addresses only (unless WEBHOOK_ALLOW_PRIVATE).',
    }),
    events: Type.Optional(
      Type.Array(Type.Enum([...EVENT_TYPES]), {
        minItems: 1,
        maxItems: EVENT_TYPES.length,
        description: 'Event types it receives; all when absent.',
      }),
    ),
  },
  { additionalProperties: false },
);
const RotateBody = Type.Object(
  {
    overlap_seconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 30 * 86_400,
        description: 'How long the current secrets keep signing beside the new one; 86400 by default.',
      }),
    ),
  },
  { additionalProperties: false },
);
const RedeliverBody = Type.Object(
  { endpoint_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) },
  { additionalProperties: false },
);
const ListQuery = Type.Object(
  { app_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) },
  { additionalProperties: false },
);
const DeliveriesQuery = Type.Object(
  {
    status: Type.Optional(Type.Enum(['pending', 'delivering', 'delivered', 'failed'])),
    limit: Type.Optional(
      Type.String({ pattern: '^[0-9]{1,3}$', description: `1 to ${MAX_DELIVERIES_LISTED}; 50 by default.` }),
    ),
  },
  { additionalProperties: false },
);

const route = (operationId: string, summary: string, description?: string) => ({
  operationId,
  summary,
  ...(description === undefined ? {} : { description }),
  tags: ['admin', 'webhooks'],
  security: ADMIN_SECURITY,
});

export function webhookAdminRoutes(ctx: ServiceContext) {
  return async (app: TypedApp) => {
    const reviewer = requireOperator(ctx, 'reviewer');
    const admin = requireOperator(ctx, 'admin');

    app.get(
      '/webhooks',
      {
        onRequest: reviewer,
        config: { operation: 'admin.webhook.list' },
        schema: {
          ...route('adminListWebhooks', 'List webhook endpoints (never their secrets)'),
          querystring: ListQuery,
          response: { ...ok(Type.Array(EndpointView)), ...adminErrors('fieldEmpty', 'fieldTooLong') },
        },
      },
      async (request) => {
        const { app_id } = request.query;
        return success(request, await listEndpoints(ctx, app_id === undefined ? {} : { appId: app_id }));
      },
    );

    app.post(
      '/webhooks',
      {
        onRequest: admin,
        config: { operation: 'admin.webhook.add' },
        schema: {
          ...route('adminAddWebhook', 'Register a webhook endpoint; its secret is shown this once'),
          body: AddBody,
          response: {
            ...ok(CreatedEndpoint),
            ...adminBodyErrors(
              'appNotFound',
              'fieldEmpty',
              'fieldTooLong',
              'fieldNotAllowed',
              'fieldTooManyItems',
              'urlNotHttps',
              'urlCredentials',
              'urlPrivateHost',
              'webhookUrlUnresolvable',
            ),
          },
        },
      },
      async (request) => {
        const { body } = request;
        return success(
          request,
          await addEndpointAudited(
            ctx,
            {
              appId: body.app_id,
              url: body.url,
              ...(body.events === undefined ? {} : { events: body.events }),
            },
            changedBy(request),
          ),
        );
      },
    );

    app.get(
      '/webhooks/:id',
      {
        onRequest: reviewer,
        config: { operation: 'admin.webhook.show' },
        schema: {
          ...route('adminShowWebhook', 'Show a webhook endpoint'),
          params: EndpointIdParams,
          response: { ...ok(EndpointView), ...adminErrors('webhookEndpointNotFound') },
        },
      },
      async (request) => success(request, await getEndpoint(ctx, request.params.id)),
    );

    app.post(
      '/webhooks/:id/rotate-secret',
      {
        onRequest: admin,
        config: { operation: 'admin.webhook.rotate_secret' },
        schema: {
          ...route(
            'adminRotateWebhookSecret',
            'Issue a new signing secret (shown once)',
            'The secrets in force keep signing beside the new one for `overlap_seconds`: receivers accept a message when any signature matches.',
          ),
          params: EndpointIdParams,
          body: RotateBody,
          response: {
            ...ok(CreatedEndpoint),
            ...adminBodyErrors('webhookEndpointNotFound', 'fieldFormat'),
          },
        },
      },
      async (request) => {
        const { overlap_seconds } = request.body;
        return success(
          request,
          await rotateEndpointSecretAudited(ctx, request.params.id, overlap_seconds, changedBy(request)),
        );
      },
    );

    for (const [action, status] of [
      ['disable', 'disabled'],
      ['enable', 'active'],
    ] as const) {
      app.post(
        `/webhooks/:id/${action}`,
        {
          onRequest: admin,
          config: { operation: `admin.webhook.${action}` },
          schema: {
            ...route(
              `admin${action === 'disable' ? 'Disable' : 'Enable'}Webhook`,
              action === 'disable'
                ? 'Stop sending to an endpoint (queued deliveries wait; new events are not queued)'
                : 'Resume sending to an endpoint',
            ),
            params: EndpointIdParams,
            body: EmptyBody,
            response: { ...ok(EndpointView), ...adminBodyErrors('webhookEndpointNotFound') },
          },
        },
        async (request) =>
          success(
            request,
            await setEndpointStatusAudited(ctx, request.params.id, status, changedBy(request)),
          ),
      );
    }

    app.delete(
      '/webhooks/:id',
      {
        onRequest: admin,
        config: { operation: 'admin.webhook.delete' },
        schema: {
          ...route('adminDeleteWebhook', 'Delete an endpoint with its secrets, deliveries and attempt log'),
          params: EndpointIdParams,
          response: {
            ...ok(Type.Object({ id: Type.String(), deleted: Type.Literal(true) })),
            ...adminErrors('webhookEndpointNotFound'),
          },
        },
      },
      async (request) =>
        success(request, await deleteEndpointAudited(ctx, request.params.id, changedBy(request))),
    );

    app.get(
      '/webhooks/:id/deliveries',
      {
        onRequest: reviewer,
        config: { operation: 'admin.webhook.deliveries' },
        schema: {
          ...route(
            'adminListWebhookDeliveries',
            "An endpoint's deliveries, newest first, with every attempt",
          ),
          params: EndpointIdParams,
          querystring: DeliveriesQuery,
          response: {
            ...ok(Type.Array(DeliveryView)),
            ...adminErrors('webhookEndpointNotFound', 'fieldNotAllowed', 'fieldFormat'),
          },
        },
      },
      async (request) => {
        const { query } = request;
        const limit = numberOf(query.limit);
        return success(
          request,
          await listDeliveries(ctx, {
            endpointId: request.params.id,
            ...(query.status === undefined ? {} : { status: query.status }),
            ...(limit === undefined ? {} : { limit: Math.max(1, limit) }),
          }),
        );
      },
    );

    app.post(
      '/webhooks/:id/redeliver-failed',
      {
        onRequest: admin,
        config: { operation: 'admin.webhook.redeliver_failed' },
        schema: {
          ...route('adminRedeliverFailed', 'Queue every failed delivery of an endpoint again'),
          params: EndpointIdParams,
          body: EmptyBody,
          response: {
            ...ok(Redelivery),
            ...adminBodyErrors('webhookEndpointNotFound', 'webhookEndpointDisabled'),
          },
        },
      },
      async (request) =>
        success(request, await redeliverFailedAudited(ctx, request.params.id, changedBy(request))),
    );

    app.get(
      '/events/:event_id/deliveries',
      {
        onRequest: reviewer,
        config: { operation: 'admin.event.deliveries' },
        schema: {
          ...route('adminListEventDeliveries', "An event's deliveries, with every attempt"),
          params: EventIdParams,
          response: { ...ok(Type.Array(DeliveryView)), ...adminErrors('eventNotFound') },
        },
      },
      async (request) => {
        const { event_id } = request.params;
        return success(request, await listDeliveries(ctx, { eventId: event_id }));
      },
    );

    app.post(
      '/events/:event_id/redeliver',
      {
        onRequest: admin,
        config: { operation: 'admin.event.redeliver' },
        schema: {
          ...route(
            'adminRedeliverEvent',
            'Send an event again',
            'To `endpoint_id`, or to every active endpoint of its app whose filter takes it. The webhook-id stays the event id, so receivers that already have it drop the copy.',
          ),
          params: EventIdParams,
          body: RedeliverBody,
          response: {
            ...ok(Redelivery),
            ...adminBodyErrors('eventNotFound', 'webhookEndpointNotFound', 'webhookEndpointDisabled'),
          },
        },
      },
      async (request) => {
        const { event_id } = request.params;
        const { endpoint_id } = request.body;
        return success(request, await redeliverEventAudited(ctx, event_id, endpoint_id, changedBy(request)));
      },
    );
  };
}

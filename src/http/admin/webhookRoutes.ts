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
import {
  CreatedEndpoint,
  DeletedEndpoint,
  EndpointView,
  getEndpoint,
  listEndpoints,
} from '../../webhooks/endpoints.ts';
import { MAX_URL_LENGTH } from '../../network/endpointUrl.ts';
import { success } from '../envelope.ts';
import { adminRoute } from './adminRoute.ts';
import { changedBy } from './operatorAuth.ts';
import { EmptyBody, numberOf, ok } from './schemas.ts';

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

const WEBHOOK_TAGS = ['admin', 'webhooks'];

export function webhookAdminRoutes(ctx: ServiceContext) {
  return async (app: TypedApp) => {
    registerEndpointRoutes(app, ctx);
    registerDeliveryRoutes(app, ctx);
  };
}

/** Endpoints: list, add, show, rotate the secret, disable, enable, delete. */
function registerEndpointRoutes(app: TypedApp, ctx: ServiceContext): void {
  app.get(
    '/webhooks',
    adminRoute(ctx, {
      caller: 'reviewer',
      operation: 'admin.webhook.list',
      operationId: 'adminListWebhooks',
      summary: 'List webhook endpoints (never their secrets)',
      tags: WEBHOOK_TAGS,
      errors: ['fieldEmpty', 'fieldTooLong'],
      schema: { querystring: ListQuery, response: ok(Type.Array(EndpointView)) },
    }),
    async (request) => {
      const { app_id } = request.query;
      return success(request, await listEndpoints(ctx, app_id === undefined ? {} : { appId: app_id }));
    },
  );

  app.post(
    '/webhooks',
    adminRoute(ctx, {
      caller: 'admin',
      operation: 'admin.webhook.add',
      operationId: 'adminAddWebhook',
      summary: 'Register a webhook endpoint; its secret is shown this once',
      tags: WEBHOOK_TAGS,
      errors: [
        'appNotFound',
        'fieldEmpty',
        'fieldTooLong',
        'fieldNotAllowed',
        'fieldTooManyItems',
        'urlNotHttps',
        'urlCredentials',
        'urlPrivateHost',
        'webhookUrlUnresolvable',
      ],
      schema: { body: AddBody, response: ok(CreatedEndpoint) },
    }),
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
    adminRoute(ctx, {
      caller: 'reviewer',
      operation: 'admin.webhook.show',
      operationId: 'adminShowWebhook',
      summary: 'Show a webhook endpoint',
      tags: WEBHOOK_TAGS,
      errors: ['webhookEndpointNotFound'],
      schema: { params: EndpointIdParams, response: ok(EndpointView) },
    }),
    async (request) => success(request, await getEndpoint(ctx, request.params.id)),
  );

  app.post(
    '/webhooks/:id/rotate-secret',
    adminRoute(ctx, {
      caller: 'admin',
      operation: 'admin.webhook.rotate_secret',
      operationId: 'adminRotateWebhookSecret',
      summary: 'Issue a new signing secret (shown once)',
      description:
        'The secrets in force keep signing beside the new one for `overlap_seconds`: receivers accept a message when any signature matches.',
      tags: WEBHOOK_TAGS,
      errors: ['webhookEndpointNotFound', 'fieldFormat'],
      schema: { params: EndpointIdParams, body: RotateBody, response: ok(CreatedEndpoint) },
    }),
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
      adminRoute(ctx, {
        caller: 'admin',
        operation: `admin.webhook.${action}`,
        operationId: `admin${action === 'disable' ? 'Disable' : 'Enable'}Webhook`,
        summary:
          action === 'disable'
            ? 'Stop sending to an endpoint (queued deliveries wait; new events are not queued)'
            : 'Resume sending to an endpoint',
        tags: WEBHOOK_TAGS,
        errors: ['webhookEndpointNotFound'],
        schema: { params: EndpointIdParams, body: EmptyBody, response: ok(EndpointView) },
      }),
      async (request) =>
        success(request, await setEndpointStatusAudited(ctx, request.params.id, status, changedBy(request))),
    );
  }

  app.delete(
    '/webhooks/:id',
    adminRoute(ctx, {
      caller: 'admin',
      operation: 'admin.webhook.delete',
      operationId: 'adminDeleteWebhook',
      summary: 'Delete an endpoint with its secrets, deliveries and attempt log',
      tags: WEBHOOK_TAGS,
      errors: ['webhookEndpointNotFound'],
      schema: {
        params: EndpointIdParams,
        response: ok(DeletedEndpoint),
      },
    }),
    async (request) =>
      success(request, await deleteEndpointAudited(ctx, request.params.id, changedBy(request))),
  );
}

/** Deliveries: of an endpoint or an event, and sending again. */
function registerDeliveryRoutes(app: TypedApp, ctx: ServiceContext): void {
  app.get(
    '/webhooks/:id/deliveries',
    adminRoute(ctx, {
      caller: 'reviewer',
      operation: 'admin.webhook.deliveries',
      operationId: 'adminListWebhookDeliveries',
      summary: "An endpoint's deliveries, newest first, with every attempt",
      tags: WEBHOOK_TAGS,
      errors: ['webhookEndpointNotFound', 'fieldNotAllowed', 'fieldFormat'],
      schema: {
        params: EndpointIdParams,
        querystring: DeliveriesQuery,
        response: ok(Type.Array(DeliveryView)),
      },
    }),
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
    adminRoute(ctx, {
      caller: 'admin',
      operation: 'admin.webhook.redeliver_failed',
      operationId: 'adminRedeliverFailed',
      summary: 'Queue every failed delivery of an endpoint again',
      tags: WEBHOOK_TAGS,
      errors: ['webhookEndpointNotFound', 'webhookEndpointDisabled'],
      schema: { params: EndpointIdParams, body: EmptyBody, response: ok(Redelivery) },
    }),
    async (request) =>
      success(request, await redeliverFailedAudited(ctx, request.params.id, changedBy(request))),
  );

  app.get(
    '/events/:event_id/deliveries',
    adminRoute(ctx, {
      caller: 'reviewer',
      operation: 'admin.event.deliveries',
      operationId: 'adminListEventDeliveries',
      summary: "An event's deliveries, with every attempt",
      tags: WEBHOOK_TAGS,
      errors: ['eventNotFound'],
      schema: { params: EventIdParams, response: ok(Type.Array(DeliveryView)) },
    }),
    async (request) => {
      const { event_id } = request.params;
      return success(request, await listDeliveries(ctx, { eventId: event_id }));
    },
  );

  app.post(
    '/events/:event_id/redeliver',
    adminRoute(ctx, {
      caller: 'admin',
      operation: 'admin.event.redeliver',
      operationId: 'adminRedeliverEvent',
      summary: 'Send an event again',
      description:
        'To `endpoint_id`, or to every active endpoint of its app whose filter takes it. The webhook-id stays the event id, so receivers that already have it drop the copy.',
      tags: WEBHOOK_TAGS,
      errors: ['eventNotFound', 'webhookEndpointNotFound', 'webhookEndpointDisabled'],
      schema: { params: EventIdParams, body: RedeliverBody, response: ok(Redelivery) },
    }),
    async (request) => {
      const { event_id } = request.params;
      const { endpoint_id } = request.body;
      return success(request, await redeliverEventAudited(ctx, event_id, endpoint_id, changedBy(request)));
    },
  );
}

import type { TypedApp } from '../typedApp.ts';
import type { FastifyRequest } from 'fastify';
import { Type, type TProperties, type TSchema } from 'typebox';
import { EVENT_TYPES } from '../../record/lifecycle.ts';
import type { ServiceContext } from '../../context.ts';
import type { ErrorName } from '../../errors/catalogue.ts';
import {
  deleteOwnEndpoint,
  listOwnDeliveries,
  listOwnEndpoints,
  redeliverOwnEvent,
  registerOwnEndpoint,
  rotateOwnSecret,
  sendTestEvent,
  setOwnEndpointStatus,
  showOwnEndpoint,
  TestDelivery,
} from '../../webhooks/partnerWebhooks.ts';
import { DeliveryView, MAX_DELIVERIES_LISTED, Redelivery } from '../../webhooks/deliveries.ts';
import { MAX_URL_LENGTH } from '../../network/endpointUrl.ts';
import { CreatedEndpoint, DeletedEndpoint, EndpointView } from '../../webhooks/endpoints.ts';
import { guardPartnerRoutes, partnerOf } from '../partnerAuth.ts';
import { success } from '../envelope.ts';
import { PATHS } from '../paths.ts';
import { AppId, PARTNER_ERRORS, errorResponses, SuccessEnvelope, Timestamp } from '../schemas.ts';

/**
 * The partner's own webhook endpoints (self-service): register, list, show, rotate the secret with
 * an overlap, disable, enable, delete, send a test message, read deliveries with their attempts and
 * redeliver an event. Every route is scoped to the partner's app; another app's endpoint or event
 * answers like one that does not exist.
 */

const EndpointId = Type.String({ minLength: 1, maxLength: 64, description: 'Endpoint id (`we_...`).' });
const EventId = Type.String({ minLength: 1, maxLength: 64, description: 'Event id (`evt_...`).' });

/** A body: the partner's app_id and timestamp, and the operation's own fields. */
const body = <P extends TProperties>(properties: P) =>
  Type.Object({ app_id: AppId, timestamp: Timestamp, ...properties }, { additionalProperties: false });

const BASE_ERRORS: ErrorName[] = [...PARTNER_ERRORS, 'fieldEmpty', 'fieldTooLong'];
const URL_ERRORS: ErrorName[] = [
  'fieldNotAllowed',
  'fieldTooManyItems',
  'urlNotHttps',
  'urlCredentials',
  'urlPrivateHost',
  'webhookUrlUnresolvable',
];

/** One operation's route options: its document entry, its body and its responses. */
function operation<B extends TSchema, R extends TSchema>(spec: {
  operationId: string;
  summary: string;
  description: string;
  body: B;
  response: R;
  errors: ErrorName[];
}) {
  return {
    config: { operation: `webhook.${spec.operationId}` },
    schema: {
      operationId: spec.operationId,
      summary: spec.summary,
      description: spec.description,
      tags: ['webhooks'],
      body: spec.body,
      response: {
        200: SuccessEnvelope(spec.response),
        ...errorResponses([...BASE_ERRORS, ...spec.errors]),
      },
    },
  };
}

const appOf = (request: FastifyRequest) => partnerOf(request).appId;

export function partnerWebhookRoutes(ctx: ServiceContext) {
  return async (app: TypedApp) => {
    guardPartnerRoutes(app, ctx);
    registerEndpointRoutes(app, ctx);
    registerMessageRoutes(app, ctx);
  };
}

/** The endpoints: register, list, show, rotate the secret, disable, enable, delete. */
function registerEndpointRoutes(app: TypedApp, ctx: ServiceContext): void {
  app.post(
    PATHS.webhookRegister,
    operation({
      operationId: 'registerWebhook',
      summary: 'Register a webhook endpoint; its signing secret is shown this once',
      description:
        'An https URL resolving to public addresses only (checked now and at every delivery). Receives every event type, or those listed in `events`. Verify each message as Standard Webhooks specifies, with the `secret` of this answer.',
      body: body({
        url: Type.String({
          minLength: 1,
          maxLength: MAX_URL_LENGTH,
          description: 'https URL of the receiver.',
        }),
        events: Type.Optional(
          Type.Array(Type.Enum([...EVENT_TYPES]), {
            minItems: 1,
            maxItems: EVENT_TYPES.length,
            description: 'Event types it receives; all when absent.',
          }),
        ),
      }),
      response: CreatedEndpoint,
      errors: URL_ERRORS,
    }),
    async (request) => {
      const { url, events } = request.body;
      return success(request, await registerOwnEndpoint(ctx, appOf(request), { url, events }));
    },
  );

  app.post(
    PATHS.webhookList,
    operation({
      operationId: 'listWebhooks',
      summary: "List the partner's webhook endpoints (never their secrets)",
      description:
        'Each with its state, its health (`failing_since`, `disabled_reason`) and the ids of the secrets in force.',
      body: body({}),
      response: Type.Object({ items: Type.Array(EndpointView) }),
      errors: [],
    }),
    async (request) => success(request, { items: await listOwnEndpoints(ctx, appOf(request)) }),
  );

  app.post(
    PATHS.webhookShow,
    operation({
      operationId: 'showWebhook',
      summary: 'Show one webhook endpoint',
      description: "One of the partner's endpoints; another app's answers as not found.",
      body: body({ endpoint_id: EndpointId }),
      response: EndpointView,
      errors: ['webhookEndpointNotFound'],
    }),
    async (request) => success(request, await showOwnEndpoint(ctx, appOf(request), request.body.endpoint_id)),
  );

  app.post(
    PATHS.webhookRotateSecret,
    operation({
      operationId: 'rotateWebhookSecret',
      summary: 'Issue a new signing secret (shown once), the old one signing beside it for a while',
      description:
        'The secrets in force keep signing beside the new one for `overlap_seconds` (a day by default, 0 to stop them now): deploy the new secret meanwhile; a message is genuine when any of its signatures matches.',
      body: body({
        endpoint_id: EndpointId,
        overlap_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 30 * 86_400 })),
      }),
      response: CreatedEndpoint,
      errors: ['webhookEndpointNotFound', 'fieldFormat'],
    }),
    async (request) => {
      const { endpoint_id, overlap_seconds } = request.body;
      return success(request, await rotateOwnSecret(ctx, appOf(request), endpoint_id, overlap_seconds));
    },
  );

  app.post(
    PATHS.webhookDisable,
    operation({
      operationId: 'disableWebhook',
      summary: 'Stop sending to an endpoint',
      description:
        'Events meanwhile are not queued for it; deliveries already queued wait until it is enabled.',
      body: body({ endpoint_id: EndpointId }),
      response: EndpointView,
      errors: ['webhookEndpointNotFound'],
    }),
    async (request) =>
      success(request, await setOwnEndpointStatus(ctx, appOf(request), request.body.endpoint_id, 'disabled')),
  );

  app.post(
    PATHS.webhookEnable,
    operation({
      operationId: 'enableWebhook',
      summary: 'Resume sending to an endpoint',
      description:
        'Also after the service disabled it for failing five days in a row: its health record starts afresh.',
      body: body({ endpoint_id: EndpointId }),
      response: EndpointView,
      errors: ['webhookEndpointNotFound'],
    }),
    async (request) =>
      success(request, await setOwnEndpointStatus(ctx, appOf(request), request.body.endpoint_id, 'active')),
  );

  app.post(
    PATHS.webhookDelete,
    operation({
      operationId: 'deleteWebhook',
      summary: 'Delete an endpoint with its secrets, deliveries and attempt log',
      description: 'Irreversible; events are kept and can be listed.',
      body: body({ endpoint_id: EndpointId }),
      response: DeletedEndpoint,
      errors: ['webhookEndpointNotFound'],
    }),
    async (request) =>
      success(request, await deleteOwnEndpoint(ctx, appOf(request), request.body.endpoint_id)),
  );
}

/** What is sent to them: a test message, the deliveries with their attempts, a redelivery. */
function registerMessageRoutes(app: TypedApp, ctx: ServiceContext): void {
  app.post(
    PATHS.webhookTest,
    operation({
      operationId: 'testWebhook',
      summary: 'Send a signed test message to an endpoint now',
      description:
        'A `webhook.test` message, signed with the secrets in force, sent once with the address checks and time-out of every delivery; the answer says how the endpoint responded. Nothing is queued or retried.',
      body: body({ endpoint_id: EndpointId }),
      response: TestDelivery,
      errors: ['webhookEndpointNotFound'],
    }),
    async (request) => success(request, await sendTestEvent(ctx, appOf(request), request.body.endpoint_id)),
  );

  app.post(
    PATHS.webhookDeliveries,
    operation({
      operationId: 'listWebhookDeliveries',
      summary: 'Deliveries of an endpoint or of an event, each with its attempts',
      description: 'Newest first. Give `endpoint_id`, `event_id`, or both.',
      body: body({
        endpoint_id: Type.Optional(EndpointId),
        event_id: Type.Optional(EventId),
        status: Type.Optional(Type.Enum(['pending', 'delivering', 'delivered', 'failed'])),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_DELIVERIES_LISTED })),
      }),
      response: Type.Object({ items: Type.Array(DeliveryView) }),
      errors: ['webhookEndpointNotFound', 'eventNotFound', 'fieldNotAllowed', 'fieldFormat'],
    }),
    async (request) => {
      const { endpoint_id, event_id, status, limit } = request.body;
      const items = await listOwnDeliveries(ctx, appOf(request), {
        ...(endpoint_id === undefined ? {} : { endpointId: endpoint_id }),
        ...(event_id === undefined ? {} : { eventId: event_id }),
        ...(status === undefined ? {} : { status }),
        ...(limit === undefined ? {} : { limit }),
      });
      return success(request, { items });
    },
  );

  app.post(
    PATHS.webhookRedeliver,
    operation({
      operationId: 'redeliverWebhookEvent',
      summary: 'Send an event again',
      description:
        'To one endpoint, or to every active endpoint that takes its type. Same event id: a receiver that has it already drops the copy. The retry window starts anew.',
      body: body({ event_id: EventId, endpoint_id: Type.Optional(EndpointId) }),
      response: Redelivery,
      errors: ['eventNotFound', 'webhookEndpointNotFound', 'webhookEndpointDisabled'],
    }),
    async (request) => {
      const { event_id, endpoint_id } = request.body;
      return success(request, await redeliverOwnEvent(ctx, appOf(request), event_id, endpoint_id));
    },
  );
}

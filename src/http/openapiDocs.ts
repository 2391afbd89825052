import type { FastifySchema } from 'fastify';
import { AMENDED_EVENT, STATUSES, eventTypeFor, type Status } from '../applications/lifecycle.ts';
import { defaultCodeTables, TABLE_NAMES, type TableName } from '../codes/tables.ts';
import { signature } from '../webhooks/signing.ts';
import { EventView } from './routes/eventRoutes.ts';
import { EXAMPLE_APPLICANT } from '../applications/exampleApplicant.ts';

/**
 * What the OpenAPI document needs besides the route schemas: the servers, a complete request and
 * response example per caller operation (keyed by operationId, added by `withExamples`, the
 * swagger `transform`), and the `webhooks` section describing the event deliveries. The examples
 * are real: a test sends every request example to the service and expects `code: 0`.
 */

export const SERVERS = [{ url: '/', description: 'The service that serves this document.' }];

/** The groups of the reference at /docs, in reading order. */
export const TAGS = [
  { name: 'auth', description: 'Exchange the app secret for an access token.' },
  {
    name: 'applications',
    description: 'Submit, check, read, list and cancel card applications.',
  },
  { name: 'codes', description: 'The code tables the submit checks against.' },
  { name: 'events', description: "The caller's events: the webhook bodies, as a list to reconcile with." },
  { name: 'sandbox', description: 'Only with SANDBOX=true: drive an application through its lifecycle.' },
  {
    name: 'webhooks',
    description:
      "What the service sends to an app's webhook endpoints, signed as Standard Webhooks specifies (the `webhooks` section), and the admin routes that register endpoints and redeliver events.",
  },
  {
    name: 'admin',
    description: "The issuer's back office: operators review and move applications, manage apps.",
  },
];

const APP_ID = 'app_cfebff6333dfa2a4';
const TIMESTAMP = 1795000000;
const SERIAL = '01M7Q5CQG03QZV91NCTJX2D43J5KC6E8';
const EXTERNAL_ID = 'ORD-2026-000123';
const CARD_MASKED = '539966******4242';
const ok = <T>(data: T) => ({ code: 0, data, msg: 'success' });

/** A complete, valid application (the applicant of the README walk-through). */
export const SUBMIT_EXAMPLE = {
  app_id: APP_ID,
  timestamp: TIMESTAMP,
  ...EXAMPLE_APPLICANT,
  external_id: EXTERNAL_ID,
};

const SUBMITTED_AT = TIMESTAMP;
const CANCELLED_AT = TIMESTAMP + 600;

const submittedView = {
  busi_water_no: SERIAL,
  external_id: EXTERNAL_ID,
  status: 'SUBMITTED',
  status_reason: null,
  reason_codes: [],
  requested_fields: [],
  card_no_masked: CARD_MASKED,
  created_at: SUBMITTED_AT,
  updated_at: SUBMITTED_AT,
  history: [{ status: 'SUBMITTED', at: SUBMITTED_AT, reason: null, reason_codes: [] }],
};

const CANCEL_REASON = 'The customer withdrew the application.';

const cancelledView = {
  ...submittedView,
  status: 'CANCELLED',
  status_reason: CANCEL_REASON,
  updated_at: CANCELLED_AT,
  history: [
    ...submittedView.history,
    { status: 'CANCELLED', at: CANCELLED_AT, reason: CANCEL_REASON, reason_codes: [] },
  ],
};

/** Where each event's application came from, and its place in that application's sequence. */
const PATH_TO: Record<Status, { previous: Status | null; sequence: number }> = {
  SUBMITTED: { previous: null, sequence: 1 },
  IN_REVIEW: { previous: 'SUBMITTED', sequence: 2 },
  APPROVED: { previous: 'IN_REVIEW', sequence: 3 },
  CARD_ISSUED: { previous: 'APPROVED', sequence: 4 },
  SHIPPED: { previous: 'CARD_ISSUED', sequence: 5 },
  DELIVERED: { previous: 'SHIPPED', sequence: 6 },
  REJECTED: { previous: 'IN_REVIEW', sequence: 3 },
  CANCELLED: { previous: 'SUBMITTED', sequence: 2 },
  SUPPLEMENT_REQUIRED: { previous: 'IN_REVIEW', sequence: 3 },
  EXPIRED: { previous: 'SUPPLEMENT_REQUIRED', sequence: 4 },
  RETURNED: { previous: 'SHIPPED', sequence: 6 },
};

const REASONS: Partial<Record<Status, string>> = {
  REJECTED: 'The identity document is illegible.',
  CANCELLED: CANCEL_REASON,
};

/** The body of a webhook, and an item of the events list. */
export function eventExample(status: Status) {
  const { previous, sequence } = PATH_TO[status];
  return {
    id: `evt_4f1d2c3b4a5968778695a4b3c2d1e0${String(sequence).padStart(2, '0')}`,
    type: eventTypeFor(status),
    created_at: SUBMITTED_AT + (sequence - 1) * 60,
    data: {
      busi_water_no: SERIAL,
      sequence,
      status,
      previous_status: previous,
      reason: REASONS[status] ?? null,
      reason_codes: status === 'REJECTED' ? ['document_unreadable'] : [],
      card_no_masked: CARD_MASKED,
      external_id: EXTERNAL_ID,
    },
  };
}

interface OperationExample {
  request: Record<string, unknown>;
  response: unknown;
}

const ENDPOINT_ID = 'we_5c0ffee5c0ffee5c0ffe';
const endpointExample = {
  id: ENDPOINT_ID,
  app_id: APP_ID,
  url: 'https://hooks.partner.example/cardapply',
  events: null,
  status: 'active',
  failing_since: null,
  disabled_reason: null,
  created_at: SUBMITTED_AT,
  updated_at: SUBMITTED_AT,
  secrets: [{ id: 'ws_0a1b2c3d4e5f60718293', created_at: SUBMITTED_AT, expires_at: null }],
};
const createdEndpointExample = { ...endpointExample, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' };
const webhookRequest = (extra: Record<string, unknown> = {}) => ({
  app_id: APP_ID,
  timestamp: TIMESTAMP,
  ...extra,
});

/** Examples of the caller's webhook self-service, by operationId. */
const WEBHOOK_EXAMPLES: Record<string, OperationExample> = {
  registerWebhook: {
    request: webhookRequest({ url: endpointExample.url }),
    response: ok(createdEndpointExample),
  },
  listWebhooks: { request: webhookRequest(), response: ok({ items: [endpointExample] }) },
  showWebhook: { request: webhookRequest({ endpoint_id: ENDPOINT_ID }), response: ok(endpointExample) },
  rotateWebhookSecret: {
    request: webhookRequest({ endpoint_id: ENDPOINT_ID, overlap_seconds: 86_400 }),
    response: ok({
      ...createdEndpointExample,
      secret: 'whsec_2xZq7vYb0cNf4HkD1tR9sLpW3mJe6GaU',
      secrets: [
        { id: 'ws_9f8e7d6c5b4a39281706', created_at: SUBMITTED_AT + 600, expires_at: null },
        { id: 'ws_0a1b2c3d4e5f60718293', created_at: SUBMITTED_AT, expires_at: SUBMITTED_AT + 600 + 86_400 },
      ],
    }),
  },
  disableWebhook: {
    request: webhookRequest({ endpoint_id: ENDPOINT_ID }),
    response: ok({ ...endpointExample, status: 'disabled' }),
  },
  enableWebhook: { request: webhookRequest({ endpoint_id: ENDPOINT_ID }), response: ok(endpointExample) },
  deleteWebhook: {
    request: webhookRequest({ endpoint_id: ENDPOINT_ID }),
    response: ok({ id: ENDPOINT_ID, deleted: true }),
  },
  testWebhook: {
    request: webhookRequest({ endpoint_id: ENDPOINT_ID }),
    response: ok({
      event_id: 'evt_test_6d1f0a9b8c7e6d5f4a3b2c1d',
      delivered: true,
      status_code: 204,
      error: null,
      duration_ms: 87,
    }),
  },
  listWebhookDeliveries: {
    request: webhookRequest({ endpoint_id: ENDPOINT_ID, status: 'failed', limit: 20 }),
    response: ok({
      items: [
        {
          id: 'dl_3e2d1c0b9a8f7e6d5c4b',
          event_id: eventExample('SUBMITTED').id,
          event_type: 'application.submitted',
          endpoint_id: ENDPOINT_ID,
          status: 'failed',
          attempt_count: 12,
          next_attempt_at: null,
          give_up_at: SUBMITTED_AT + 86_400,
          leased_by: null,
          last_status_code: 500,
          last_error: 'HTTP 500',
          delivered_at: null,
          created_at: SUBMITTED_AT,
          attempts: [
            {
              started_at_ms: SUBMITTED_AT * 1000 + 120,
              duration_ms: 45,
              status_code: 500,
              error: 'HTTP 500',
              worker: 'host-1:4242:ab12',
            },
          ],
        },
      ],
    }),
  },
  redeliverWebhookEvent: {
    request: webhookRequest({ event_id: eventExample('SUBMITTED').id, endpoint_id: ENDPOINT_ID }),
    response: ok({ queued: 1, in_flight: 0 }),
  },
};

/** One request and one success response per caller operation, by operationId. */
export const OPERATION_EXAMPLES: Record<string, OperationExample> = {
  exchangeToken: {
    request: {
      app_id: APP_ID,
      app_secret: 'sk_K_vZArJZX6zJxU-qln4M4Yan4taA4HavHxqkka0OB9E',
      timestamp: TIMESTAMP,
    },
    response: ok({
      access_token: 'at_Vq3mJ0cX9bq1hY8rW2nT5kLzP4sD7fG6aE1uC0oI9yQ',
      token_type: 'Bearer',
      expires_in: 7200,
    }),
  },
  submitApplication: { request: SUBMIT_EXAMPLE, response: ok({ busi_water_no: SERIAL }) },
  validateApplication: { request: SUBMIT_EXAMPLE, response: ok({ valid: true }) },
  queryApplication: {
    request: { app_id: APP_ID, timestamp: TIMESTAMP, busi_water_no: SERIAL },
    response: ok(submittedView),
  },
  listApplications: {
    request: { app_id: APP_ID, timestamp: TIMESTAMP, status: 'SUBMITTED', limit: 20 },
    response: ok({ items: [submittedView], next_cursor: null }),
  },
  cancelApplication: {
    request: { app_id: APP_ID, timestamp: TIMESTAMP, busi_water_no: SERIAL, reason: CANCEL_REASON },
    response: ok(cancelledView),
  },
  simulateTransition: {
    request: { app_id: APP_ID, timestamp: TIMESTAMP, busi_water_no: SERIAL, status: 'IN_REVIEW' },
    response: ok({
      ...submittedView,
      status: 'IN_REVIEW',
      updated_at: SUBMITTED_AT + 60,
      history: [
        ...submittedView.history,
        { status: 'IN_REVIEW', at: SUBMITTED_AT + 60, reason: null, reason_codes: [] },
      ],
    }),
  },
  amendApplication: {
    request: {
      app_id: APP_ID,
      timestamp: TIMESTAMP,
      busi_water_no: SERIAL,
      id_card_img: 'https://img.example.com/a/id-front-retaken.jpg',
    },
    response: ok({
      ...submittedView,
      status: 'IN_REVIEW',
      updated_at: SUBMITTED_AT + 3600,
      history: [
        ...submittedView.history,
        { status: 'IN_REVIEW', at: SUBMITTED_AT + 60, reason: null, reason_codes: [] },
        {
          status: 'SUPPLEMENT_REQUIRED',
          at: SUBMITTED_AT + 120,
          reason: 'The front image is blurred.',
          reason_codes: ['document_unreadable'],
          requested_fields: ['id_card_img'],
        },
        {
          status: 'IN_REVIEW',
          at: SUBMITTED_AT + 3600,
          reason: null,
          reason_codes: [],
          amended_fields: ['id_card_img'],
          changed_fields: ['id_card_img'],
        },
      ],
    }),
  },
  listCodes: {
    request: { app_id: APP_ID, timestamp: TIMESTAMP },
    response: ok(codeTablesExample()),
  },
  listEvents: {
    request: { app_id: APP_ID, timestamp: TIMESTAMP, busi_water_no: SERIAL, limit: 20 },
    response: ok({ items: [eventExample('SUBMITTED'), eventExample('CANCELLED')], next_cursor: null }),
  },
  ...WEBHOOK_EXAMPLES,
};

/** The default entries of the codes the submit example uses. */
function codeTablesExample() {
  const tables = defaultCodeTables().tables;
  const used: Record<TableName, string[]> = {
    country: [SUBMIT_EXAMPLE.country],
    position: [SUBMIT_EXAMPLE.position],
    profession: [SUBMIT_EXAMPLE.profession],
    purpose: SUBMIT_EXAMPLE.purpose,
    wealth_source: SUBMIT_EXAMPLE.wealth_source,
    reason: ['document_unreadable', 'other'],
  };
  return Object.fromEntries(
    TABLE_NAMES.map((name) => [name, tables[name].filter((entry) => used[name].includes(entry.code))]),
  );
}

type RouteSchema = FastifySchema & { operationId?: string; response?: Record<string, unknown> };

/**
 * The swagger `transform`: adds the operation's examples to a copy of its schema (the route's own
 * schema, which also validates, is left as it is). A top-level `examples` becomes the media
 * type's example in the document.
 */
export function withExamples({ schema, url }: { schema: FastifySchema; url: string }): {
  schema: FastifySchema;
  url: string;
} {
  const route = schema as RouteSchema | undefined;
  const example = route?.operationId === undefined ? undefined : OPERATION_EXAMPLES[route.operationId];
  if (route === undefined || example === undefined) return { schema, url };
  const ok200 = route.response?.['200'] ?? route.response?.[200];
  return {
    url,
    schema: {
      ...route,
      body: route.body === undefined ? undefined : { ...route.body, examples: [example.request] },
      response:
        ok200 === undefined
          ? route.response
          : { ...route.response, 200: { ...(ok200 as object), examples: [example.response] } },
    },
  };
}

/**
 * The headers of the submitted event's example, really signed with the example secret
 * `whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw`, so that a verifier can be tried on them.
 */
const EXAMPLE_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const signedExample = (() => {
  const event = eventExample('SUBMITTED');
  const timestamp = event.created_at + 1;
  return {
    id: event.id,
    timestamp: String(timestamp),
    signature: signature(EXAMPLE_SECRET, event.id, timestamp, JSON.stringify(event)),
  };
})();

const WEBHOOK_HEADERS = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description:
      'The event id (`evt_...`), the same on every retry of one event: process each id once (deliveries are at least once).',
    schema: { type: 'string' as const, examples: [signedExample.id] },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description:
      'Unix seconds when this attempt was signed. Refuse messages more than a few minutes from your clock (replays).',
    schema: { type: 'string' as const, pattern: '^[0-9]+$', examples: [signedExample.timestamp] },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Space-separated `v1,<base64>` signatures: HMAC-SHA256, keyed with the base64-decoded part of the endpoint secret after `whsec_`, of `${webhook-id}.${webhook-timestamp}.${raw body}`. During a secret rotation there is one per secret; accept the message when any one matches. Compute it over the raw bytes received: a body parsed and serialised again will not verify.',
    schema: { type: 'string' as const, examples: [signedExample.signature] },
  },
];

const WEBHOOK_DESCRIPTION = (status: string) =>
  `Sent to every webhook endpoint registered for the app (\`npx cardapply webhooks add\`) when one of its applications ${status === 'SUBMITTED' ? 'is submitted' : status === AMENDED_EVENT ? 'is amended by the caller after a request for information' : `moves to ${status}`}. The body is the same object as an item of the events list (\`POST /mc-platformapi/v1/open/et/vs/card/events/list\`). Signed as Standard Webhooks specifies (see the headers). Delivered at least once: answer 2xx quickly (within the delivery time-out, 10 s by default); anything else, a time-out or a refused connection is retried with exponential backoff for at least a day. Deliveries of one application may arrive out of order: order them by \`data.sequence\`.`;

/** The body of an `application.amended` webhook. */
function amendedExample() {
  const base = eventExample('IN_REVIEW');
  return {
    ...base,
    id: 'evt_4f1d2c3b4a5968778695a4b3c2d1e0a4',
    type: AMENDED_EVENT,
    created_at: SUBMITTED_AT + 3600,
    data: {
      ...base.data,
      sequence: 4,
      previous_status: 'SUPPLEMENT_REQUIRED',
      amended_fields: ['id_card_img'],
      changed_fields: ['id_card_img'],
    },
  };
}

/** The `webhooks` section (OpenAPI 3.1): one entry per event type, all with the same body. */
export function webhooksSection() {
  return Object.fromEntries(
    [...STATUSES, AMENDED_EVENT].map((status) => {
      const amended = status === AMENDED_EVENT;
      const type = amended ? AMENDED_EVENT : eventTypeFor(status as Status);
      const operation = {
        operationId: `${type.replace(/[._](\w)/g, (_, c: string) => c.toUpperCase())}Webhook`,
        summary: `${type}: ${amended ? 'the caller amended an application (back to IN_REVIEW)' : status === 'SUBMITTED' ? 'an application was submitted' : `an application moved to ${status}`}`,
        description: WEBHOOK_DESCRIPTION(status),
        tags: ['webhooks'],
        security: [],
        parameters: WEBHOOK_HEADERS,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/WebhookEvent' },
              example: amended ? amendedExample() : eventExample(status as Status),
            },
          },
        },
        responses: {
          '200': { description: 'Any 2xx status acknowledges the delivery; the body is ignored.' },
          '500': { description: 'Any other answer, or none within the time-out: the delivery is retried.' },
        },
      };
      return [type, { post: operation }];
    }),
  );
}

/** Shared schemas of the document: the webhook body. */
export const DOCUMENT_SCHEMAS = {
  WebhookEvent: { ...EventView, description: 'A webhook body: one state change of an application.' },
};

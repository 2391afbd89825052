import type { FastifySchema } from 'fastify';
import {
  AMENDED_EVENT,
  DOCUMENT_EVENT_TYPES,
  STATUSES,
  eventTypeFor,
  type Status,
} from '../record/lifecycle.ts';
import { signature } from '../crypto/webhookSignature.ts';
import { amendedExample, documentsExample, eventExample, OPERATION_EXAMPLES } from './openapiExamples.ts';
import { SUBJECT_REQUEST_EXAMPLES, subjectRequestExample } from './subjectRequestExamples.ts';
import {
  isSubjectRequestEventType,
  SUBJECT_REQUEST_EVENT_TYPES,
  type SubjectRequestEventType,
} from '../events/subjectRequestPayload.ts';
import { EventView } from '../applications/views/eventView.ts';

/**
 * What the OpenAPI document needs besides the route schemas: the servers, the tags, the swagger
 * `transform` that adds each partner operation's examples (openapiExamples.ts), and the `webhooks`
 * section describing the event deliveries.
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
  { name: 'events', description: "The partner's events: the webhook bodies, as a list to reconcile with." },
  {
    name: 'subject_requests',
    description:
      "An applicant's rights through the partner (PIPL articles 45 to 47): forward a request for access, a portable copy, correction or deletion, and follow it to its end (docs/PRIVACY.md).",
  },
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

type RouteSchema = FastifySchema & { operationId?: string; response?: Record<string, unknown> };

/** A 200 given as a schema takes `examples`; one given with its `content` (a file) takes each media type's `example`. */
function withResponseExample(ok200: object, example: unknown): object {
  const { content } = ok200 as { content?: Record<string, object> };
  if (content === undefined) return { ...ok200, examples: [example] };
  const typed = Object.entries(content).map(([type, media]) => [type, { ...media, example }]);
  return { ...ok200, content: Object.fromEntries(typed) };
}

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
  const id = route?.operationId;
  const example = id === undefined ? undefined : (OPERATION_EXAMPLES[id] ?? SUBJECT_REQUEST_EXAMPLES[id]);
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
          : { ...route.response, 200: withResponseExample(ok200 as object, example.response) },
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

/** What happened, in words, per event type (a move, the amendment, or the documents). */
function webhookEvent(
  status: Status | typeof AMENDED_EVENT | (typeof DOCUMENT_EVENT_TYPES)[number] | SubjectRequestEventType,
): {
  type: string;
  summary: string;
  what: string;
  example: unknown;
} {
  if (isSubjectRequestEventType(status)) {
    const end = status.slice('subject_request.'.length);
    return {
      type: status,
      summary: `an applicant's request through the partner ended ${end}`,
      what: `is named by an applicant's request (access, portability, correction, deletion; docs/PRIVACY.md) that ends \`${end}\`${
        end === 'restricted'
          ? ' (a deletion kept under anti-money-laundering record keeping until `data.subject_request.restricted_until`, then erased)'
          : end === 'refused'
            ? ' (with `reason_code` and `reason`)'
            : ''
      }: \`data.subject_request\` is the request as its query answers it`,
      example: subjectRequestExample(status),
    };
  }
  if (status === AMENDED_EVENT) {
    return {
      type: AMENDED_EVENT,
      summary: 'the partner amended an application (back to IN_REVIEW)',
      what: 'is amended by the partner after a request for information',
      example: amendedExample(),
    };
  }
  if (status === 'application.documents_kept' || status === 'application.document_failed') {
    const kept = status === 'application.documents_kept';
    return {
      type: status,
      summary: kept
        ? 'every image of an application was fetched, checked and kept'
        : 'an image of an application failed for good (its reason in `data.documents`)',
      what: kept
        ? 'has every image it carries kept by the service (type, size and SHA-256 in `data.documents`; no state change)'
        : 'has an image that could not be kept (`unreachable` after DOCUMENT_FETCH_HOURS, `not_a_document`, `truncated`, `too_large`, `too_small` or `refused_address`; no state change)',
      example: documentsExample(status),
    };
  }
  return {
    type: eventTypeFor(status),
    summary: status === 'SUBMITTED' ? 'an application was submitted' : `an application moved to ${status}`,
    what: status === 'SUBMITTED' ? 'is submitted' : `moves to ${status}`,
    example: eventExample(status),
  };
}

const WEBHOOK_DESCRIPTION = (what: string) =>
  `Sent to every webhook endpoint registered for the app (\`npx cardapply webhooks add\`) when one of its applications ${what}. The body is the same object as an item of the events list (\`POST /mc-platformapi/v1/open/et/vs/card/events/list\`). Signed as Standard Webhooks specifies (see the headers). Delivered at least once: answer 2xx quickly (within the delivery time-out, 10 s by default); anything else, a time-out or a refused connection is retried with exponential backoff for at least a day. Deliveries of one application may arrive out of order: order them by \`data.sequence\`.`;

/** The `webhooks` section (OpenAPI 3.1): one entry per event type, all with the same body. */
export function webhooksSection() {
  return Object.fromEntries(
    ([...STATUSES, AMENDED_EVENT, ...DOCUMENT_EVENT_TYPES, ...SUBJECT_REQUEST_EVENT_TYPES] as const).map(
      (status) => {
        const event = webhookEvent(status);
        const type = event.type;
        const operation = {
          operationId: `${type.replace(/[._](\w)/g, (_, c: string) => c.toUpperCase())}Webhook`,
          summary: `${type}: ${event.summary}`,
          description: WEBHOOK_DESCRIPTION(event.what),
          tags: ['webhooks'],
          security: [],
          parameters: WEBHOOK_HEADERS,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { $ref: '#/components/schemas/WebhookEvent' },
                example: event.example,
              },
            },
          },
          responses: {
            '200': { description: 'Any 2xx status acknowledges the delivery; the body is ignored.' },
            '500': { description: 'Any other answer, or none within the time-out: the delivery is retried.' },
          },
        };
        return [type, { post: operation }];
      },
    ),
  );
}

/** Shared schemas of the document: the webhook body. */
export const DOCUMENT_SCHEMAS = {
  WebhookEvent: {
    ...EventView,
    description: "A webhook body: one state change of an application, or the end of an applicant's request.",
  },
};

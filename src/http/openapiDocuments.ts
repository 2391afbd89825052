import { SERVICE_NAME } from './docsPage.ts';

/**
 * Two OpenAPI documents out of the one the routes describe: the partner API (`/openapi.json`, what a
 * partner generates its client from) and the admin API (`/admin/openapi.json`, for operators). Each
 * keeps only its own paths, tags and security schemes, and every error response refers to one
 * shared `ErrorEnvelope` component (its codes listed in the response's description and as the
 * enum of its `code`, one example beside it) instead of repeating the envelope per status and route.
 */

type Json = Record<string, unknown>;

const ADMIN = '/admin/';

/** The envelope of every error answer, shared by all operations of a document. */
const ERROR_ENVELOPE = {
  type: 'object',
  required: ['code', 'data', 'msg'],
  properties: {
    code: { type: 'integer', description: 'HTTP status × 100 + detail, from the error catalogue.' },
    data: {
      description: 'For field validation, `errors` lists every problem; some errors carry other details.',
      anyOf: [
        { type: 'null' },
        {
          type: 'object',
          additionalProperties: true,
          properties: { errors: { type: 'array', items: { $ref: '#/components/schemas/FieldError' } } },
        },
      ],
    },
    msg: {
      type: 'string',
      description: 'Names the field and the rule; English, or Chinese with Accept-Language: zh.',
    },
  },
  description: 'Every error answer: `code` names the error (see the response descriptions), `msg` says it.',
};

const FIELD_ERROR = {
  type: 'object',
  required: ['field', 'code', 'message'],
  properties: {
    field: {
      type: 'string',
      description: 'The field, as a path: `cert_id`, `other_field[0].name`, or `body`.',
    },
    code: { type: 'integer', description: 'The rule that was broken, from the error catalogue.' },
    message: { type: 'string' },
  },
};

/** Error responses refer to the shared envelope; their own example stays beside the reference. */
function shareErrorEnvelope(operation: Json): Json {
  const responses = operation['responses'] as Record<string, Json> | undefined;
  if (responses === undefined) return operation;
  const shared: Record<string, Json> = {};
  for (const [status, response] of Object.entries(responses)) {
    const content = response['content'] as Record<string, Json> | undefined;
    const media = content?.['application/json'];
    if (status.startsWith('2') || media === undefined) {
      shared[status] = response;
      continue;
    }
    const schema = media['schema'] as Json | undefined;
    const example = (schema?.['examples'] as unknown[] | undefined)?.[0] ?? media['example'];
    const code = ((schema?.['properties'] as Json | undefined)?.['code'] as Json | undefined)?.['enum'];
    shared[status] = {
      ...response,
      content: {
        'application/json': {
          // The shared envelope, its `code` one of this response's codes.
          schema:
            code === undefined
              ? { $ref: '#/components/schemas/ErrorEnvelope' }
              : {
                  allOf: [
                    { $ref: '#/components/schemas/ErrorEnvelope' },
                    { type: 'object', properties: { code: { enum: code } } },
                  ],
                },
          ...(example === undefined ? {} : { example }),
        },
      },
    };
  }
  return { ...operation, responses: shared };
}

/** The token is the security scheme's business: never also a header parameter. */
function withoutAuthorizationParameter(operation: Json): Json {
  const parameters = operation['parameters'] as Json[] | undefined;
  if (parameters === undefined) return operation;
  const kept = parameters.filter(
    (p) => !(p['in'] === 'header' && String(p['name']).toLowerCase() === 'authorization'),
  );
  const { parameters: _dropped, ...rest } = operation;
  return kept.length === 0 ? rest : { ...rest, parameters: kept };
}

function pathsOf(full: Json, keep: (path: string) => boolean): Json {
  const paths: Json = {};
  for (const [path, item] of Object.entries(full['paths'] as Record<string, Json>)) {
    if (!keep(path)) continue;
    paths[path] = Object.fromEntries(
      Object.entries(item).map(([method, operation]) => [
        method,
        shareErrorEnvelope(withoutAuthorizationParameter(operation as Json)),
      ]),
    );
  }
  return paths;
}

function usedTags(paths: Json, extra: readonly string[]): Set<string> {
  const used = new Set(extra);
  for (const item of Object.values(paths) as Json[]) {
    for (const operation of Object.values(item) as Json[]) {
      for (const tag of (operation['tags'] as string[] | undefined) ?? []) used.add(tag);
    }
  }
  return used;
}

function document(
  full: Json,
  options: {
    title: string;
    description: string;
    keep: (path: string) => boolean;
    schemes: readonly string[];
    security: Json[];
    webhooks: boolean;
  },
): Json {
  const paths = pathsOf(full, options.keep);
  const tags = usedTags(paths, options.webhooks ? ['webhooks'] : []);
  const components = full['components'] as Json;
  const schemes = components['securitySchemes'] as Json;
  const schemas = { ...((components['schemas'] as Json | undefined) ?? {}) };
  if (!options.webhooks) delete schemas['WebhookEvent'];
  return {
    openapi: full['openapi'],
    info: { ...(full['info'] as Json), title: options.title, description: options.description },
    servers: full['servers'],
    tags: (full['tags'] as Json[]).filter((tag) => tags.has(String(tag['name']))),
    paths,
    ...(options.webhooks ? { webhooks: full['webhooks'] } : {}),
    components: {
      schemas: { ...schemas, ErrorEnvelope: ERROR_ENVELOPE, FieldError: FIELD_ERROR },
      securitySchemes: Object.fromEntries(options.schemes.map((name) => [name, schemes[name]])),
    },
    security: options.security,
  };
}

export function partnerDocument(full: Json): Json {
  return document(full, {
    title: `${SERVICE_NAME}: partner API`,
    description:
      'Partner platforms submit applications for payment-network cards, follow them through review, issuance and delivery, answer requests for more information, and manage their own webhook endpoints. Every response is the envelope `{code, data, msg}`; `code` 0 is success, otherwise HTTP status × 100 + detail (the `ErrorEnvelope` component; each response lists its codes).',
    keep: (path) => !path.startsWith(ADMIN),
    schemes: ['accessToken'],
    security: [{ accessToken: [] }],
    webhooks: true,
  });
}

export function adminDocument(full: Json): Json {
  return document(full, {
    title: `${SERVICE_NAME}: admin API`,
    description:
      "The issuer's back office: operators review and move applications, manage apps, operators, webhook endpoints and the audit trail. Every response is the envelope `{code, data, msg}`.",
    keep: (path) => path.startsWith(ADMIN),
    schemes: ['operatorToken', 'operatorCookie'],
    security: [{ operatorToken: [] }, { operatorCookie: [] }],
    webhooks: false,
  });
}

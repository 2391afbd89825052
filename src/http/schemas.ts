import { Type, type TSchema } from 'typebox';
import { ERRORS, renderMessage, type ErrorName } from '../errors/catalogue.ts';

/** Response shapes for the OpenAPI document (and fast serialisation of successes). */

export function SuccessEnvelope<T extends TSchema>(data: T) {
  return Type.Object(
    {
      code: Type.Literal(0, { description: '0 means success.' }),
      data,
      msg: Type.String({ description: 'A success text.', examples: ['success'] }),
    },
    { description: 'Success: `code` is 0 and `data` holds the result.' },
  );
}

const FieldError = Type.Object({
  field: Type.String({ description: 'The field, as a path: `cert_id`, `other_field[0].name`, or `body`.' }),
  code: Type.Integer({ description: 'The rule that was broken, from the error catalogue.' }),
  message: Type.String(),
});

/** Statuses whose answer says when to try again (the client honours it). */
const RETRY_AFTER: Record<number, string> = {
  429: 'Seconds to wait before the next request.',
  503: 'Seconds to wait before retrying.',
};

/** An example answer for the first code of a status, its message rendered with sample values. */
function errorExample(name: ErrorName) {
  const entry = ERRORS[name];
  const msg = renderMessage(entry.en, {
    field: 'cert_id',
    max: 32,
    min: 1,
    retry_after: 1,
    allowed: '00, 02',
  });
  const data =
    entry.status === 422
      ? { errors: [{ field: 'cert_id', code: entry.code, message: msg }] }
      : entry.status === 429
        ? { retry_after: 1 }
        : null;
  return { code: entry.code, data, msg };
}

const ErrorEnvelope = (description: string, first: ErrorName, codes: number[]) =>
  Type.Object(
    {
      code: Type.Integer({
        enum: codes,
        description: 'HTTP status × 100 + detail, from the error catalogue: one of the codes listed.',
      }),
      data: Type.Union(
        [
          Type.Null(),
          Type.Object({ errors: Type.Optional(Type.Array(FieldError)) }, { additionalProperties: true }),
        ],
        {
          description: 'For field validation, `errors` lists every problem; some errors carry other details.',
        },
      ),
      msg: Type.String({
        description: 'Names the field and the rule; English, or Chinese with Accept-Language: zh.',
      }),
    },
    {
      description,
      examples: [errorExample(first)],
      ...(RETRY_AFTER[ERRORS[first].status] === undefined
        ? {}
        : {
            headers: {
              'retry-after': Type.Integer({ minimum: 1, description: RETRY_AFTER[ERRORS[first].status] }),
            },
          }),
    },
  );

/**
 * Errors every partner route can answer with, besides its own (those of the body reader and of the
 * schemas are added to every route by routeErrors.ts).
 */
export const PARTNER_ERRORS: ErrorName[] = [
  'tokenMissing',
  'tokenInvalid',
  'tokenExpired',
  'timestampSkew',
  'appMismatch',
  'appDisabled',
  'rateLimited',
  'concurrencyLimited',
  'fieldRequired',
  'fieldType',
  'fieldUnknown',
  'internal',
  'storeUnavailable',
];

/**
 * One response entry per HTTP status, its description listing the catalogue codes it may carry and
 * its `code` limited to them (so a tool that checks responses against the document sees an
 * undocumented code as a violation).
 */
export function errorResponses(names: readonly ErrorName[]): Record<number, TSchema> {
  const byStatus = new Map<number, { first: ErrorName; lines: string[]; codes: number[] }>();
  for (const name of new Set(names)) {
    const entry = ERRORS[name];
    const group = byStatus.get(entry.status) ?? { first: name, lines: [], codes: [] };
    group.lines.push(`\`${entry.code}\` ${entry.name}: ${entry.en}`);
    group.codes.push(entry.code);
    byStatus.set(entry.status, group);
  }
  const responses: Record<number, TSchema> = {};
  for (const [status, group] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    responses[status] = ErrorEnvelope(group.lines.join('\n\n'), group.first, group.codes);
  }
  return responses;
}

const NAME_OF_CODE = new Map(
  (Object.keys(ERRORS) as ErrorName[]).map((name) => [ERRORS[name].code as number, name]),
);

/** The catalogue errors a route's responses document (what `errorResponses` wrote into them). */
export function documentedErrors(responses: Record<string, unknown>): ErrorName[] {
  const names: ErrorName[] = [];
  for (const [status, response] of Object.entries(responses)) {
    if (status.startsWith('2')) continue;
    const code = (response as { properties?: { code?: { enum?: unknown[] } } }).properties?.code;
    for (const value of code?.enum ?? []) {
      const name = NAME_OF_CODE.get(value as number);
      if (name !== undefined) names.push(name);
    }
  }
  return names;
}

export const AppId = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'Application identifier of the partner.',
});
export const Timestamp = Type.Integer({
  minimum: 0,
  maximum: 99_999_999_999_999,
  description: 'Request time as a Unix timestamp in seconds.',
});

import { Type, type TSchema } from 'typebox';
import { ERRORS, type ErrorName } from '../errors/catalogue.ts';

/** Response shapes for the OpenAPI document (and fast serialisation of successes). */

export function SuccessEnvelope<T extends TSchema>(data: T) {
  return Type.Object({
    code: Type.Literal(0, { description: '0 means success.' }),
    data,
    msg: Type.String({ description: 'A success text.', examples: ['success'] }),
  });
}

const FieldError = Type.Object({
  field: Type.String({ description: 'The field, as a path: `cert_id`, `other_field[0].name`, or `body`.' }),
  code: Type.Integer({ description: 'The rule that was broken, from the error catalogue.' }),
  message: Type.String(),
});

const ErrorEnvelope = (description: string) =>
  Type.Object(
    {
      code: Type.Integer({ description: 'HTTP status × 100 + detail, from the error catalogue.' }),
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
    { description },
  );

/** Errors every caller route can answer with, besides its own. */
export const CALLER_ERRORS: ErrorName[] = [
  'bodyNotJson',
  'bodyNotObject',
  'bodyDuplicateKey',
  'bodyBadEncoding',
  'bodyForbiddenKey',
  'bodyTooDeep',
  'bodyEmpty',
  'tokenMissing',
  'tokenInvalid',
  'tokenExpired',
  'timestampSkew',
  'appMismatch',
  'appDisabled',
  'bodyTooLarge',
  'unsupportedContentType',
  'fieldRequired',
  'fieldType',
  'fieldUnknown',
  'internal',
  'storeUnavailable',
];

/** One response entry per HTTP status, its description listing the catalogue codes it may carry. */
export function errorResponses(names: readonly ErrorName[]): Record<number, TSchema> {
  const byStatus = new Map<number, string[]>();
  for (const name of new Set(names)) {
    const entry = ERRORS[name];
    const lines = byStatus.get(entry.status) ?? [];
    lines.push(`\`${entry.code}\` ${entry.name}: ${entry.en}`);
    byStatus.set(entry.status, lines);
  }
  const responses: Record<number, TSchema> = {};
  for (const [status, lines] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    responses[status] = ErrorEnvelope(lines.join('\n\n'));
  }
  return responses;
}

export const AppId = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'Application identifier of the caller.',
});
export const Timestamp = Type.Integer({
  minimum: 0,
  maximum: 99_999_999_999_999,
  description: 'Request time as a Unix timestamp in seconds.',
});

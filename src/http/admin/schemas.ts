import { OperatorDocumentOutcomes } from '../../documents/documentView.ts';
import { Type, type Static, type TSchema } from 'typebox';
import { STATUSES, type TransitionDetail } from '../../applications/lifecycle.ts';
import { REVEALABLE_FIELDS } from '../../applications/masking.ts';
import { MAX_LIMIT } from '../../applications/listApplications.ts';
import { MAX_REASON_CODES } from '../../applications/reasonCodes.ts';
import { AMENDABLE_FIELDS } from '../../applications/requestedFields.ts';
import { LIMITS } from '../../applications/schema.ts';
import { DETAIL_LIMIT, TRACKING_URL_LIMIT } from '../../applications/transitionApplication.ts';
import type { ErrorName } from '../../errors/catalogue.ts';
import { USERNAME_PATTERN } from '../../operators/operators.ts';
import { MAX_PASSWORD_LENGTH } from '../../operators/passwordPolicy.ts';
import { PURPOSE_TEXT_MAX, REVEAL_PURPOSES } from '../../applications/revealPolicy.ts';
import { ROLES } from '../../access/roles.ts';
import { BODY_ERRORS } from '../routeErrors.ts';
import { errorResponses, SuccessEnvelope } from '../schemas.ts';

/** Request and response shapes of the admin API: validation, types and the OpenAPI document. */

/** Errors every admin route behind `requireOperator` can answer with. */
export const ADMIN_ERRORS: ErrorName[] = [
  'operatorAuthRequired',
  'operatorSessionInvalid',
  'csrfTokenInvalid',
  'forbidden',
  'mfaEnrolmentRequired',
  'fieldRequired',
  'fieldType',
  'fieldUnknown',
  'internal',
  'storeUnavailable',
];

/** Errors of routes with a JSON body (also derived for every route with one: routeErrors.ts). */
export { BODY_ERRORS };

export const adminErrors = (...extra: ErrorName[]) => errorResponses([...ADMIN_ERRORS, ...extra]);
export const adminBodyErrors = (...extra: ErrorName[]) =>
  errorResponses([...ADMIN_ERRORS, ...BODY_ERRORS, ...extra]);

export const ok = <T extends TSchema>(data: T) => ({ 200: SuccessEnvelope(data) });

export const ADMIN_SECURITY: { [name: string]: string[] }[] = [{ operatorToken: [] }, { operatorCookie: [] }];

const nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description === undefined ? {} : { description });

const digits = (description: string, max = 12) => Type.String({ pattern: `^[0-9]{1,${max}}$`, description });

export const SerialParams = Type.Object(
  { busi_water_no: Type.String({ minLength: 1, maxLength: 32, description: 'Application serial number.' }) },
  { additionalProperties: false },
);

export const AppIdParams = Type.Object(
  { app_id: Type.String({ minLength: 1, maxLength: LIMITS.appId }) },
  { additionalProperties: false },
);

export const UsernameParams = Type.Object(
  { username: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

/** A POST that needs nothing beyond the path still sends `{}`: every POST has a JSON body. */
export const EmptyBody = Type.Object({}, { additionalProperties: false });

const Reason = Type.String({
  minLength: 1,
  maxLength: LIMITS.freeText,
  description: 'Why; shown to the caller. Must not contain identity or card numbers.',
});
const Version = Type.Integer({
  minimum: 1,
  maximum: 2_147_483_647,
  description: 'The version last seen; if the application changed since, the move is refused (409).',
});

/** Codes of the `reason` table: checked against the table in force by the domain. */
export const ReasonCodesBody = Type.Array(Type.String({ minLength: 1, maxLength: 32 }), {
  minItems: 1,
  maxItems: MAX_REASON_CODES,
  description: 'Codes of the `reason` table (see the codes endpoint); shown to the caller.',
  examples: [['document_unreadable']],
});

const RequestedFields = Type.Array(Type.Enum([...AMENDABLE_FIELDS]), {
  minItems: 1,
  maxItems: AMENDABLE_FIELDS.length,
  description: 'The fields of the submit the caller is to send again with its amend.',
  examples: [['id_card_img', 'id_card_back_img']],
});

const SHIPMENT_DETAILS = {
  carrier: Type.String({ minLength: 1, maxLength: DETAIL_LIMIT, description: 'Carrier of the shipment.' }),
  tracking_no: Type.String({
    minLength: 1,
    maxLength: DETAIL_LIMIT,
    description: 'Tracking number of the shipment.',
  }),
  tracking_url: Type.String({
    minLength: 1,
    maxLength: TRACKING_URL_LIMIT,
    description: 'A link to follow the shipment (absolute https URL); shown to the caller.',
  }),
};

/** The body of any move, as its handler reads it: which fields a move requires depends on its target. */
export type MoveBody = {
  reason?: Static<typeof Reason>;
  reason_codes?: Static<typeof ReasonCodesBody>;
  version?: Static<typeof Version>;
  requested_fields?: Static<typeof RequestedFields>;
} & { [K in TransitionDetail]?: Static<(typeof SHIPMENT_DETAILS)[K]> };

/**
 * The body of a move: a reason where the lifecycle requires one, reason codes where it requires
 * them, carrier and tracking where it does.
 */
export function transitionBody(
  reasonRequired: boolean,
  detailsRequired: readonly TransitionDetail[],
  codesRequired = false,
  fieldsRequired = false,
  detailsOptional: readonly TransitionDetail[] = [],
) {
  const properties: Record<string, TSchema> = {
    reason: reasonRequired ? Reason : Type.Optional(Reason),
    reason_codes: codesRequired ? ReasonCodesBody : Type.Optional(ReasonCodesBody),
    version: Type.Optional(Version),
  };
  if (fieldsRequired) properties['requested_fields'] = RequestedFields;
  for (const name of detailsOptional) properties[name] = Type.Optional(SHIPMENT_DETAILS[name]);
  for (const name of detailsRequired) properties[name] = SHIPMENT_DETAILS[name];
  return Type.Object(properties, { additionalProperties: false });
}

export const RevealBody = Type.Object(
  {
    field: Type.Enum([...REVEALABLE_FIELDS], {
      description: 'The masked field to show in the clear. Written to the audit trail.',
    }),
    purpose: Type.Enum([...REVEAL_PURPOSES], {
      description: 'Why the value is needed (PCI DSS 3.3); written to the audit trail.',
    }),
    purpose_text: Type.Optional(
      Type.String({
        maxLength: PURPOSE_TEXT_MAX,
        description: 'More about the purpose; required with `other`. Written to the audit trail.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const SearchQuery = Type.Object(
  {
    status: Type.Optional(Type.Enum([...STATUSES])),
    app_id: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.appId })),
    busi_water_no: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
    external_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: "The partner's reference." }),
    ),
    created_from: Type.Optional(digits('Created at or after, Unix seconds.')),
    created_to: Type.Optional(digits('Created at or before, Unix seconds.')),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'From next_cursor.' })),
    limit: Type.Optional(digits(`Page size, 1 to ${MAX_LIMIT}; default 20.`, 3)),
    order: Type.Optional(
      Type.Enum(['asc', 'desc'], { description: 'By creation: oldest first (default) or newest.' }),
    ),
    screening: Type.Optional(
      Type.Enum(['open'], { description: '`open`: only applications a sanctions screening hit holds.' }),
    ),
  },
  { additionalProperties: false },
);

export const AuditQuery = Type.Object(
  {
    actor: Type.Optional(Type.String({ minLength: 1, maxLength: 128, examples: ['operator:alice'] })),
    action: Type.Optional(Type.String({ minLength: 1, maxLength: 64, examples: ['application.reveal'] })),
    target_type: Type.Optional(Type.Enum(['application', 'operator', 'app'])),
    target_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    cursor: Type.Optional(digits('From next_cursor.', 18)),
    limit: Type.Optional(digits(`Page size, 1 to ${MAX_LIMIT}; default 20.`, 3)),
  },
  { additionalProperties: false },
);

export const LoginBody = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 64 }),
    password: Type.String({ minLength: 1, maxLength: MAX_PASSWORD_LENGTH }),
    otp: Type.Optional(
      Type.String({
        pattern: '^[0-9]{6}$',
        description: 'The current code of the authenticator app, once a second factor is enrolled.',
      }),
    ),
    recovery_code: Type.Optional(
      Type.String({
        minLength: 16,
        maxLength: 32,
        description: 'One of the recovery codes, instead of `otp`; each works once.',
      }),
    ),
    cookie: Type.Optional(
      Type.Boolean({ description: 'Also set the session as an HttpOnly cookie (for the web console).' }),
    ),
  },
  { additionalProperties: false },
);

const Role = Type.Enum([...ROLES], {
  description: 'viewer reads; reviewer also moves applications and reveals fields; admin also manages.',
});

export const OperatorBody = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 64, pattern: USERNAME_PATTERN }),
    role: Role,
    password: Type.String({ minLength: 1, maxLength: MAX_PASSWORD_LENGTH }),
  },
  { additionalProperties: false },
);
export const RoleBody = Type.Object({ role: Role }, { additionalProperties: false });
export const PasswordBody = Type.Object(
  { password: Type.String({ minLength: 1, maxLength: MAX_PASSWORD_LENGTH }) },
  { additionalProperties: false },
);
export const AppBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 128, description: 'Display name of the partner.' }) },
  { additionalProperties: false },
);

// Responses.

export const OperatorView = Type.Object({
  username: Type.String(),
  role: Type.String(),
  disabled: Type.Boolean(),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
});

export const SecondFactorState = Type.Union(
  [Type.Literal('none'), Type.Literal('pending'), Type.Literal('active')],
  {
    description:
      '`none`; `pending`: enrolment started, not yet confirmed with a code; `active`: asked at every sign-in.',
  },
);

export const OperatorListItem = Type.Object({
  ...OperatorView.properties,
  second_factor: SecondFactorState,
});

export const LoginResponse = Type.Object({
  token: Type.String({ description: 'Opaque session token for `Authorization: Bearer`.' }),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'Longest lifetime in seconds, however busy the session is.' }),
  idle_timeout: Type.Integer({ description: 'The session ends after this many seconds without a request.' }),
  csrf_token: Type.String({
    description: 'Send as `x-csrf-token` with every cookie-authenticated request that changes something.',
  }),
  mfa_enrolment_required: Type.Boolean({
    description:
      'True when a second factor is required and the operator has none yet: the session may only enrol one (`POST /admin/v1/mfa/enrol`, then `/mfa/confirm`).',
  }),
  operator: Type.Object({ username: Type.String(), role: Type.String() }),
});

export const MeResponse = Type.Object({
  username: Type.String(),
  role: Type.String(),
  via: Type.String({ description: '`bearer` or `cookie`.' }),
});

const summaryProperties = {
  busi_water_no: Type.String(),
  external_id: nullable(Type.String(), "The partner's own reference, or null."),
  app_id: Type.String(),
  status: Type.String(),
  status_reason: nullable(Type.String()),
  reason_codes: Type.Array(Type.String(), { description: 'Codes of the `reason` table of the last change.' }),
  requested_fields: Type.Array(Type.String(), {
    description: 'While SUPPLEMENT_REQUIRED: the fields the caller is to send again.',
  }),
  cert_type: Type.String(),
  card_no_masked: Type.String(),
  version: Type.Integer({ description: 'Send it back with a move to refuse it if anything changed.' }),
  created_at: Type.Integer({ description: 'Unix seconds.' }),
  updated_at: Type.Integer({ description: 'Unix seconds.' }),
};

export const ApplicationSummary = Type.Object(summaryProperties);

export const ApplicationPage = Type.Object({
  items: Type.Array(
    Type.Object({
      ...summaryProperties,
      app_name: Type.Optional(nullable(Type.String(), "The partner's name.")),
      name_masked: Type.Optional(
        nullable(Type.String(), "The applicant's name, masked (a surname and stars)."),
      ),
      claimed_by: Type.Optional(nullable(Type.String(), 'Who holds it for review, while a claim lasts.')),
    }),
  ),
  next_cursor: nullable(Type.String(), 'Pass as cursor for the next page; null on the last page.'),
});

const nullableText = Type.Union([Type.String(), Type.Null()]);
const nullableTime = Type.Union([Type.Integer(), Type.Null()]);
const ScreeningHitSchema = Type.Object({
  id: Type.String(),
  list: Type.String(),
  version_id: Type.String(),
  reference: Type.String({ description: "The list's own reference of the entry." }),
  matched_name: Type.String({
    description: "The listed name or alias that matched; masked for a viewer, as the entry's names are.",
  }),
  matched_kind: Type.String({ description: '`primary`, `alias`, `original_script` or `document`.' }),
  fields: Type.Array(Type.String(), { description: "The application's fields that matched." }),
  score: Type.Number(),
  state: Type.String({ enum: ['unresolved', 'clearing', 'cleared', 'confirmed'] }),
  after_delivery: Type.Boolean(),
  resolved_by: nullableText,
  resolution_note: nullable(
    Type.String(),
    "The clearing operator's note; null for a viewer (it may quote the listed person, whose name is near the applicant's).",
  ),
  resolved_at: nullableTime,
  confirmed_by: nullableText,
  confirmed_at: nullableTime,
  created_at: Type.Integer(),
  entry: Type.Union([
    Type.Object({
      names: Type.Array(Type.Object({ text: Type.String(), kind: Type.String(), weak: Type.Boolean() })),
      birth_dates: Type.Array(Type.String()),
      nationalities: Type.Array(Type.String()),
      documents: Type.Array(Type.Object({ type: Type.String(), country: nullableText })),
    }),
    Type.Null(),
  ]),
});

export const OperatorApplicationView = Type.Object({
  ...summaryProperties,
  application: Type.Object(
    {},
    {
      additionalProperties: true,
      description: 'The submitted fields; identity fields masked, pay_pwd never shown.',
    },
  ),
  history: Type.Array(
    Type.Object({
      from_status: nullable(Type.String()),
      status: Type.String(),
      actor: Type.String({ description: '`caller:<app_id>`, `operator:<username>` or `system`.' }),
      reason: nullable(Type.String()),
      reason_codes: Type.Array(Type.String()),
      details: nullable(Type.Object({}, { additionalProperties: true })),
      at: Type.Integer(),
    }),
  ),
  documents: OperatorDocumentOutcomes,
  risk_flags: Type.Array(
    Type.Object({
      code: Type.String({ description: 'A soft signal for the reviewer, e.g. `document_expiring`.' }),
      fields: Type.Array(Type.String(), { description: 'The fields it concerns.' }),
      params: Type.Record(Type.String(), Type.Union([Type.Number(), Type.String()]), {
        description: 'Days, years, counts; `document_reused`: the other serial.',
      }),
      details: Type.Optional(
        Type.Record(Type.String(), Type.String(), {
          description: "List data a flag found: a sanctions hit's hit_id, list, reference, matched_name.",
        }),
      ),
    }),
    { description: 'Soft signals computed at each view; none of them is an error.' },
  ),
  screening_hits: Type.Array(ScreeningHitSchema, {
    description: 'Sanctions screening hits, with the listed entry (docs/SCREENING.md).',
  }),
});

export const RevealResponse = Type.Object({
  busi_water_no: Type.String(),
  field: Type.String(),
  value: Type.Unknown({ description: 'The field in the clear; null when the application lacks it.' }),
});

export const AuditPage = Type.Object({
  items: Type.Array(
    Type.Object({
      id: Type.Integer(),
      at: Type.Integer({ description: 'Unix seconds.' }),
      actor: Type.String(),
      action: Type.String(),
      target_type: nullable(Type.String()),
      target_id: nullable(Type.String()),
      details: nullable(
        Type.Object({}, { additionalProperties: true }),
        "What changed. A viewer is not shown a screening hit's clearing `note` (`screening.clear`).",
      ),
      source: Type.String(),
    }),
  ),
  next_cursor: nullable(Type.String()),
});

export const AppView = Type.Object({
  app_id: Type.String(),
  name: Type.String(),
  status: Type.String(),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
});

/** Query-string numbers arrive as digit strings (the schema checked them): read them as numbers. */
export function numberOf(value: string | undefined): number | undefined {
  return value === undefined ? undefined : Number(value);
}

export const OtpBody = Type.Object(
  { otp: Type.String({ pattern: '^[0-9]{6}$', description: 'A current code of the new secret.' }) },
  { additionalProperties: false },
);

export const EnrolmentView = Type.Object({
  secret: Type.String({ description: 'The base32 secret, to type into an authenticator by hand.' }),
  otpauth_uri: Type.String({
    description: 'The `otpauth://totp/...` URI (RFC 6238, SHA-1, 6 digits, 30 s).',
  }),
  qr_svg: Type.String({ description: 'The URI as a QR code: an SVG document, drawn by the service.' }),
});

export const SecondFactorView = Type.Object({
  state: SecondFactorState,
  enrolment: Type.Optional(EnrolmentView),
});

export const RecoveryCodes = Type.Object({
  recovery_codes: Type.Array(Type.String(), {
    description: 'Ten one-time codes for when the authenticator is lost; shown only this once.',
  }),
});

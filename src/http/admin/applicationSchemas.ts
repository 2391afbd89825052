import { RiskView } from '../../risk/riskView.ts';
import { ApprovalRequestView } from '../../risk/approvalRequestView.ts';
import { OperatorDocumentOutcomes } from '../../documents/documentView.ts';
import { Type } from 'typebox';
import { STATUSES } from '../../record/lifecycle.ts';
import { REVEALABLE_FIELDS } from '../../record/masking.ts';
import { MAX_LIMIT, RISK_TIER_FILTERS } from '../../applications/views/listApplications.ts';
import { TIERS } from '../../policies/riskPolicy.ts';
import { PURPOSE_TEXT_MAX, REVEAL_PURPOSES } from '../../applications/rules/revealPolicy.ts';
import { LIMITS } from '../../record/schema.ts';
import { digits, nullable } from './schemas.ts';

/** The admin API's applications: the search and its pages, the operator's view, a reveal. */

export const SerialParams = Type.Object(
  { busi_water_no: Type.String({ minLength: 1, maxLength: 32, description: 'Application serial number.' }) },
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
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          "What a support call quotes: the partner's reference (`external_id`, exact), or the first 6 or more characters of a serial number (any case).",
      }),
    ),
    risk_tier: Type.Optional(
      Type.Enum([...RISK_TIER_FILTERS], {
        description:
          'Only applications whose latest risk assessment has this tier; `unrated`: none is made yet (docs/RISK.md).',
      }),
    ),
    sort: Type.Optional(
      Type.Enum(['created', 'risk'], {
        description:
          '`risk`: by risk tier first (unrated < low < medium < high < prohibited, in the direction of `order`), then by creation. Default `created`.',
      }),
    ),
  },
  { additionalProperties: false },
);
const summaryProperties = {
  busi_water_no: Type.String(),
  external_id: nullable(Type.String(), "The partner's own reference, or null."),
  app_id: Type.String(),
  status: Type.String(),
  status_reason: nullable(Type.String()),
  reason_codes: Type.Array(Type.String(), { description: 'Codes of the `reason` table of the last change.' }),
  requested_fields: Type.Array(Type.String(), {
    description: 'While SUPPLEMENT_REQUIRED: the fields the partner is to send again.',
  }),
  cert_type: Type.String(),
  card_no_masked: Type.String(),
  version: Type.Integer({ description: 'Send it back with a move to refuse it if anything changed.' }),
  created_at: Type.Integer({ description: 'Unix seconds.' }),
  updated_at: Type.Integer({ description: 'Unix seconds.' }),
  risk_tier: nullable(
    Type.Enum([...TIERS]),
    'The tier of the latest risk assessment (docs/RISK.md); null while none is made.',
  ),
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

const PepMatchSchema = Type.Object({
  id: Type.String(),
  list: Type.String(),
  version_id: Type.String(),
  reference: Type.String({ description: "The list's own reference of the entry." }),
  role: Type.String({
    enum: ['pep', 'rca'],
    description: 'A politically exposed person, or a relative or close associate of one.',
  }),
  matched_name: Type.String({ description: 'The listed name that matched; masked for a viewer.' }),
  matched_kind: Type.String({ description: '`primary`, `alias`, `original_script` or `document`.' }),
  fields: Type.Array(Type.String(), { description: "The application's fields that matched." }),
  score: Type.Number(),
  created_at: Type.Integer(),
  entry: Type.Union([
    Type.Object({
      names: Type.Array(Type.Object({ text: Type.String(), kind: Type.String(), weak: Type.Boolean() })),
      birth_dates: Type.Array(Type.String()),
      nationalities: Type.Array(Type.String()),
      positions: Type.Array(
        Type.Object({
          title: Type.String(),
          country: nullableText,
          start: nullable(
            Type.String(),
            'As the list wrote it (`2019`, `2019-05-12`); null when it does not say.',
          ),
          end: nullable(Type.String(), 'Null when the list gives no end (held still, or not said).'),
        }),
      ),
      relations: Type.Array(
        Type.Object({
          relationship: Type.String({ description: 'As the list says it (`son`, `business associate`).' }),
          reference: Type.String({ description: "The PEP's entry on the same list." }),
          name: nullable(Type.String(), "The PEP's name; masked for a viewer."),
        }),
        { description: 'For a relative or close associate: the tie to the PEP.' },
      ),
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
  risk: Type.Union([RiskView, Type.Null()]),
  approval_request: Type.Union([ApprovalRequestView, Type.Null()]),
  screening_hits: Type.Array(ScreeningHitSchema, {
    description: 'Sanctions screening hits, with the listed entry (docs/SCREENING.md).',
  }),
  pep_matches: Type.Array(PepMatchSchema, {
    description:
      'PEP matches (docs/SCREENING.md): shown to the reviewer and weighed by the risk rating (`pep_match`); they hold nothing.',
  }),
});

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
export const RevealResponse = Type.Object({
  busi_water_no: Type.String(),
  field: Type.String(),
  value: Type.Unknown({ description: 'The field in the clear; null when the application lacks it.' }),
});

import type { TypedApp } from '../typedApp.ts';
import { Type } from 'typebox';
import { cancelApplication, simulateTransition } from '../../applications/commands/partnerTransitions.ts';
import { INITIAL_STATUS, STATUSES, type Status } from '../../record/lifecycle.ts';
import { listApplications, MAX_LIMIT } from '../../applications/views/listApplications.ts';
import { MAX_REASON_CODES } from '../../applications/rules/reasonCodes.ts';
import { NOT_RESENDABLE, SUBMIT_FIELDS } from '../../applications/rules/requestedFields.ts';
import { StatusView } from '../../applications/views/queryApplication.ts';
import { ExternalId, LIMITS, SerialNumber } from '../../record/schema.ts';
import { DETAIL_LIMIT, TRACKING_URL_LIMIT } from '../../applications/commands/transitionApplication.ts';
import type { ServiceContext } from '../../context.ts';
import { partnerOf } from '../partnerAuth.ts';
import { success } from '../envelope.ts';
import { PATHS } from '../paths.ts';
import { AppId, PARTNER_ERRORS, errorResponses, SuccessEnvelope, Timestamp } from '../schemas.ts';

const UnixSeconds = (description: string) =>
  Type.Integer({ minimum: 0, maximum: 99_999_999_999, description });

const Reason = Type.String({
  minLength: 1,
  maxLength: LIMITS.freeText,
  description: 'Why; must not contain identity or card numbers.',
});

const ListRequest = Type.Object(
  {
    app_id: AppId,
    timestamp: Timestamp,
    status: Type.Optional(Type.Enum([...STATUSES], { description: 'Only applications in this state.' })),
    external_id: Type.Optional(ExternalId),
    created_from: Type.Optional(UnixSeconds('Created at or after this time (Unix seconds).')),
    created_to: Type.Optional(UnixSeconds('Created at or before this time (Unix seconds).')),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        description: 'The `next_cursor` of the previous page, with the same filters.',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, description: 'Default 20.' })),
  },
  { additionalProperties: false },
);

const ListResponse = Type.Object({
  items: Type.Array(StatusView),
  next_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as `cursor` for the next page; null on the last page.',
  }),
});

const CancelRequest = Type.Object(
  {
    app_id: AppId,
    timestamp: Timestamp,
    busi_water_no: Type.Optional(SerialNumber),
    external_id: Type.Optional(ExternalId),
    reason: Type.Optional(Reason),
  },
  {
    additionalProperties: false,
    description: 'Names the application by `busi_water_no` or by `external_id` (one of them is required).',
  },
);

const SimulateRequest = Type.Object(
  {
    app_id: AppId,
    timestamp: Timestamp,
    busi_water_no: SerialNumber,
    status: Type.Enum(
      STATUSES.filter((s): s is Exclude<Status, typeof INITIAL_STATUS> => s !== INITIAL_STATUS),
      { description: 'The state to move to; only moves the lifecycle allows from the current state.' },
    ),
    reason: Type.Optional(Reason),
    reason_codes: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 32 }), {
        minItems: 1,
        maxItems: MAX_REASON_CODES,
        description: 'Codes of the `reason` table; needed where an operator would need them (REJECTED).',
      }),
    ),
    requested_fields: Type.Optional(
      Type.Array(Type.Enum([...SUBMIT_FIELDS]), {
        minItems: 1,
        maxItems: SUBMIT_FIELDS.length,
        description: `SUPPLEMENT_REQUIRED: the fields to send again with the amend; not ${NOT_RESENDABLE.map((name) => `\`${name}\``).join(' or ')} (422 \`field_not_resendable\`).`,
      }),
    ),
    carrier: Type.Optional(Type.String({ minLength: 1, maxLength: DETAIL_LIMIT })),
    tracking_no: Type.Optional(Type.String({ minLength: 1, maxLength: DETAIL_LIMIT })),
    tracking_url: Type.Optional(Type.String({ minLength: 1, maxLength: TRACKING_URL_LIMIT })),
  },
  { additionalProperties: false },
);

const MOVE_ERRORS = [
  ...PARTNER_ERRORS,
  'fieldEmpty',
  'fieldTooLong',
  'fieldFormat',
  'textCarriesNumber',
  'applicationNotFound',
  'transitionNotAllowed',
  'concurrentChange',
] as const;

/**
 * The partner's lifecycle routes: list, cancel and (with SANDBOX=true only) simulate. Registered
 * inside the partner route plugin, behind its authentication hook.
 */
export function registerLifecycleRoutes(app: TypedApp, ctx: ServiceContext): void {
  app.post(
    PATHS.list,
    {
      config: { operation: 'application.list' },
      schema: {
        operationId: 'listApplications',
        summary: "List the partner's applications",
        description:
          'Ordered by creation time. Filters by status, `external_id` and creation time (Unix seconds, both ends inclusive). The cursor is opaque; a listing page by page neither skips nor repeats an application while new ones arrive.',
        tags: ['applications'],
        body: ListRequest,
        response: {
          200: SuccessEnvelope(ListResponse),
          ...errorResponses([
            ...PARTNER_ERRORS,
            'fieldEmpty',
            'fieldTooLong',
            'fieldNotAllowed',
            'fieldFormat',
          ]),
        },
      },
    },
    async (request) => {
      return success(request, await listApplications(ctx, partnerOf(request), request.body));
    },
  );

  app.post(
    PATHS.cancel,
    {
      config: { operation: 'application.cancel', idempotent: true },
      schema: {
        operationId: 'cancelApplication',
        summary: 'Cancel an application',
        description:
          'Allowed while the application is SUBMITTED or IN_REVIEW; otherwise a 409 naming both states.',
        tags: ['applications'],
        body: CancelRequest,
        response: { 200: SuccessEnvelope(StatusView), ...errorResponses([...MOVE_ERRORS]) },
      },
    },
    async (request) => {
      return success(request, await cancelApplication(ctx, partnerOf(request), request.body));
    },
  );

  if (!ctx.config.sandbox) return;
  app.post(
    PATHS.simulate,
    {
      config: { operation: 'application.simulate', idempotent: true },
      schema: {
        operationId: 'simulateTransition',
        summary: 'Sandbox: move an application along the lifecycle',
        description:
          'Exists only when the service runs with SANDBOX=true. Any move the lifecycle allows from the current state; REJECTED needs `reason_codes`, SUPPLEMENT_REQUIRED `reason_codes` and `requested_fields` (then the amend, or a simulated IN_REVIEW or EXPIRED, follows); SHIPPED takes optional carrier, tracking_no and tracking_url; RETURNED needs `reason_codes`.',
        tags: ['sandbox'],
        body: SimulateRequest,
        response: {
          200: SuccessEnvelope(StatusView),
          ...errorResponses([
            ...MOVE_ERRORS,
            'fieldNotAllowed',
            'fieldNotResendable',
            'urlNotHttps',
            'urlCredentials',
            'urlPrivateHost',
            'codeUnknown',
            'fieldTooManyItems',
            'fieldDuplicateItems',
          ]),
        },
      },
    },
    async (request) => {
      return success(request, await simulateTransition(ctx, partnerOf(request), request.body));
    },
  );
}

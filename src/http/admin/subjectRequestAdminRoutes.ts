import type { TypedApp } from '../typedApp.ts';
import { Type } from 'typebox';
import type { ServiceContext } from '../../context.ts';
import type { ErrorName } from '../../errors/catalogue.ts';
import { ACTING_ROLE } from '../../access/roles.ts';
import {
  RequestId,
  SUBJECT_REQUEST_KINDS,
  SUBJECT_REQUEST_STATUSES,
} from '../../subjects/subjectRequests.ts';
import {
  listSubjectRequestsForOperators,
  OPERATOR_LIST_LIMIT,
  OperatorSubjectRequestView,
  showSubjectRequestForOperators,
} from '../../subjects/operatorSubjectRequests.ts';
import {
  decideDeletionRequest,
  refuseRequest,
  requestCorrectionInformation,
  startRequest,
  SUBJECT_REASON_MAX,
  SUBJECT_REFUSAL_CODES,
} from '../../subjects/subjectActions.ts';
import { SerialNumber } from '../../record/schema.ts';
import { success } from '../envelope.ts';
import { adminRoute } from './adminRoute.ts';
import { changedBy } from './operatorAuth.ts';
import { EmptyBody, numberOf, ok } from './schemas.ts';
import { Reason, ReasonCodesBody, RequestedFields } from './moveSchemas.ts';

/**
 * The applicants' requests through the partner, for operators (docs/PRIVACY.md): the queue with due
 * dates, and the steps that end a request, each audited.
 */

const RequestParams = Type.Object({ request_id: RequestId });

const ListQuery = Type.Object(
  {
    status: Type.Optional(Type.Enum([...SUBJECT_REQUEST_STATUSES], { description: 'Only this state.' })),
    kind: Type.Optional(Type.Enum([...SUBJECT_REQUEST_KINDS], { description: 'Only this kind.' })),
    open: Type.Optional(
      Type.Enum(['true', 'false'], { description: '`true`: only received and in-progress requests.' }),
    ),
    app_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Only this partner’s.' })),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: '`next_cursor` of the page before.' }),
    ),
    limit: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,3}$',
        description: `Page size, 1 to ${OPERATOR_LIST_LIMIT}; 50 by default.`,
      }),
    ),
  },
  { additionalProperties: false },
);

const ListPage = Type.Object({
  items: Type.Array(OperatorSubjectRequestView),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});

const RefuseBody = Type.Object(
  {
    reason_code: Type.Enum([...SUBJECT_REFUSAL_CODES], {
      description: 'Why, as a code the partner maps (docs/PRIVACY.md).',
    }),
    reason: Type.String({
      minLength: 1,
      maxLength: SUBJECT_REASON_MAX,
      description: 'The reason in words, for the partner and the applicant; never an identity number.',
    }),
  },
  { additionalProperties: false },
);

const CorrectionBody = Type.Object(
  {
    busi_water_no: { ...SerialNumber, description: 'One of the applications the request covers, in review.' },
    requested_fields: RequestedFields,
    reason_codes: ReasonCodesBody,
    reason: Type.Optional(Reason),
  },
  { additionalProperties: false },
);

const STEP_ERRORS: ErrorName[] = ['subjectRequestNotFound', 'subjectRequestEnded'];

export function subjectRequestAdminRoutes(ctx: ServiceContext) {
  return async (app: TypedApp) => {
    app.get(
      '/subject-requests',
      adminRoute(ctx, {
        caller: 'viewer',
        operation: 'admin.subject_request.list',
        operationId: 'adminListSubjectRequests',
        summary: "Applicants' requests through the partners, newest first",
        description:
          'Every partner’s requests with their due dates and states (docs/PRIVACY.md); `overdue` marks an open one past its due date. Serials and codes only.',
        errors: ['fieldNotAllowed', 'fieldFormat'],
        schema: { querystring: ListQuery, response: ok(ListPage) },
      }),
      async (request) => {
        const { query } = request;
        return success(
          request,
          await listSubjectRequestsForOperators(ctx, {
            status: query.status,
            kind: query.kind,
            open: query.open === undefined ? undefined : query.open === 'true',
            app_id: query.app_id,
            cursor: query.cursor,
            limit: numberOf(query.limit),
          }),
        );
      },
    );

    app.get(
      '/subject-requests/:request_id',
      adminRoute(ctx, {
        caller: 'viewer',
        operation: 'admin.subject_request.show',
        operationId: 'adminShowSubjectRequest',
        summary: "One applicant's request",
        errors: ['subjectRequestNotFound'],
        schema: { params: RequestParams, response: ok(OperatorSubjectRequestView) },
      }),
      async (request) =>
        success(request, await showSubjectRequestForOperators(ctx, request.params.request_id)),
    );

    app.post(
      '/subject-requests/:request_id/start',
      adminRoute(ctx, {
        caller: ACTING_ROLE,
        operation: 'admin.subject_request.start',
        operationId: 'adminStartSubjectRequest',
        summary: 'Take a received request up (in_progress)',
        description: 'Reviewer or admin; audited.',
        errors: [...STEP_ERRORS, 'subjectRequestNotOpen'],
        schema: { params: RequestParams, body: EmptyBody, response: ok(OperatorSubjectRequestView) },
      }),
      async (request) => {
        await startRequest(ctx, request.params.request_id, changedBy(request));
        return success(request, await showSubjectRequestForOperators(ctx, request.params.request_id));
      },
    );

    app.post(
      '/subject-requests/:request_id/delete',
      adminRoute(ctx, {
        caller: ACTING_ROLE,
        operation: 'admin.subject_request.delete',
        operationId: 'adminDecideDeletion',
        summary:
          'Carry out a deletion request as the policy decides: erase now, or restrict under record keeping',
        description:
          'Reviewer or admin; audited. The applications that ended before any decision (cancelled, expired) are erased now, documents included, as retention erases; the others are restricted until `AML_RETENTION_YEARS` after the relationship ended (a rejection: its date; an approved application: today), withdrawn from every operator but a compliance one, and erased by retention then. The request ends `completed` or `restricted`. Refused (409) while a covered application is still in progress. See docs/PRIVACY.md.',
        errors: [...STEP_ERRORS, 'subjectRequestWrongKind', 'subjectDeletionInProgress'],
        schema: { params: RequestParams, body: EmptyBody, response: ok(OperatorSubjectRequestView) },
      }),
      async (request) => {
        await decideDeletionRequest(ctx, request.params.request_id, changedBy(request));
        return success(request, await showSubjectRequestForOperators(ctx, request.params.request_id));
      },
    );

    app.post(
      '/subject-requests/:request_id/request-information',
      adminRoute(ctx, {
        caller: ACTING_ROLE,
        operation: 'admin.subject_request.request_information',
        operationId: 'adminSubjectRequestInformation',
        summary: 'Answer a correction with a request for information on one of its applications',
        description:
          'Reviewer or admin; audited. Moves the application (in review) to SUPPLEMENT_REQUIRED with the fields to send again, as the supplement move does, and links it: the partner’s amend completes the request.',
        errors: [
          ...STEP_ERRORS,
          'subjectRequestWrongKind',
          'subjectApplicationNotCovered',
          'applicationNotFound',
          'transitionNotAllowed',
          'concurrentChange',
          'screeningHitUnresolved',
          'fieldEmpty',
          'fieldTooLong',
          'textCarriesNumber',
          'codeUnknown',
          'fieldTooManyItems',
          'fieldDuplicateItems',
          'fieldNotAllowed',
          'applicationClaimed',
        ],
        schema: { params: RequestParams, body: CorrectionBody, response: ok(OperatorSubjectRequestView) },
      }),
      async (request) => {
        const { body } = request;
        await requestCorrectionInformation(
          ctx,
          request.params.request_id,
          {
            busi_water_no: body.busi_water_no,
            requested_fields: body.requested_fields,
            reason_codes: body.reason_codes,
            reason: body.reason,
          },
          changedBy(request),
        );
        return success(request, await showSubjectRequestForOperators(ctx, request.params.request_id));
      },
    );

    app.post(
      '/subject-requests/:request_id/refuse',
      adminRoute(ctx, {
        caller: ACTING_ROLE,
        operation: 'admin.subject_request.refuse',
        operationId: 'adminRefuseSubjectRequest',
        summary: 'Refuse a request, with a reason code and the reason in words',
        description: 'Reviewer or admin; audited. The partner is told by `subject_request.refused`.',
        errors: [...STEP_ERRORS, 'fieldEmpty', 'fieldTooLong', 'textCarriesNumber', 'fieldNotAllowed'],
        schema: { params: RequestParams, body: RefuseBody, response: ok(OperatorSubjectRequestView) },
      }),
      async (request) => {
        await refuseRequest(ctx, request.params.request_id, request.body, changedBy(request));
        return success(request, await showSubjectRequestForOperators(ctx, request.params.request_id));
      },
    );
  };
}

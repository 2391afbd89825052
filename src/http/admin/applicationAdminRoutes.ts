import type { Static } from 'typebox';
import type { TypedApp } from '../typedApp.ts';
import { OPERATOR_ACTIONS, requirementsOf } from '../../record/lifecycle.ts';
import { searchApplications } from '../../applications/views/listApplications.ts';
import { queueDetails } from '../../applications/views/queueDetails.ts';
import { revealField, showApplication } from '../../applications/views/operatorView.ts';
import { refuseIfRestricted } from '../../record/restriction.ts';
import { checkPurpose } from '../../applications/rules/revealPolicy.ts';
import {
  approveApplication,
  transitionApplication,
  type TransitionRequest,
} from '../../applications/commands/transitionApplication.ts';
import type { ServiceContext } from '../../context.ts';
import type { ErrorName } from '../../errors/catalogue.ts';
import { ACTING_ROLE } from '../../access/roles.ts';
import { success, type Success } from '../envelope.ts';
import { SuccessEnvelope } from '../schemas.ts';
import { adminRoute } from './adminRoute.ts';
import { adminSource, operatorActor, operatorOf } from './operatorAuth.ts';
import { numberOf, ok } from './schemas.ts';
import {
  ApplicationPage,
  OperatorApplicationView,
  RevealBody,
  RevealResponse,
  SearchQuery,
  SerialParams,
} from './applicationSchemas.ts';
import { type MoveBody, transitionBody } from './moveSchemas.ts';

/** Search, show, reveal, and one route per move of the lifecycle. */
export function applicationAdminRoutes(ctx: ServiceContext) {
  return async (app: TypedApp) => {
    registerReadRoutes(app, ctx);
    registerMoveRoutes(app, ctx);
  };
}

/** Search, show and reveal. */
function registerReadRoutes(app: TypedApp, ctx: ServiceContext): void {
  app.get(
    '/applications',
    adminRoute(ctx, {
      caller: 'viewer',
      operation: 'admin.application.search',
      operationId: 'adminSearchApplications',
      summary: 'Search applications',
      description:
        'Filters by status, app, serial number, partner reference, what a support call quotes (`q`: a partner reference or the first characters of a serial), risk tier (`risk_tier`) and creation time (Unix seconds, inclusive); ordered by creation (oldest first, or newest first with `order=desc`), or by risk tier then creation (`sort=risk`), with an opaque cursor that neither skips nor repeats while applications arrive.',
      errors: ['fieldFormat', 'fieldNotAllowed'],
      schema: { querystring: SearchQuery, response: ok(ApplicationPage) },
    }),
    async (request) => {
      const { query } = request;
      const page = await searchApplications(
        ctx,
        {
          status: query.status,
          app_id: query.app_id,
          busi_water_no: query.busi_water_no,
          external_id: query.external_id,
          created_from: numberOf(query.created_from),
          created_to: numberOf(query.created_to),
          cursor: query.cursor,
          limit: numberOf(query.limit),
          order: query.order ?? 'asc',
          screening: query.screening,
          q: query.q,
          risk_tier: query.risk_tier,
          sort: query.sort,
        },
        operatorOf(request),
      );
      // The queue's rows told apart: partner, masked applicant name, who holds it.
      const details = await queueDetails(ctx, page.items);
      return success(request, {
        ...page,
        items: page.items.map((item) => ({ ...item, ...details.get(item.busi_water_no) })),
      });
    },
  );

  app.get(
    '/applications/:busi_water_no',
    adminRoute(ctx, {
      caller: 'viewer',
      operation: 'admin.application.show',
      operationId: 'adminShowApplication',
      summary: 'Show one application, identity fields masked',
      errors: ['applicationNotFound'],
      schema: { params: SerialParams, response: ok(OperatorApplicationView) },
    }),
    async (request) => {
      return success(request, await showApplication(ctx, request.params.busi_water_no, operatorOf(request)));
    },
  );

  app.post(
    '/applications/:busi_water_no/reveal',
    adminRoute(ctx, {
      caller: ACTING_ROLE,
      operation: 'admin.application.reveal',
      operationId: 'adminRevealField',
      summary: 'Reveal one masked field, for a stated purpose',
      description:
        'Reviewer or admin. Written to the audit trail: who, when, which field, which application, and the purpose. At most `OPERATOR_REVEALS_PER_HOUR` reveals an hour per operator (429 after).',
      errors: ['applicationNotFound', 'fieldNotAllowed', 'fieldTooLong', 'revealsLimited'],
      schema: { params: SerialParams, body: RevealBody, response: ok(RevealResponse) },
    }),
    async (request) => {
      const { busi_water_no } = request.params;
      const { body } = request;
      const operator = operatorOf(request);
      return success(
        request,
        await revealField(ctx, {
          busiWaterNo: busi_water_no,
          field: body.field,
          purpose: checkPurpose(body.purpose, body.purpose_text),
          operator: { username: operator.username, role: operator.role, compliance: operator.compliance },
          source: adminSource(request),
        }),
      );
    },
  );
}

/** What a move can be refused for, besides its body's own rules. */
const MOVE_ERRORS: ErrorName[] = [
  'applicationNotFound',
  'transitionNotAllowed',
  'concurrentChange',
  'screeningHitUnresolved',
  'screeningNotInForce',
  'fieldEmpty',
  'fieldTooLong',
  'textCarriesNumber',
  'codeUnknown',
  'fieldTooManyItems',
  'fieldDuplicateItems',
  'fieldNotAllowed',
  'fieldNotResendable',
  'urlNotHttps',
  'urlCredentials',
  'urlPrivateHost',
];

/** What an approve can be refused for besides: the risk assessment it weighs (docs/RISK.md). */
const APPROVE_ERRORS: ErrorName[] = [
  'riskFactorBlocksApproval',
  'riskApprovalSameOperator',
  'riskAcknowledgementMissing',
];

const APPROVE_DESCRIPTION =
  ' An approve weighs the latest risk assessment (docs/RISK.md, "Approval"): refused (409 `risk_factor_blocks_approval`) while a factor that blocks approval is open; each open high factor needs a note in `risk_acknowledgements` (422 `risk_acknowledgement_missing`). Where the policy routes the application to enhanced review, the first approve moves nothing: it records an approval request (shown as `approval_request` in the view) and answers 202; a different operator\'s approve then approves (the same operator\'s again: 409 `risk_approval_same_operator`).';

/** One route per move of the lifecycle. */
function registerMoveRoutes(app: TypedApp, ctx: ServiceContext): void {
  for (const [action, to] of Object.entries(OPERATOR_ACTIONS)) {
    const { reasonRequired, detailsRequired, codesRequired, fieldsRequired, detailsOptional } =
      requirementsOf(to);
    const approve = to === 'APPROVED';
    // Which body fields a move requires depends on the move, so its types are given here: the
    // handler reads every field as optional.
    app.post<{
      Params: Static<typeof SerialParams>;
      Body: MoveBody;
      Reply: Success<Static<typeof OperatorApplicationView>>;
    }>(
      `/applications/:busi_water_no/${action}`,
      adminRoute(ctx, {
        caller: ACTING_ROLE,
        operation: `admin.application.${action}`,
        operationId: `adminApplication${action[0]!.toUpperCase()}${action.slice(1)}`,
        summary: `Move an application to ${to}`,
        description: `Reviewer or admin. Allowed only from the states the lifecycle allows (otherwise 409 naming both states). Recorded in the history, the events and the audit trail.${approve ? APPROVE_DESCRIPTION : ''}`,
        errors: approve ? [...MOVE_ERRORS, ...APPROVE_ERRORS] : MOVE_ERRORS,
        schema: {
          params: SerialParams,
          body: transitionBody(
            reasonRequired,
            detailsRequired,
            codesRequired,
            fieldsRequired,
            detailsOptional,
            approve,
          ),
          response: approve
            ? { ...ok(OperatorApplicationView), 202: SuccessEnvelope(OperatorApplicationView) }
            : ok(OperatorApplicationView),
        },
      }),
      async (request, reply) => {
        const { busi_water_no } = request.params;
        const { body } = request;
        const move: TransitionRequest = {
          busiWaterNo: busi_water_no,
          to,
          actor: operatorActor(request),
          reason: body.reason,
          reasonCodes: body.reason_codes,
          requestedFields: body.requested_fields,
          details: {
            carrier: body.carrier,
            tracking_no: body.tracking_no,
            tracking_url: body.tracking_url,
          },
          expectedVersion: body.version,
          riskAcknowledgements: body.risk_acknowledgements,
          source: adminSource(request),
        };
        // Restricted by a deletion request: no operator but a compliance one finds it to move it.
        await refuseIfRestricted(ctx.store.db, busi_water_no, operatorOf(request));
        if (approve) {
          const outcome = await approveApplication(ctx, move);
          // Enhanced review, first operator: nothing moved; the view shows the pending request.
          if (outcome.kind === 'approval_requested') reply.code(202);
        } else {
          await transitionApplication(ctx, move);
        }
        return success(request, await showApplication(ctx, busi_water_no, operatorOf(request)));
      },
    );
  }
}

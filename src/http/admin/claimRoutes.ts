import type { TypedApp } from '../typedApp.ts';
import { Type } from 'typebox';
import type { ServiceContext } from '../../context.ts';
import {
  claimApplication,
  listClaims,
  openForReview,
  reassignClaim,
  releaseClaim,
} from '../../applications/commands/reviewClaims.ts';
import { checkPurpose, PURPOSE_TEXT_MAX, REVEAL_PURPOSES } from '../../applications/rules/revealPolicy.ts';
import { ACTING_ROLE } from '../../access/roles.ts';
import { success } from '../envelope.ts';
import type { ErrorName } from '../../errors/catalogue.ts';
import { adminRoute } from './adminRoute.ts';
import { changedBy, operatorOf } from './operatorAuth.ts';
import { EmptyBody, ok } from './schemas.ts';
import { SerialParams } from './applicationSchemas.ts';

/** Review claims: claim, release, reassign (admin), open for review (the holder), and who holds what. */
const ClaimView = Type.Object({
  busi_water_no: Type.String(),
  username: Type.String({ description: 'Who holds it.' }),
  claimed_at: Type.Integer(),
  expires_at: Type.Integer({ description: 'When the claim lapses unless claimed again (Unix seconds).' }),
});

const PurposeBody = Type.Object(
  {
    purpose: Type.Enum([...REVEAL_PURPOSES], {
      description: 'Why (PCI DSS 3.3); written to the audit trail.',
    }),
    purpose_text: Type.Optional(
      Type.String({ maxLength: PURPOSE_TEXT_MAX, description: 'Required with `other`.' }),
    ),
  },
  { additionalProperties: false },
);

const CLAIM_ERRORS: ErrorName[] = [
  'applicationNotFound',
  'claimNotPossible',
  'applicationClaimed',
  'claimNotHeld',
];

export function claimRoutes(ctx: ServiceContext) {
  return async (app: TypedApp) => {
    const identity = (request: Parameters<typeof operatorOf>[0]) => {
      const operator = operatorOf(request);
      return { username: operator.username, role: operator.role };
    };

    app.get(
      '/claims',
      adminRoute(ctx, {
        caller: 'viewer',
        operation: 'admin.claim.list',
        operationId: 'adminListClaims',
        summary: 'Live review claims: who holds which application',
        schema: { response: ok(Type.Array(ClaimView)) },
      }),
      async (request) => success(request, await listClaims(ctx)),
    );

    app.post(
      '/applications/:busi_water_no/claim',
      adminRoute(ctx, {
        caller: ACTING_ROLE,
        operation: 'admin.application.claim',
        operationId: 'adminClaimApplication',
        summary: 'Claim an application in review (or renew the claim)',
        description:
          'Refused (409) while another reviewer holds it. The claim lapses after `REVIEW_CLAIM_SECONDS`.',
        errors: CLAIM_ERRORS,
        schema: { params: SerialParams, body: EmptyBody, response: ok(ClaimView) },
      }),
      async (request) =>
        success(
          request,
          await claimApplication(ctx, request.params.busi_water_no, identity(request), changedBy(request)),
        ),
    );

    app.post(
      '/applications/:busi_water_no/release',
      adminRoute(ctx, {
        caller: ACTING_ROLE,
        operation: 'admin.application.release',
        operationId: 'adminReleaseClaim',
        summary: 'End a claim (its holder, or an admin)',
        errors: CLAIM_ERRORS,
        schema: {
          params: SerialParams,
          body: EmptyBody,
          response: ok(Type.Object({ released: Type.Literal(true) })),
        },
      }),
      async (request) =>
        success(
          request,
          await releaseClaim(ctx, request.params.busi_water_no, identity(request), changedBy(request)),
        ),
    );

    app.post(
      '/applications/:busi_water_no/reassign',
      adminRoute(ctx, {
        caller: 'admin',
        operation: 'admin.application.reassign',
        operationId: 'adminReassignClaim',
        summary: 'Hand an application in review to another reviewer',
        errors: [...CLAIM_ERRORS, 'operatorNotFound'],
        schema: {
          params: SerialParams,
          body: Type.Object(
            { username: Type.String({ minLength: 1, maxLength: 64 }) },
            { additionalProperties: false },
          ),
          response: ok(ClaimView),
        },
      }),
      async (request) => {
        const { username } = request.body;
        return success(
          request,
          await reassignClaim(ctx, request.params.busi_water_no, username, changedBy(request)),
        );
      },
    );

    app.post(
      '/applications/:busi_water_no/open-for-review',
      adminRoute(ctx, {
        caller: ACTING_ROLE,
        operation: 'admin.application.open_for_review',
        operationId: 'adminOpenForReview',
        summary: "Open a claimed application's identity fields and images for review",
        description:
          'The holder of the claim only. One audit row with the purpose and the fields shown; counts as one reveal towards `OPERATOR_REVEALS_PER_HOUR`. The card number is not included (reveal it on its own).',
        errors: [...CLAIM_ERRORS, 'fieldNotAllowed', 'fieldTooLong', 'revealsLimited'],
        schema: {
          params: SerialParams,
          body: PurposeBody,
          response: ok(
            Type.Object({
              busi_water_no: Type.String(),
              fields: Type.Record(Type.String(), Type.Unknown(), {
                description: 'The identity fields and image URLs, in the clear.',
              }),
              claim_expires_at: Type.Integer(),
            }),
          ),
        },
      }),
      async (request) => {
        const { body } = request;
        return success(
          request,
          await openForReview(
            ctx,
            request.params.busi_water_no,
            identity(request),
            checkPurpose(body.purpose, body.purpose_text),
            changedBy(request),
          ),
        );
      },
    );
  };
}

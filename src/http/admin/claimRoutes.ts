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
import { changedBy, operatorOf, requireOperator } from './operatorAuth.ts';
import { ADMIN_SECURITY, adminBodyErrors, adminErrors, EmptyBody, ok } from './schemas.ts';
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

const route = (operationId: string, summary: string, description?: string) => ({
  operationId,
  summary,
  ...(description === undefined ? {} : { description }),
  tags: ['admin'],
  security: ADMIN_SECURITY,
});

const CLAIM_ERRORS = [
  'applicationNotFound',
  'claimNotPossible',
  'applicationClaimed',
  'claimNotHeld',
] as const;

export function claimRoutes(ctx: ServiceContext) {
  return async (app: TypedApp) => {
    const reviewer = requireOperator(ctx, ACTING_ROLE);
    const identity = (request: Parameters<typeof operatorOf>[0]) => {
      const operator = operatorOf(request);
      return { username: operator.username, role: operator.role };
    };

    app.get(
      '/claims',
      {
        onRequest: requireOperator(ctx, 'viewer'),
        config: { operation: 'admin.claim.list' },
        schema: {
          ...route('adminListClaims', 'Live review claims: who holds which application'),
          response: { ...ok(Type.Array(ClaimView)), ...adminErrors() },
        },
      },
      async (request) => success(request, await listClaims(ctx)),
    );

    app.post(
      '/applications/:busi_water_no/claim',
      {
        onRequest: reviewer,
        config: { operation: 'admin.application.claim' },
        schema: {
          ...route(
            'adminClaimApplication',
            'Claim an application in review (or renew the claim)',
            'Refused (409) while another reviewer holds it. The claim lapses after `REVIEW_CLAIM_SECONDS`.',
          ),
          params: SerialParams,
          body: EmptyBody,
          response: { ...ok(ClaimView), ...adminBodyErrors(...CLAIM_ERRORS) },
        },
      },
      async (request) =>
        success(
          request,
          await claimApplication(ctx, request.params.busi_water_no, identity(request), changedBy(request)),
        ),
    );

    app.post(
      '/applications/:busi_water_no/release',
      {
        onRequest: reviewer,
        config: { operation: 'admin.application.release' },
        schema: {
          ...route('adminReleaseClaim', 'End a claim (its holder, or an admin)'),
          params: SerialParams,
          body: EmptyBody,
          response: {
            ...ok(Type.Object({ released: Type.Literal(true) })),
            ...adminBodyErrors(...CLAIM_ERRORS),
          },
        },
      },
      async (request) =>
        success(
          request,
          await releaseClaim(ctx, request.params.busi_water_no, identity(request), changedBy(request)),
        ),
    );

    app.post(
      '/applications/:busi_water_no/reassign',
      {
        onRequest: requireOperator(ctx, 'admin'),
        config: { operation: 'admin.application.reassign' },
        schema: {
          ...route('adminReassignClaim', 'Hand an application in review to another reviewer'),
          params: SerialParams,
          body: Type.Object(
            { username: Type.String({ minLength: 1, maxLength: 64 }) },
            { additionalProperties: false },
          ),
          response: { ...ok(ClaimView), ...adminBodyErrors(...CLAIM_ERRORS, 'operatorNotFound') },
        },
      },
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
      {
        onRequest: reviewer,
        config: { operation: 'admin.application.open_for_review' },
        schema: {
          ...route(
            'adminOpenForReview',
            "Open a claimed application's identity fields and images for review",
            'The holder of the claim only. One audit row with the purpose and the fields shown; counts as one reveal towards `OPERATOR_REVEALS_PER_HOUR`. The card number is not included (reveal it on its own).',
          ),
          params: SerialParams,
          body: PurposeBody,
          response: {
            ...ok(
              Type.Object({
                busi_water_no: Type.String(),
                fields: Type.Record(Type.String(), Type.Unknown(), {
                  description: 'The identity fields and image URLs, in the clear.',
                }),
                claim_expires_at: Type.Integer(),
              }),
            ),
            ...adminBodyErrors(...CLAIM_ERRORS, 'fieldNotAllowed', 'fieldTooLong', 'revealsLimited'),
          },
        },
      },
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

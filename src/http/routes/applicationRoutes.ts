import type { TypedApp } from '../typedApp.ts';
import { Type } from 'typebox';
import { queryApplication, StatusView } from '../../applications/views/queryApplication.ts';
import { resolveSerial } from '../../applications/rules/applicationReference.ts';
import { ApplicationRequest, ExternalId, SerialNumber } from '../../record/schema.ts';
import { checkSubmission, submitApplication } from '../../applications/commands/submitApplication.ts';
import type { ServiceContext } from '../../context.ts';
import { ERRORS, type ErrorName } from '../../errors/catalogue.ts';
import { CONTACT_ERRORS } from '../../errors/catalogue/contactErrors.ts';
import { FIELD_ERRORS } from '../../errors/catalogue/fieldErrors.ts';
import { IDENTITY_ERRORS } from '../../errors/catalogue/identityErrors.ts';
import { guardPartnerRoutes, partnerOf } from '../partnerAuth.ts';
import { success } from '../envelope.ts';
import { idempotencyOf } from '../idempotency.ts';
import { PATHS } from '../paths.ts';
import { AppId, PARTNER_ERRORS, errorResponses, SuccessEnvelope, Timestamp } from '../schemas.ts';
import { registerAmendRoute } from './amendRoutes.ts';
import { registerLifecycleRoutes } from './lifecycleRoutes.ts';

/**
 * The submit body is checked by the domain (schema and domain checks together), not by Fastify:
 * its handlers hand `request.body` on to functions that take `unknown`, whatever its declared type.
 */
const checkedInDomain = () => (value: unknown) => ({ value });

/**
 * Field rules a submission can break: every 422 of the catalogue's field, identity and contact
 * families (the other 422s are about passwords, webhook URLs and list files), but the amend's own
 * and the rule of an operator's free text, which only those operations apply.
 */
const NOT_SUBMISSION_RULES: ErrorName[] = ['fieldNotRequested', 'fieldNotResendable', 'textCarriesNumber'];
const SUBMISSION_RULES = (
  Object.keys({ ...FIELD_ERRORS, ...IDENTITY_ERRORS, ...CONTACT_ERRORS }) as ErrorName[]
).filter((name) => ERRORS[name].status === 422 && !NOT_SUBMISSION_RULES.includes(name));

const SUBMIT_ERRORS: ErrorName[] = [...PARTNER_ERRORS, ...SUBMISSION_RULES];

const QueryRequest = Type.Object(
  {
    app_id: AppId,
    timestamp: Timestamp,
    busi_water_no: Type.Optional(SerialNumber),
    external_id: Type.Optional(ExternalId),
  },
  {
    additionalProperties: false,
    description: 'Names the application by `busi_water_no` or by `external_id` (one of them is required).',
  },
);

export function applicationRoutes(ctx: ServiceContext) {
  return async (app: TypedApp) => {
    guardPartnerRoutes(app, ctx);

    app.post(
      PATHS.apply,
      {
        config: { operation: 'application.submit', idempotent: true },
        validatorCompiler: checkedInDomain,
        schema: {
          operationId: 'submitApplication',
          summary: 'Submit a card application',
          description:
            'Validates every field (all problems at once), assigns a serial number and, unless one is requested, a card number, and stores the application. `code: 0` is returned only after the commit.',
          tags: ['applications'],
          body: ApplicationRequest,
          response: {
            200: SuccessEnvelope(Type.Object({ busi_water_no: SerialNumber })),
            ...errorResponses([...SUBMIT_ERRORS, 'duplicateApplication', 'cardNoTaken', 'externalIdTaken']),
          },
        },
      },
      async (request) =>
        success(
          request,
          await submitApplication(ctx, partnerOf(request), request.body, {
            idempotency: idempotencyOf(request),
          }),
        ),
    );

    app.post(
      PATHS.validate,
      {
        config: { operation: 'application.validate' },
        validatorCompiler: checkedInDomain,
        schema: {
          operationId: 'validateApplication',
          summary: 'Check an application without storing it',
          description:
            'Runs exactly the checks of the submit and answers what the submit would answer at this moment: every field problem (422), and the conflicts with what is stored (409: an active application for the same identity document, the partner reference in use, a requested card number taken). Nothing is stored and nothing is reserved: a submit that follows may still meet a conflict that arrived in between.',
          tags: ['applications'],
          body: ApplicationRequest,
          response: {
            200: SuccessEnvelope(Type.Object({ valid: Type.Literal(true) })),
            ...errorResponses([...SUBMIT_ERRORS, 'duplicateApplication', 'cardNoTaken', 'externalIdTaken']),
          },
        },
      },
      async (request) => {
        await checkSubmission(ctx, partnerOf(request), request.body);
        return success(request, { valid: true as const });
      },
    );

    app.post(
      PATHS.query,
      {
        config: { operation: 'application.query' },
        schema: {
          operationId: 'queryApplication',
          summary: 'Read the status of an application',
          description:
            "The partner's view of one of its own applications, named by `busi_water_no` or by the partner's `external_id`: its state, the reason (text and codes) of the last change, the masked card number and the history of its states. Another app's serial number or reference is answered as not found.",
          tags: ['applications'],
          body: QueryRequest,
          response: {
            200: SuccessEnvelope(StatusView),
            ...errorResponses([
              ...PARTNER_ERRORS,
              'fieldEmpty',
              'fieldTooLong',
              'fieldFormat',
              'applicationNotFound',
            ]),
          },
        },
      },
      async (request) => {
        const partner = partnerOf(request);
        const serial = await resolveSerial(ctx, partner, request.body);
        return success(request, await queryApplication(ctx, partner, serial));
      },
    );

    registerLifecycleRoutes(app, ctx);
    registerAmendRoute(app, ctx, SUBMIT_ERRORS);
  };
}

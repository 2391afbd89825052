import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { queryApplication } from '../../applications/queryApplication.ts';
import { ApplicationRequest } from '../../applications/schema.ts';
import { submitApplication, validationContext } from '../../applications/submitApplication.ts';
import { validateApplication } from '../../applications/validateApplication.ts';
import type { ServiceContext } from '../../context.ts';
import type { ErrorName } from '../../errors/catalogue.ts';
import { callerAuthentication, callerOf } from '../callerAuth.ts';
import { success } from '../envelope.ts';
import { PATHS } from '../paths.ts';
import { AppId, CALLER_ERRORS, errorResponses, SuccessEnvelope, Timestamp } from '../schemas.ts';

/** The submit body is checked by the domain (schema and domain checks together), not by Fastify. */
const checkedInDomain = () => (value: unknown) => ({ value });

/** Field rules a submission can break: every 422 entry of the catalogue. */
const SUBMIT_ERRORS: ErrorName[] = [
  ...CALLER_ERRORS,
  'fieldTooLong',
  'fieldEmpty',
  'fieldFormat',
  'fieldNotAllowed',
  'fieldTooManyItems',
  'fieldDuplicateItems',
  'dateInvalid',
  'dateInFuture',
  'underAge',
  'overAge',
  'documentExpired',
  'documentDatesOrder',
  'documentStartRequired',
  'certCheckDigit',
  'certBirthMismatch',
  'certSexMismatch',
  'certRegionUnknown',
  'certFormat',
  'passportFormat',
  'nameNotChinese',
  'nameEnNotCapitals',
  'nameEnPinyinMismatch',
  'phoneInvalid',
  'areaCodeInvalid',
  'emailInvalid',
  'addressParts',
  'addressDivisionUnknown',
  'urlNotHttps',
  'urlCredentials',
  'urlPrivateHost',
  'payPwdWeak',
  'codeUnknown',
  'otherTextRequired',
  'cardNoFormat',
  'cardNoBin',
  'cardNoLuhn',
];

const SerialNumber = Type.String({
  minLength: 1,
  maxLength: 32,
  description: 'Application serial number returned by the submit.',
  examples: ['01KAB3C4D5E6F7G8H9J0KMNPQR'],
});

const StatusView = Type.Object({
  busi_water_no: SerialNumber,
  status: Type.String({ description: 'Current state of the lifecycle.', examples: ['SUBMITTED'] }),
  status_reason: Type.Union([Type.String(), Type.Null()], {
    description: 'Reason of the last change, if any.',
  }),
  card_no_masked: Type.String({
    description: 'First 6 and last 4 digits; the rest `*`.',
    examples: ['539966******1234'],
  }),
  created_at: Type.Integer({ description: 'Unix seconds.' }),
  updated_at: Type.Integer({ description: 'Unix seconds.' }),
  history: Type.Array(
    Type.Object({
      status: Type.String(),
      at: Type.Integer({ description: 'Unix seconds.' }),
      reason: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
});

const QueryRequest = Type.Object(
  { app_id: AppId, timestamp: Timestamp, busi_water_no: SerialNumber },
  { additionalProperties: false },
);

const AUTH_HEADER = Type.Object({
  authorization: Type.String({ description: 'The access token, bare or as `Bearer <token>`.' }),
});

export function applicationRoutes(ctx: ServiceContext) {
  return async (app: FastifyInstance) => {
    app.addHook('preValidation', callerAuthentication(ctx));

    app.post(
      PATHS.apply,
      {
        config: { operation: 'application.submit' },
        validatorCompiler: checkedInDomain,
        schema: {
          operationId: 'submitApplication',
          summary: 'Submit a card application',
          description:
            'Validates every field (all problems at once), assigns a serial number and, unless one is requested, a card number, and stores the application. `code: 0` is returned only after the commit.',
          tags: ['applications'],
          headers: AUTH_HEADER,
          body: ApplicationRequest,
          response: {
            200: SuccessEnvelope(Type.Object({ busi_water_no: SerialNumber })),
            ...errorResponses([...SUBMIT_ERRORS, 'duplicateApplication', 'cardNoTaken']),
          },
        },
      },
      async (request) => success(request, await submitApplication(ctx, callerOf(request), request.body)),
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
            'Runs exactly the checks of the submit; answers with the same errors. Nothing is stored.',
          tags: ['applications'],
          headers: AUTH_HEADER,
          body: ApplicationRequest,
          response: {
            200: SuccessEnvelope(Type.Object({ valid: Type.Literal(true) })),
            ...errorResponses(SUBMIT_ERRORS),
          },
        },
      },
      async (request) => {
        validateApplication(request.body, validationContext(ctx));
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
          tags: ['applications'],
          headers: AUTH_HEADER,
          body: QueryRequest,
          response: {
            200: SuccessEnvelope(StatusView),
            ...errorResponses([...CALLER_ERRORS, 'fieldEmpty', 'fieldTooLong', 'applicationNotFound']),
          },
        },
      },
      async (request) => {
        const { busi_water_no } = request.body as { busi_water_no: string };
        return success(request, await queryApplication(ctx, callerOf(request), busi_water_no));
      },
    );
  };
}

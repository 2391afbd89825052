import type { TypedApp } from '../typedApp.ts';
import { Type, type TSchema } from 'typebox';
import { amendApplication } from '../../applications/commands/amendApplication.ts';
import { completeCorrections } from '../../subjects/subjectActions.ts';
import { StatusView } from '../../applications/views/queryApplication.ts';
import { ApplicationRequest, ExternalId, SerialNumber } from '../../record/schema.ts';
import type { ServiceContext } from '../../context.ts';
import type { ErrorName } from '../../errors/catalogue.ts';
import { partnerOf } from '../partnerAuth.ts';
import { success } from '../envelope.ts';
import { PATHS } from '../paths.ts';
import { AppId, errorResponses, SuccessEnvelope, Timestamp } from '../schemas.ts';

/** The amend body: the reference, and any of the submit's fields (only those asked for are taken). */
const fieldProperties: Record<string, TSchema> = {};
for (const [name, schema] of Object.entries(ApplicationRequest.properties)) {
  if (!['app_id', 'timestamp', 'external_id'].includes(name)) fieldProperties[name] = Type.Optional(schema);
}

const AmendRequest = Type.Object(
  {
    app_id: AppId,
    timestamp: Timestamp,
    busi_water_no: Type.Optional(SerialNumber),
    external_id: Type.Optional(ExternalId),
    ...fieldProperties,
  },
  {
    additionalProperties: false,
    description:
      'Names the application by `busi_water_no` or `external_id`, and carries exactly the fields the status view lists in `requested_fields`, each as the submit takes it.',
  },
);

export function registerAmendRoute(app: TypedApp, ctx: ServiceContext, submitErrors: ErrorName[]): void {
  app.post(
    PATHS.amend,
    {
      config: { operation: 'application.amend', idempotent: true },
      // Held to its schema like every operation (app_id and timestamp required and typed, each
      // field as the submit types it); which fields are allowed depends on the application, so the
      // domain then checks them against the request and the whole application again.
      schema: {
        operationId: 'amendApplication',
        summary: 'Send the information an operator asked for',
        description:
          'Only while the application is SUPPLEMENT_REQUIRED (otherwise 423 `amend_not_open`, naming its state), with exactly the fields of its `requested_fields` (a field not asked for is a 422, as is one asked for and missing). The whole application, as amended, is checked again as the submit checks it (also the duplicate-document rule and the card number); it is stored encrypted, recorded in the history with an `application.amended` event, and returns to IN_REVIEW. A correction request the operator answered with this request for information completes with it (`subject_request.completed`).',
        tags: ['applications'],
        body: AmendRequest,
        response: {
          200: SuccessEnvelope(StatusView),
          ...errorResponses([
            ...submitErrors,
            'fieldUnknown',
            'fieldNotRequested',
            'applicationNotFound',
            'amendNotOpen',
            'concurrentChange',
            'duplicateApplication',
            'cardNoTaken',
          ]),
        },
      },
    },
    async (request) => {
      const partner = partnerOf(request);
      // A correction request an operator answered with this request for information ends with it.
      const answered = (trx: Parameters<typeof completeCorrections>[1], serial: string) =>
        completeCorrections(ctx, trx, serial, { actor: `caller:${partner.appId}`, source: 'caller-api' });
      return success(
        request,
        await amendApplication(ctx, partner, request.body, { alsoInTransaction: answered }),
      );
    },
  );
}

import type { TypedApp } from '../typedApp.ts';
import { Type } from 'typebox';
import { CodeTables } from '../../codes/codeEntries.ts';
import type { ServiceContext } from '../../context.ts';
import { guardPartnerRoutes } from '../partnerAuth.ts';
import { success } from '../envelope.ts';
import { PATHS } from '../paths.ts';
import { AppId, PARTNER_ERRORS, errorResponses, SuccessEnvelope, Timestamp } from '../schemas.ts';

/** The code tables in force: the defaults, or those of CODES_FILE. */
export function codeRoutes(ctx: ServiceContext) {
  return async (app: TypedApp) => {
    guardPartnerRoutes(app, ctx);
    app.post(
      PATHS.codes,
      {
        config: { operation: 'codes.list' },
        schema: {
          operationId: 'listCodes',
          summary: 'The code tables in force',
          description:
            'Every code table the submit checks against (`country`, `position`, `profession`, `purpose`, `wealth_source`) and the `reason` table of the outcomes: the documented defaults, or those the operator configured. An entry with `other: true` asks for the matching free-text field.',
          tags: ['codes'],
          body: Type.Object({ app_id: AppId, timestamp: Timestamp }, { additionalProperties: false }),
          response: {
            200: SuccessEnvelope(CodeTables),
            ...errorResponses([...PARTNER_ERRORS, 'fieldEmpty', 'fieldTooLong']),
          },
        },
      },
      async (request) => success(request, ctx.codes.tables),
    );
  };
}

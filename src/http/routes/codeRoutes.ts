import type { TypedApp } from '../typedApp.ts';
import { Type } from 'typebox';
import type { ServiceContext } from '../../context.ts';
import { callerAuthentication } from '../callerAuth.ts';
import { success } from '../envelope.ts';
import { PATHS } from '../paths.ts';
import { AppId, CALLER_ERRORS, errorResponses, SuccessEnvelope, Timestamp } from '../schemas.ts';

const CodeEntry = Type.Object({
  code: Type.String(),
  name: Type.String({ description: 'English name.' }),
  name_zh: Type.String({ description: 'Chinese name.' }),
  other: Type.Boolean({ description: 'Marks the code meaning "other", which asks for a free-text field.' }),
});

// Immutable: the tables in force are shared read-only lists (no change to the JSON Schema).
const CodeTables = Type.Object({
  country: Type.Immutable(Type.Array(CodeEntry, { description: 'ISO 3166-1 alpha-2 countries supported.' })),
  position: Type.Immutable(Type.Array(CodeEntry)),
  profession: Type.Immutable(
    Type.Array(CodeEntry, { description: 'Sections of GB/T 4754-2017, plus other.' }),
  ),
  purpose: Type.Immutable(Type.Array(CodeEntry)),
  wealth_source: Type.Immutable(Type.Array(CodeEntry)),
  reason: Type.Immutable(
    Type.Array(CodeEntry, {
      description:
        'Why an operator rejected an application, asked for more information or had a shipment returned: the `reason_codes` of the status view, the history and the events.',
    }),
  ),
});

/** The code tables in force: the defaults, or those of CODES_FILE. */
export function codeRoutes(ctx: ServiceContext) {
  return async (app: TypedApp) => {
    app.addHook('preValidation', callerAuthentication(ctx));
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
            ...errorResponses([...CALLER_ERRORS, 'fieldEmpty', 'fieldTooLong']),
          },
        },
      },
      async (request) => success(request, ctx.codes.tables),
    );
  };
}

import type { TypedApp } from '../typedApp.ts';
import { Type } from 'typebox';
import { EVENT_TYPES } from '../../record/lifecycle.ts';
import type { ServiceContext } from '../../context.ts';
import { EventPage, listEvents } from '../../applications/views/listEvents.ts';
import { guardPartnerRoutes, partnerOf } from '../partnerAuth.ts';
import { success } from '../envelope.ts';
import { PATHS } from '../paths.ts';
import { AppId, PARTNER_ERRORS, errorResponses, SuccessEnvelope, Timestamp } from '../schemas.ts';

const ListEventsBody = Type.Object(
  {
    app_id: AppId,
    timestamp: Timestamp,
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: '`next_cursor` of the previous page.' }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, description: 'Page size; 20 by default.' }),
    ),
    type: Type.Optional(Type.Enum([...EVENT_TYPES], { description: 'Only events of this type.' })),
    busi_water_no: Type.Optional(
      Type.String({ minLength: 1, maxLength: 32, description: 'Only the events of this application.' }),
    ),
  },
  { additionalProperties: false },
);

/** A partner's own events, oldest first, to reconcile with what its webhooks received. */
export function eventRoutes(ctx: ServiceContext) {
  return async (app: TypedApp) => {
    guardPartnerRoutes(app, ctx);
    app.post(
      PATHS.events,
      {
        config: { operation: 'events.list' },
        schema: {
          operationId: 'listEvents',
          summary: "List the partner's events",
          description:
            "Every state change of the partner's applications, submission included, oldest first, a page at a time. The same objects are the bodies of the webhooks; use this list to reconcile.",
          tags: ['events'],
          body: ListEventsBody,
          response: {
            200: SuccessEnvelope(EventPage),
            ...errorResponses([
              ...PARTNER_ERRORS,
              'fieldEmpty',
              'fieldTooLong',
              'fieldFormat',
              'fieldNotAllowed',
            ]),
          },
        },
      },
      async (request) => success(request, await listEvents(ctx, partnerOf(request), request.body)),
    );
  };
}

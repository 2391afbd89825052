import type { TypedApp } from '../typedApp.ts';
import { Type } from 'typebox';
import { EVENT_TYPES, STATUSES } from '../../applications/lifecycle.ts';
import type { ServiceContext } from '../../context.ts';
import { DocumentOutcomes } from '../../documents/documentView.ts';
import { listEvents } from '../../events/listEvents.ts';
import { callerAuthentication, callerOf } from '../callerAuth.ts';
import { success } from '../envelope.ts';
import { PATHS } from '../paths.ts';
import { AppId, CALLER_ERRORS, errorResponses, SuccessEnvelope, Timestamp } from '../schemas.ts';

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

export const EventView = Type.Object({
  id: Type.String({ description: 'The event id; the `webhook-id` header of its deliveries.' }),
  type: Type.Enum([...EVENT_TYPES], {
    description:
      '`application.` and the state moved into, in lower case; `application.amended`; `application.documents_kept` and `application.document_failed` (no move: what became of the documents).',
    examples: ['application.approved'],
  }),
  created_at: Type.Integer({ description: 'Unix seconds.' }),
  data: Type.Object({
    busi_water_no: Type.String({ description: 'The serial number of the application.' }),
    sequence: Type.Integer({
      description: "1, 2, 3... per application: order an application's events by it.",
    }),
    status: Type.Enum([...STATUSES], { description: 'The state after the change.' }),
    previous_status: Type.Union([Type.Enum([...STATUSES]), Type.Null()], {
      description: 'The state before the change; null for the submission.',
    }),
    reason: Type.Union([Type.String(), Type.Null()], { description: 'Why, when the change has a reason.' }),
    reason_codes: Type.Array(Type.String(), {
      description:
        'Codes of the `reason` table (see the codes endpoint) given with the change; empty when none.',
    }),
    card_no_masked: Type.String({ description: 'First 6 and last 4 digits; the rest `*`.' }),
    external_id: Type.Union([Type.String(), Type.Null()], {
      description: "The partner's own reference of the application, or null.",
    }),
    requested_fields: Type.Optional(
      Type.Array(Type.String(), {
        description: 'application.supplement_required: the fields to send again with the amend.',
      }),
    ),
    amended_fields: Type.Optional(
      Type.Array(Type.String(), { description: 'application.amended: the fields sent again.' }),
    ),
    changed_fields: Type.Optional(
      Type.Array(Type.String(), { description: 'application.amended: the fields whose value changed.' }),
    ),
    documents: Type.Optional({
      ...DocumentOutcomes,
      description:
        'application.documents_kept: every image the application carries, kept; application.document_failed: the field that failed for good, with its reason.',
    }),
  }),
});

/** A caller's own events, oldest first, to reconcile with what its webhooks received. */
export function eventRoutes(ctx: ServiceContext) {
  return async (app: TypedApp) => {
    app.addHook('preValidation', callerAuthentication(ctx));
    app.post(
      PATHS.events,
      {
        config: { operation: 'events.list' },
        schema: {
          operationId: 'listEvents',
          summary: "List the caller's events",
          description:
            "Every state change of the caller's applications, submission included, oldest first, a page at a time. The same objects are the bodies of the webhooks; use this list to reconcile.",
          tags: ['events'],
          body: ListEventsBody,
          response: {
            200: SuccessEnvelope(
              Type.Object({
                items: Type.Array(EventView),
                next_cursor: Type.Union([Type.String(), Type.Null()], {
                  description: 'Pass it as `cursor` for the next page; null on the last page.',
                }),
              }),
            ),
            ...errorResponses([
              ...CALLER_ERRORS,
              'fieldEmpty',
              'fieldTooLong',
              'fieldFormat',
              'fieldNotAllowed',
            ]),
          },
        },
      },
      async (request) => success(request, await listEvents(ctx, callerOf(request), request.body)),
    );
  };
}

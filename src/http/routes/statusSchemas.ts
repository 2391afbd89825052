import { Type } from 'typebox';
import { STATUSES } from '../../applications/lifecycle.ts';
import { DocumentOutcomes } from '../../documents/documentView.ts';

/** The caller's view of an application, shared by query, list, cancel and simulate. */

export const SerialNumber = Type.String({
  minLength: 1,
  maxLength: 32,
  description: 'Application serial number returned by the submit (32 characters of `[0-9A-Z]`).',
  examples: ['01M7Q5CQG03QZV91NCTJX2D43J5KC6E8'],
});

/** Codes of the `reason` table (see the codes endpoint), for a partner's own screens and statistics. */
export const ReasonCodes = (description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 32 }), {
    description,
    examples: [['document_unreadable']],
  });

export const StatusView = Type.Object({
  busi_water_no: SerialNumber,
  external_id: Type.Union([Type.String(), Type.Null()], {
    description: "The partner's own reference given at the submit, or null.",
  }),
  status: Type.Enum([...STATUSES], {
    description: 'Current state of the lifecycle.',
    examples: ['SUBMITTED'],
  }),
  status_reason: Type.Union([Type.String(), Type.Null()], {
    description: 'Reason of the last change, if any.',
  }),
  reason_codes: ReasonCodes('Codes of the `reason` table given with the last change; empty when none.'),
  requested_fields: Type.Array(Type.String(), {
    description:
      'While SUPPLEMENT_REQUIRED: the fields of the submit to send again with the amend; empty otherwise.',
    examples: [['id_card_img']],
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
      reason_codes: ReasonCodes('Codes of the `reason` table given with this change.'),
      requested_fields: Type.Optional(
        Type.Array(Type.String(), { description: 'SUPPLEMENT_REQUIRED: the fields asked for.' }),
      ),
      amended_fields: Type.Optional(
        Type.Array(Type.String(), { description: 'An amendment: the fields sent again.' }),
      ),
      changed_fields: Type.Optional(
        Type.Array(Type.String(), { description: 'An amendment: the fields whose value changed.' }),
      ),
      details: Type.Optional(
        Type.Object(
          {
            carrier: Type.String(),
            tracking_no: Type.String(),
            tracking_url: Type.Optional(Type.String({ description: 'A link to follow the shipment.' })),
          },
          {
            description: 'Only for SHIPPED: the carrier, the tracking number and, if given, a tracking link.',
          },
        ),
      ),
    }),
  ),
  documents: DocumentOutcomes,
});

import { Type, type Static, type TSchema } from 'typebox';
import type { TransitionDetail } from '../../record/lifecycle.ts';
import { MAX_REASON_CODES } from '../../applications/rules/reasonCodes.ts';
import { AMENDABLE_FIELDS, NOT_RESENDABLE, SUBMIT_FIELDS } from '../../applications/rules/requestedFields.ts';
import { LIMITS } from '../../record/schema.ts';
import { DETAIL_LIMIT, TRACKING_URL_LIMIT } from '../../applications/commands/transitionApplication.ts';
import { ACKNOWLEDGEMENT_NOTE_LIMIT } from '../../applications/commands/approvalGate.ts';
import { FACTOR_CODES } from '../../policies/riskPolicy.ts';

/** The body of an operator's move of an application (approve, reject, ship, ...). */

export const Reason = Type.String({
  minLength: 1,
  maxLength: LIMITS.freeText,
  description: 'Why; shown to the partner. Must not contain identity or card numbers.',
});
const Version = Type.Integer({
  minimum: 1,
  maximum: 2_147_483_647,
  description: 'The version last seen; if the application changed since, the move is refused (409).',
});

/** Codes of the `reason` table: checked against the table in force by the domain. */
export const ReasonCodesBody = Type.Array(Type.String({ minLength: 1, maxLength: 32 }), {
  minItems: 1,
  maxItems: MAX_REASON_CODES,
  description: 'Codes of the `reason` table (see the codes endpoint); shown to the partner.',
  examples: [['document_unreadable']],
});

// Every field of the submit passes the schema, so that one a partner cannot send again is refused
// by name (422 `field_not_resendable`) rather than as a value outside a list.
export const RequestedFields = Type.Array(Type.Enum([...SUBMIT_FIELDS]), {
  minItems: 1,
  maxItems: SUBMIT_FIELDS.length,
  description: `The fields of the submit the partner is to send again with its amend: any of ${AMENDABLE_FIELDS.length} of them, not ${NOT_RESENDABLE.map((name) => `\`${name}\``).join(' or ')} (422 \`field_not_resendable\`, naming it).`,
  examples: [['id_card_img', 'id_card_back_img']],
});

const SHIPMENT_DETAILS = {
  carrier: Type.String({ minLength: 1, maxLength: DETAIL_LIMIT, description: 'Carrier of the shipment.' }),
  tracking_no: Type.String({
    minLength: 1,
    maxLength: DETAIL_LIMIT,
    description: 'Tracking number of the shipment.',
  }),
  tracking_url: Type.String({
    minLength: 1,
    maxLength: TRACKING_URL_LIMIT,
    description: 'A link to follow the shipment (absolute https URL); shown to the partner.',
  }),
};

/** An approve's word on the open factors of the risk assessment (docs/RISK.md, "Approval"). */
const RiskAcknowledgements = Type.Array(
  Type.Object(
    {
      code: Type.Enum([...FACTOR_CODES], { description: 'An open factor of the latest risk assessment.' }),
      note: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: ACKNOWLEDGEMENT_NOTE_LIMIT,
          description:
            'Why you approve despite it: required for a high factor, optional otherwise. Kept in the audit trail, never shown to the partner. Must not contain identity or card numbers.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  {
    maxItems: FACTOR_CODES.length,
    description:
      "One entry per open factor of the application's latest risk assessment that you acknowledge: a note is required for each high factor (its policy tier is high or prohibited, or its weight alone reaches the high band), else 422 `risk_acknowledgement_missing`. Entries for factors not open are ignored. Operators only.",
  },
);

/** The body of any move, as its handler reads it: which fields a move requires depends on its target. */
export type MoveBody = {
  reason?: Static<typeof Reason>;
  reason_codes?: Static<typeof ReasonCodesBody>;
  version?: Static<typeof Version>;
  requested_fields?: Static<typeof RequestedFields>;
  risk_acknowledgements?: Static<typeof RiskAcknowledgements>;
} & { [K in TransitionDetail]?: Static<(typeof SHIPMENT_DETAILS)[K]> };

/**
 * The body of a move: a reason where the lifecycle requires one, reason codes where it requires
 * them, carrier and tracking where it does.
 */
export function transitionBody(
  reasonRequired: boolean,
  detailsRequired: readonly TransitionDetail[],
  codesRequired = false,
  fieldsRequired = false,
  detailsOptional: readonly TransitionDetail[] = [],
  riskAcknowledgements = false,
) {
  const properties: Record<string, TSchema> = {
    reason: reasonRequired ? Reason : Type.Optional(Reason),
    reason_codes: codesRequired ? ReasonCodesBody : Type.Optional(ReasonCodesBody),
    version: Type.Optional(Version),
  };
  if (fieldsRequired) properties['requested_fields'] = RequestedFields;
  if (riskAcknowledgements) properties['risk_acknowledgements'] = Type.Optional(RiskAcknowledgements);
  for (const name of detailsOptional) properties[name] = Type.Optional(SHIPMENT_DETAILS[name]);
  for (const name of detailsRequired) properties[name] = SHIPMENT_DETAILS[name];
  return Type.Object(properties, { additionalProperties: false });
}

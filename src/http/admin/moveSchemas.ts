import { Type, type Static, type TSchema } from 'typebox';
import type { TransitionDetail } from '../../record/lifecycle.ts';
import { MAX_REASON_CODES } from '../../applications/rules/reasonCodes.ts';
import { AMENDABLE_FIELDS } from '../../applications/rules/requestedFields.ts';
import { LIMITS } from '../../record/schema.ts';
import { DETAIL_LIMIT, TRACKING_URL_LIMIT } from '../../applications/commands/transitionApplication.ts';

/** The body of an operator's move of an application (approve, reject, ship, ...). */

const Reason = Type.String({
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

const RequestedFields = Type.Array(Type.Enum([...AMENDABLE_FIELDS]), {
  minItems: 1,
  maxItems: AMENDABLE_FIELDS.length,
  description: 'The fields of the submit the partner is to send again with its amend.',
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

/** The body of any move, as its handler reads it: which fields a move requires depends on its target. */
export type MoveBody = {
  reason?: Static<typeof Reason>;
  reason_codes?: Static<typeof ReasonCodesBody>;
  version?: Static<typeof Version>;
  requested_fields?: Static<typeof RequestedFields>;
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
) {
  const properties: Record<string, TSchema> = {
    reason: reasonRequired ? Reason : Type.Optional(Reason),
    reason_codes: codesRequired ? ReasonCodesBody : Type.Optional(ReasonCodesBody),
    version: Type.Optional(Version),
  };
  if (fieldsRequired) properties['requested_fields'] = RequestedFields;
  for (const name of detailsOptional) properties[name] = Type.Optional(SHIPMENT_DETAILS[name]);
  for (const name of detailsRequired) properties[name] = SHIPMENT_DETAILS[name];
  return Type.Object(properties, { additionalProperties: false });
}

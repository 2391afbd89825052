import type { ServiceContext } from '../../context.ts';
import { REVEAL_PURPOSES } from '../../applications/rules/revealPolicy.ts';
import { OPERATOR_ACTIONS, STATUSES, TRANSITIONS } from '../../record/lifecycle.ts';
import { REVEALABLE_FIELDS } from '../../record/masking.ts';
import { AMENDABLE_FIELDS } from '../../applications/rules/requestedFields.ts';
import { RISK_FLAG_CODES } from '../../record/riskFlags.ts';
import { ACTING_ROLE, ROLES } from '../../access/roles.ts';

/**
 * What the console needs to know of the service, taken from the sources of truth when it is served
 * rather than copied into the front end: the lifecycle table (which buttons a state shows), the
 * fields that can be revealed, the roles and the code tables in force. Nothing here is secret: the
 * same facts are in the OpenAPI document and the codes endpoint.
 */
export interface ConsoleMeta {
  statuses: readonly string[];
  /** Per state, the moves operators make: the admin API's verb, the target, what it needs. */
  moves: Record<
    string,
    {
      action: string;
      to: string;
      reason_required: boolean;
      codes_required: boolean;
      fields_required: boolean;
      details_required: string[];
      details_optional: string[];
    }[]
  >;
  acting_role: string;
  roles: readonly string[];
  revealable_fields: readonly string[];
  reveal_purposes: readonly string[];
  sla_seconds: Readonly<Record<string, number>>;
  /** The fields an operator may ask a partner to send again. */
  amendable_fields: readonly string[];
  /** Days a partner has to amend before the application expires. */
  supplement_days: number;
  risk_flags: readonly string[];
  codes: ServiceContext['codes']['tables'];
}

export function consoleMeta(ctx: ServiceContext): ConsoleMeta {
  const actionOf = new Map<string, string>(
    Object.entries(OPERATOR_ACTIONS).map(([action, to]) => [to, action]),
  );
  const moves: ConsoleMeta['moves'] = {};
  for (const status of STATUSES) {
    moves[status] = TRANSITIONS[status]
      .filter((rule) => rule.by.includes('operator') && actionOf.has(rule.to))
      .map((rule) => ({
        action: actionOf.get(rule.to)!,
        to: rule.to,
        reason_required: rule.reasonRequired,
        codes_required: rule.codesRequired === true,
        fields_required: rule.fieldsRequired === true,
        details_required: [...(rule.detailsRequired ?? [])],
        details_optional: [...(rule.detailsOptional ?? [])],
      }));
  }
  return {
    statuses: STATUSES,
    moves,
    acting_role: ACTING_ROLE,
    roles: ROLES,
    revealable_fields: REVEALABLE_FIELDS,
    reveal_purposes: REVEAL_PURPOSES,
    sla_seconds: ctx.config.operators.slaSeconds,
    amendable_fields: AMENDABLE_FIELDS,
    supplement_days: ctx.config.supplementDays,
    risk_flags: RISK_FLAG_CODES,
    codes: ctx.codes.tables,
  };
}

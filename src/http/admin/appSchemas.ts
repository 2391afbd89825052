import { Type } from 'typebox';
import { RISK_LEVELS } from '../../policies/riskPolicy.ts';
import { LIMITS } from '../../record/schema.ts';
import { RISK_LEVEL_REASON_LIMIT } from '../../risk/partnerRiskLevel.ts';

/** The apps (the partners that call the API): their administration and their view. */

export const AppIdParams = Type.Object(
  { app_id: Type.String({ minLength: 1, maxLength: LIMITS.appId }) },
  { additionalProperties: false },
);
export const AppBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 128, description: 'Display name of the partner.' }) },
  { additionalProperties: false },
);
export const AppView = Type.Object({
  app_id: Type.String(),
  name: Type.String(),
  status: Type.String(),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
});

/** An admin sets a partner's risk level (the `partner_risk` factor of its applications' ratings). */
export const AppRiskLevelBody = Type.Object(
  {
    level: Type.Enum([...RISK_LEVELS], {
      description: "The partner's risk level: the partner_risk factor of each of its applications' ratings.",
    }),
    reason: Type.String({
      minLength: 1,
      maxLength: RISK_LEVEL_REASON_LIMIT,
      description: 'Why (kept in the audit trail).',
    }),
  },
  { additionalProperties: false },
);
export const AppRiskLevelView = Type.Object({
  app_id: Type.String(),
  risk_level: Type.Enum([...RISK_LEVELS]),
  previous_risk_level: Type.Enum([...RISK_LEVELS]),
  reassessing: Type.Integer({
    description: 'Applications of the app not yet final, queued to be assessed again (none if unchanged).',
  }),
});

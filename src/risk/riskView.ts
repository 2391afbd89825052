import type { Kysely } from 'kysely';
import { Type, type Static } from 'typebox';
import type { Database, RiskAssessmentsTable } from '../store/tables.ts';
import { unixSeconds } from '../record/dates.ts';
import { FACTOR_CODES, ROUTINGS, TIERS } from '../policies/riskPolicy.ts';
import { assessmentsOf } from './riskRepository.ts';

/**
 * An application's risk rating as operators see it: the latest assessment, its factors and their
 * evidence. Never shown to the partner (no tipping off): only the admin API and the console read it.
 */
export const RiskView = Type.Object(
  {
    tier: Type.Enum(TIERS),
    score: Type.Integer(),
    routing: Type.Enum(ROUTINGS),
    policy_version: Type.String({ description: 'The hash of the risk policy it was made under.' }),
    assessed_at: Type.Integer({ description: 'Unix seconds.' }),
    factors: Type.Array(
      Type.Object({
        code: Type.Enum(FACTOR_CODES),
        weight: Type.Integer(),
        evidence: Type.Object(
          {},
          { additionalProperties: true, description: 'What made it fire; no identity value.' },
        ),
        blocks_approval: Type.Optional(Type.Boolean()),
      }),
    ),
  },
  { description: "The latest risk assessment (docs/RISK.md); null before the application's evidence is in." },
);
export type RiskView = Static<typeof RiskView>;

export function riskViewOf(row: RiskAssessmentsTable): RiskView {
  return {
    tier: row.tier as RiskView['tier'],
    score: row.score,
    routing: row.routing as RiskView['routing'],
    policy_version: row.policy_version,
    assessed_at: unixSeconds(row.assessed_at),
    factors: JSON.parse(row.factors) as RiskView['factors'],
  };
}

/** The application's latest assessment, or null when none is made yet. */
export async function latestRisk(db: Kysely<Database>, busiWaterNo: string): Promise<RiskView | null> {
  const [latest] = await assessmentsOf(db, busiWaterNo, 1);
  return latest === undefined ? null : riskViewOf(latest);
}

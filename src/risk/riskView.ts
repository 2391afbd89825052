import type { Kysely } from 'kysely';
import { Type, type Static } from 'typebox';
import type { Database, RiskAssessmentsTable } from '../store/tables.ts';
import { unixSeconds } from '../record/dates.ts';
import { FACTOR_CODES, ROUTINGS, TIERS, type RiskPolicy } from '../policies/riskPolicy.ts';
import { blocksApproval, isHighFactor } from './approvalDecision.ts';
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
        blocks_approval: Type.Optional(
          Type.Boolean({
            description:
              'While it is open, no approval: the stored factor says so, or the policy in force does.',
          }),
        ),
        needs_note: Type.Boolean({
          description:
            "A high factor: the policy in force forces `high` or `prohibited` for it, or its weight alone reaches the high band; an approval must carry a note for it (the console's approve dialog asks for one).",
        }),
      }),
    ),
  },
  { description: "The latest risk assessment (docs/RISK.md); null before the application's evidence is in." },
);
export type RiskView = Static<typeof RiskView>;

type StoredFactor = Omit<RiskView['factors'][number], 'needs_note'>;

/**
 * The stored assessment, each factor marked as an approval weighs it under the policy in force:
 * blocking (stored so, or the policy says so) and needing a note (a high factor).
 */
export function riskViewOf(row: RiskAssessmentsTable, policy: RiskPolicy): RiskView {
  const stored = JSON.parse(row.factors) as StoredFactor[];
  return {
    tier: row.tier as RiskView['tier'],
    score: row.score,
    routing: row.routing as RiskView['routing'],
    policy_version: row.policy_version,
    assessed_at: unixSeconds(row.assessed_at),
    // The same rules the approval applies (approvalDecision.ts), so the console asks for what it will weigh.
    factors: stored.map((factor) => {
      const open = { ...factor, evidence: factor.evidence as Record<string, unknown> };
      return {
        ...factor,
        ...(blocksApproval(policy, open) ? { blocks_approval: true } : {}),
        needs_note: isHighFactor(policy, open),
      };
    }),
  };
}

/** The application's latest assessment, or null when none is made yet. */
export async function latestRisk(
  db: Kysely<Database>,
  busiWaterNo: string,
  policy: RiskPolicy,
): Promise<RiskView | null> {
  const [latest] = await assessmentsOf(db, busiWaterNo, 1);
  return latest === undefined ? null : riskViewOf(latest, policy);
}

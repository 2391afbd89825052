import type { ServiceContext } from '../context.ts';
import { parseRiskPolicy } from '../policies/riskPolicy.ts';
import { assess, type Assessment, type RiskEvidence } from './assessment.ts';
import { assessmentsOf, findPolicy } from './riskRepository.ts';
import { riskViewOf, type RiskView } from './riskView.ts';

export interface Explanation {
  busi_water_no: string;
  /** The assessment as stored. */
  stored: RiskView;
  /** The same evidence weighed again by the policy it names, read back from the store. */
  recomputed: Assessment;
  /** Whether the two agree on tier, score, routing and every factor. */
  same: boolean;
}

/**
 * `cardapply risk explain`: an auditor's check that a stored assessment follows from its stored
 * evidence and the policy it names. Nothing is read from the policy in force or from the
 * application as it is now: only what the assessment kept.
 */
export async function explainAssessment(ctx: ServiceContext, busiWaterNo: string): Promise<Explanation> {
  const [latest] = await assessmentsOf(ctx.store.db, busiWaterNo, 1);
  if (latest === undefined) throw new Error(`${busiWaterNo}: no risk assessment is stored`);
  const policyRow = await findPolicy(ctx.store.db, latest.policy_version);
  if (policyRow === undefined)
    throw new Error(`risk policy ${latest.policy_version} is not kept in the store`);
  const policy = parseRiskPolicy(policyRow.content, `version ${latest.policy_version}`);
  if (policy.version !== latest.policy_version)
    throw new Error(`risk policy ${latest.policy_version}: its kept text hashes to ${policy.version}`);
  const recomputed = assess(policy.policy, JSON.parse(latest.evidence) as RiskEvidence);
  const stored = riskViewOf(latest, policy.policy);
  const same =
    recomputed.tier === stored.tier &&
    recomputed.score === stored.score &&
    recomputed.routing === stored.routing &&
    JSON.stringify(recomputed.factors) === latest.factors;
  return { busi_water_no: busiWaterNo, stored, recomputed, same };
}

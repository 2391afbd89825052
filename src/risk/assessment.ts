import {
  FACTOR_CODES,
  type FactorCode,
  type RiskLevel,
  type RiskPolicy,
  type Routing,
  type Tier,
} from '../policies/riskPolicy.ts';

/**
 * The rating itself, with no store: the evidence an application's assessment gathered
 * (riskEvidence.ts), weighed by a policy. The same evidence and the same policy give the same
 * assessment, which is what `cardapply risk explain` and `replay` rely on. Evidence never carries
 * an identity value: which fields, how many, list references and other serials, never a name, a
 * number or an address.
 */

export interface RiskEvidence {
  /** Screening hits not cleared by two operators: the list's reference, never the applicant. */
  openSanctionsHits: { list: string; reference: string }[];
  /**
   * PEP matches (screening's PEP lists): the list, the entry's reference, PEP or relative/close
   * associate, and the first position the list gives (list data, never the applicant's).
   */
  pepMatches: { list: string; reference: string; role: 'pep' | 'rca'; position: string | null }[];
  /** Each image field's document as it stands. */
  documents: {
    field: string;
    state: 'pending' | 'kept' | 'failed';
    reason: string | null;
    required: boolean;
  }[];
  /** Image fields whose kept bytes another applicant's active application holds too. */
  reusedImages: { field: string; serials: string[] }[];
  /** Other applicants (other identity documents) who gave the same mobile number, and e-mail. */
  sharedMobile: string[];
  sharedEmail: string[];
  country: string;
  profession: string;
  /** List fields answered "other" without the optional text (`purpose`, `wealth_source`). */
  otherTextMissing: string[];
  /** Days until the identity document expires; null when it does not. */
  documentDaysLeft: number | null;
  /** The risk level an operator set for the partner (its app); `low` unless set. */
  partnerRiskLevel: RiskLevel;
}

export interface FiredFactor {
  code: FactorCode;
  weight: number;
  /** What made it fire, as an operator may read it: no identity value. */
  evidence: Record<string, unknown>;
  /** Set when the policy says it refuses an approval while open. */
  blocks_approval?: true;
}

export interface Assessment {
  tier: Tier;
  score: number;
  routing: Routing;
  factors: FiredFactor[];
}

const TIER_ORDER: Readonly<Record<Tier, number>> = { low: 0, medium: 1, high: 2, prohibited: 3 };

const higher = (a: Tier, b: Tier | undefined): Tier =>
  b !== undefined && TIER_ORDER[b] > TIER_ORDER[a] ? b : a;

/** The factors that fire on `evidence`, in the policy's order (FACTOR_CODES), each with its evidence. */
function firedFactors(policy: RiskPolicy, evidence: RiskEvidence): Map<FactorCode, Record<string, unknown>> {
  const fired = new Map<FactorCode, Record<string, unknown>>();
  if (evidence.openSanctionsHits.length > 0) fired.set('sanctions_hit', { hits: evidence.openSanctionsHits });
  if (evidence.pepMatches.length > 0) fired.set('pep_match', { matches: evidence.pepMatches });
  const missing = evidence.documents.filter((d) => d.required && d.state !== 'kept').map((d) => d.field);
  if (missing.length > 0) fired.set('required_image_missing', { fields: missing });
  const refused = evidence.documents.filter((d) => d.state === 'failed');
  if (refused.length > 0)
    fired.set('image_refused', { images: refused.map((d) => ({ field: d.field, reason: d.reason })) });
  if (evidence.reusedImages.length > 0) fired.set('image_reused', { images: evidence.reusedImages });
  if (evidence.sharedMobile.length > 0)
    fired.set('shared_mobile', {
      applications: evidence.sharedMobile.length,
      serials: evidence.sharedMobile,
    });
  if (evidence.sharedEmail.length > 0)
    fired.set('shared_email', { applications: evidence.sharedEmail.length, serials: evidence.sharedEmail });
  const countries = policy.countries;
  const listed = { country: evidence.country, as_of: countries.as_of };
  if (countries.call_for_action.includes(evidence.country)) fired.set('country_call_for_action', listed);
  else if (countries.increased_monitoring.includes(evidence.country))
    fired.set('country_increased_monitoring', listed);
  const professionLevel = policy.professions[evidence.profession] ?? 'low';
  if (professionLevel !== 'low')
    fired.set('profession_risk', { profession: evidence.profession, level: professionLevel });
  if (evidence.otherTextMissing.length > 0)
    fired.set('other_text_missing', { fields: evidence.otherTextMissing });
  const days = evidence.documentDaysLeft;
  if (days !== null && days <= policy.factors.document_expiring.days)
    fired.set('document_expiring', { days_left: days });
  if (evidence.partnerRiskLevel !== 'low') fired.set('partner_risk', { level: evidence.partnerRiskLevel });
  return fired;
}

/** A factor's weight and the tier it forces, as the policy sets them (by level where it has levels). */
function weighed(policy: RiskPolicy, code: FactorCode, evidence: Record<string, unknown>) {
  if (code === 'profession_risk' || code === 'partner_risk') {
    const factor = policy.factors[code];
    const level = evidence['level'] as RiskLevel;
    return { weight: factor.weight_by_level[level], tier: factor.tier_by_level?.[level], blocks: false };
  }
  const factor = policy.factors[code];
  return { weight: factor.weight, tier: factor.tier, blocks: factor.blocks_approval === true };
}

export function assess(policy: RiskPolicy, evidence: RiskEvidence): Assessment {
  const fired = firedFactors(policy, evidence);
  const factors: FiredFactor[] = [];
  let score = 0;
  let forced: Tier = 'low';
  for (const code of FACTOR_CODES) {
    const found = fired.get(code);
    if (found === undefined) continue;
    const { weight, tier, blocks } = weighed(policy, code, found);
    score += weight;
    forced = higher(forced, tier);
    factors.push({ code, weight, evidence: found, ...(blocks ? { blocks_approval: true as const } : {}) });
  }
  const bands = policy.tiers;
  const byScore: Tier =
    score >= bands.prohibited
      ? 'prohibited'
      : score >= bands.high
        ? 'high'
        : score >= bands.medium
          ? 'medium'
          : 'low';
  const tier = higher(byScore, forced);
  return { tier, score, routing: routingOf(policy, tier, evidence, factors), factors };
}

/**
 * The policy's routing of the tier, but straight-through only where nothing is open: every image
 * kept, no screening hit, no factor at all (PRODUCT.md); otherwise the application goes to review.
 * A politically exposed person always takes enhanced review (two operators) unless the policy
 * declines: FATF Recommendation 12 asks for senior approval of a PEP relationship, whatever the
 * tier's own routing says.
 */
function routingOf(policy: RiskPolicy, tier: Tier, evidence: RiskEvidence, factors: FiredFactor[]): Routing {
  const routing = policy.routing[tier];
  if (evidence.pepMatches.length > 0 && routing !== 'decline') return 'enhanced_review';
  if (routing !== 'auto_approve') return routing;
  // A screening hit or a PEP match is a factor too: no factor means none of them.
  const clean = tier === 'low' && factors.length === 0 && evidence.documents.every((d) => d.state === 'kept');
  return clean ? 'auto_approve' : 'review';
}

import type { FactorCode, RiskLevel, RiskPolicy, Routing, Tier } from '../policies/riskPolicy.ts';

/**
 * What an operator's approve does, weighed against the application's latest risk assessment
 * (docs/RISK.md, "Approval"), with no store: the caller reads the assessment and any pending
 * request, and records what this decides.
 *
 * In order: a factor that blocks approval refuses it; an open high factor without a note refuses
 * it; an application routed to `enhanced_review` needs two operators: the first approve asks, a
 * second operator's approve confirms, the same operator's again is refused. Each approve is
 * weighed alone, so the confirming operator acknowledges the high factors too.
 */

/** A factor of the assessment as stored (risk/assessment.ts's FiredFactor). */
export interface OpenFactor {
  code: FactorCode;
  weight: number;
  evidence: Record<string, unknown>;
  blocks_approval?: boolean | undefined;
}

/** The operator's word on one open factor: a note is needed for a high one, optional otherwise. */
export interface RiskAcknowledgement {
  code: FactorCode;
  note?: string | undefined;
}

/** An approval asked for by a first operator, waiting for a second (enhanced review). */
export interface PendingApproval {
  requested_by: string;
  /** The assessment it was asked on: a newer one means the evidence changed since. */
  assessment_id: string;
}

export interface ApprovalInput {
  /** The policy in force: which factors block, which are high. */
  policy: RiskPolicy;
  /** The latest assessment, or null while none is made (nothing to weigh yet). */
  assessment: { id: string; routing: Routing; factors: readonly OpenFactor[] } | null;
  acknowledgements: readonly RiskAcknowledgement[];
  pending: PendingApproval | null;
  /** The approving operator's username. */
  operator: string;
}

/** An acknowledgement as it goes to the audit trail: of an open factor, marked high where it is. */
export interface RecordedAcknowledgement {
  code: FactorCode;
  high: boolean;
  note?: string;
}

export type ApprovalDecision =
  | { kind: 'blocked'; factors: FactorCode[] }
  | { kind: 'notes_missing'; factors: FactorCode[] }
  | { kind: 'same_operator' }
  /** Enhanced review, first approve (or the evidence changed since the pending request): ask. */
  | { kind: 'request'; acknowledgements: RecordedAcknowledgement[]; replaces: PendingApproval | null }
  /** Approve; `confirms` is the request a second operator confirms (enhanced review). */
  | { kind: 'approve'; acknowledgements: RecordedAcknowledgement[]; confirms: PendingApproval | null };

const HIGH_TIERS: readonly (Tier | undefined)[] = ['high', 'prohibited'];

/** The policy's definition of a factor: the tier it forces and whether it blocks (by level where it has levels). */
function definitionOf(policy: RiskPolicy, factor: OpenFactor): { tier: Tier | undefined; blocks: boolean } {
  if (factor.code === 'profession_risk' || factor.code === 'partner_risk') {
    const level = factor.evidence['level'] as RiskLevel | undefined;
    const byLevel = policy.factors[factor.code].tier_by_level;
    return { tier: level === undefined ? undefined : byLevel?.[level], blocks: false };
  }
  const definition = policy.factors[factor.code];
  return { tier: definition.tier, blocks: definition.blocks_approval === true };
}

/** Blocks approval: the stored factor says so, or the policy in force does. */
export function blocksApproval(policy: RiskPolicy, factor: OpenFactor): boolean {
  return factor.blocks_approval === true || definitionOf(policy, factor).blocks;
}

/** A high factor: the policy forces `high` or `prohibited` for it, or its weight alone reaches the high band. */
export function isHighFactor(policy: RiskPolicy, factor: OpenFactor): boolean {
  return HIGH_TIERS.includes(definitionOf(policy, factor).tier) || factor.weight >= policy.tiers.high;
}

export function decideApproval(input: ApprovalInput): ApprovalDecision {
  const { policy, assessment, pending, operator } = input;
  const factors = assessment?.factors ?? [];
  const blocking = factors.filter((f) => blocksApproval(policy, f)).map((f) => f.code);
  if (blocking.length > 0) return { kind: 'blocked', factors: blocking };

  const notes = new Map(input.acknowledgements.map((a) => [a.code, a.note?.trim() ?? '']));
  const acknowledgements: RecordedAcknowledgement[] = [];
  const missing: FactorCode[] = [];
  for (const factor of factors) {
    const high = isHighFactor(policy, factor);
    const note = notes.get(factor.code);
    if (high && (note === undefined || note === '')) missing.push(factor.code);
    // Acknowledgements of factors no longer open are dropped: the assessment moved on.
    if (note !== undefined)
      acknowledgements.push({ code: factor.code, high, ...(note === '' ? {} : { note }) });
  }
  if (missing.length > 0) return { kind: 'notes_missing', factors: missing };

  if (assessment?.routing !== 'enhanced_review') return { kind: 'approve', acknowledgements, confirms: null };
  if (pending === null || pending.assessment_id !== assessment.id)
    return { kind: 'request', acknowledgements, replaces: pending };
  if (pending.requested_by === operator) return { kind: 'same_operator' };
  return { kind: 'approve', acknowledgements, confirms: pending };
}

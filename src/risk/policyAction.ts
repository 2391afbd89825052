import { REQUIRED_DOCUMENT_FIELDS } from '../documents/outcome.ts';
import type { Status } from '../record/lifecycle.ts';
import type { Assessment, RiskEvidence } from './assessment.ts';

/**
 * What the policy does with an application it has just assessed, with no store: the moves it makes
 * (each an ordinary transition by the actor `policy:<version>`), or none, leaving the application
 * to a reviewer. Straight-through approval takes a `low` tier routed to `auto_approve` with clean
 * evidence, checked here once more whatever the assessment says: every required image present and
 * every image kept, no open screening hit, no PEP match, no factor at all. A decline takes a
 * `prohibited` tier routed to `decline`, and reaches the partner as `risk_policy`, as an operator's
 * rejection with that code does. The policy decides only applications waiting for a reviewer:
 * SUBMITTED, or IN_REVIEW with nobody holding it (the caller checks the claim); a decision already
 * made (approved, rejected, ...) or asked of the partner (SUPPLEMENT_REQUIRED) is left alone, which
 * is also what makes the decision idempotent under a retried job.
 */

/** The reason code of the policy's decline (the `reason` table). */
export const POLICY_DECLINE_CODE = 'risk_policy';

export interface PolicyAction {
  routing: 'auto_approve' | 'decline';
  /** The moves, in order, from the application's state: none when it is not the policy's to decide. */
  moves: Status[];
  reasonCodes: string[];
}

/** Whether nothing at all is open: what straight-through approval needs besides a `low` tier. */
export function cleanEvidence(assessment: Assessment, evidence: RiskEvidence): boolean {
  const kept = new Set(evidence.documents.filter((d) => d.state === 'kept').map((d) => d.field));
  return (
    assessment.tier === 'low' &&
    assessment.factors.length === 0 &&
    evidence.openSanctionsHits.length === 0 &&
    evidence.pepMatches.length === 0 &&
    evidence.documents.every((d) => d.state === 'kept') &&
    REQUIRED_DOCUMENT_FIELDS.every((field) => kept.has(field))
  );
}

export function policyAction(
  assessment: Assessment,
  evidence: RiskEvidence,
  status: Status,
): PolicyAction | undefined {
  if (assessment.routing === 'auto_approve') {
    if (!cleanEvidence(assessment, evidence)) return undefined;
    const moves: Status[] =
      status === 'SUBMITTED' ? ['IN_REVIEW', 'APPROVED'] : status === 'IN_REVIEW' ? ['APPROVED'] : [];
    return { routing: 'auto_approve', moves, reasonCodes: [] };
  }
  if (assessment.routing === 'decline' && assessment.tier === 'prohibited') {
    const moves: Status[] = status === 'SUBMITTED' || status === 'IN_REVIEW' ? ['REJECTED'] : [];
    return { routing: 'decline', moves, reasonCodes: [POLICY_DECLINE_CODE] };
  }
  return undefined;
}

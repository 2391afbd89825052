import type { Kysely } from 'kysely';
import { recordAudit } from '../../audit/auditTrail.ts';
import type { ServiceContext } from '../../context.ts';
import { problem, type FieldProblem } from '../../errors/problems.ts';
import { ServiceError } from '../../errors/serviceError.ts';
import { unixSeconds } from '../../record/dates.ts';
import { decideApproval, type OpenFactor, type RiskAcknowledgement } from '../../risk/approvalDecision.ts';
import type { ApprovalRequestView } from '../../risk/approvalRequestView.ts';
import { findApprovalRequest, putApprovalRequest } from '../../risk/approvalRequestRepository.ts';
import { assessmentsOf } from '../../risk/riskRepository.ts';
import { FACTOR_CODES, type Routing } from '../../policies/riskPolicy.ts';
import type { Database } from '../../store/tables.ts';
import { freeTextProblems } from '../rules/freeText.ts';

/**
 * An operator's approve weighed against the application's latest risk assessment, in the move's
 * transaction (docs/RISK.md, "Approval"): risk/approvalDecision.ts decides, this reads what it
 * needs and records what it decided. A refusal is thrown; an approval in enhanced review asked by
 * a first operator is recorded (a pending request, audited) and answered as such; an approval goes
 * on with what its audit row is to carry.
 */

/** Longest acknowledgement note. */
export const ACKNOWLEDGEMENT_NOTE_LIMIT = 500;

export type ApprovalGate =
  { kind: 'approve'; audit: Record<string, unknown> } | { kind: 'requested'; request: ApprovalRequestView };

/**
 * The acknowledgements' own rules: one per factor, and a note is free text that the audit trail
 * keeps, so it must not carry an identity or card number (the `reason` field's rule).
 */
export function acknowledgementProblems(acknowledgements: readonly RiskAcknowledgement[]): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  acknowledgements.forEach((a, i) => {
    // The admin API's schema names the codes; the CLI's option does not.
    if (!(FACTOR_CODES as readonly string[]).includes(a.code))
      problems.push(
        problem(`risk_acknowledgements[${i}].code`, 'fieldNotAllowed', { allowed: FACTOR_CODES.join(', ') }),
      );
    if (seen.has(a.code)) problems.push(problem(`risk_acknowledgements[${i}].code`, 'fieldDuplicateItems'));
    seen.add(a.code);
    problems.push(
      ...freeTextProblems(`risk_acknowledgements[${i}].note`, a.note, ACKNOWLEDGEMENT_NOTE_LIMIT),
    );
  });
  return problems;
}

export async function weighApproval(
  ctx: ServiceContext,
  trx: Kysely<Database>,
  approval: {
    busiWaterNo: string;
    /** The operator's stored name (`operator:<username>`) and username. */
    actor: string;
    operator: string;
    acknowledgements: readonly RiskAcknowledgement[];
    source: string;
    /** Whether the caller can answer a recorded request (approveApplication); otherwise refused. */
    mayRequest: boolean;
  },
): Promise<ApprovalGate> {
  const { busiWaterNo } = approval;
  const [latest] = await assessmentsOf(trx, busiWaterNo, 1);
  const pending = (await findApprovalRequest(trx, busiWaterNo)) ?? null;
  const assessment =
    latest === undefined
      ? null
      : {
          id: latest.id,
          routing: latest.routing as Routing,
          factors: JSON.parse(latest.factors) as OpenFactor[],
        };
  const decision = decideApproval({
    policy: ctx.riskPolicy.policy,
    assessment,
    acknowledgements: approval.acknowledgements,
    pending,
    operator: approval.operator,
  });
  const now = ctx.now();
  switch (decision.kind) {
    case 'blocked':
      throw new ServiceError('riskFactorBlocksApproval', {
        params: { factors: decision.factors.join(', ') },
        data: { factors: decision.factors },
      });
    case 'notes_missing':
      throw new ServiceError('riskAcknowledgementMissing', {
        params: { factors: decision.factors.join(', ') },
        data: { factors: decision.factors },
      });
    case 'same_operator':
      throw new ServiceError('riskApprovalSameOperator', {
        data: { requested_by: pending!.requested_by, requested_at: unixSeconds(pending!.requested_at) },
      });
    case 'request': {
      if (!approval.mayRequest) {
        throw new Error(
          'an approval in enhanced review is asked through approveApplication, which answers it',
        );
      }
      await putApprovalRequest(trx, {
        busi_water_no: busiWaterNo,
        assessment_id: latest!.id,
        requested_by: approval.operator,
        requested_at: now,
        acknowledgements: JSON.stringify(decision.acknowledgements),
      });
      await recordAudit(trx, {
        actor: approval.actor,
        action: 'application.approval_request',
        targetType: 'application',
        targetId: busiWaterNo,
        details: {
          risk_assessment: assessmentSummary(latest!),
          risk_acknowledgements: decision.acknowledgements,
          ...(decision.replaces === null
            ? {}
            : { replaces: { requested_by: decision.replaces.requested_by } }),
        },
        source: approval.source,
        at: now,
      });
      return {
        kind: 'requested',
        request: {
          requested_by: approval.operator,
          requested_at: unixSeconds(now),
          acknowledgements: decision.acknowledgements,
        },
      };
    }
    case 'approve': {
      const confirms = decision.confirms === null ? null : pending!;
      return {
        kind: 'approve',
        audit: {
          ...(latest === undefined ? {} : { risk_assessment: assessmentSummary(latest) }),
          ...(decision.acknowledgements.length === 0
            ? {}
            : { risk_acknowledgements: decision.acknowledgements }),
          ...(confirms === null
            ? {}
            : {
                approval_request: {
                  requested_by: confirms.requested_by,
                  requested_at: unixSeconds(confirms.requested_at),
                  risk_acknowledgements: JSON.parse(confirms.acknowledgements) as unknown,
                },
              }),
        },
      };
    }
  }
}

/** What the audit row says of the assessment an approval weighed: enough to find it again. */
function assessmentSummary(row: {
  id: string;
  tier: string;
  score: number;
  routing: string;
  policy_version: string;
}) {
  return {
    id: row.id,
    tier: row.tier,
    score: row.score,
    routing: row.routing,
    policy_version: row.policy_version,
  };
}

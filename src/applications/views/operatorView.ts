import { refuseIfRestricted, type Viewer } from '../../record/restriction.ts';
import { recordAudit } from '../../audit/auditTrail.ts';
import { documentRiskFlags } from '../../documents/documentRisk.ts';
import { documentRows } from '../../documents/documentRepository.ts';
import { outcomesOf, type OperatorDocumentOutcomes } from '../../documents/documentView.ts';
import { DOCUMENT_FIELDS } from '../../events/documentOutcomes.ts';
import { takeReveal, type RevealPurpose } from '../rules/revealPolicy.ts';
import type { ServiceContext } from '../../context.ts';
import { problem } from '../../errors/problems.ts';
import { ServiceError, ValidationError } from '../../errors/serviceError.ts';
import { ACTING_ROLE, hasRole, type Role } from '../../access/roles.ts';
import { isErasedPayload } from '../../record/erasure.ts';
import { actorName } from '../../audit/actor.ts';
import { listHistory } from '../../events/eventRepository.ts';
import { findApplication } from '../../record/applicationRepository.ts';
import { summaryOf, type ApplicationSummary } from './listApplications.ts';
import { isRevealable, maskApplication, REVEALABLE_FIELDS } from '../../record/masking.ts';
import { businessDay, unixSeconds } from '../../record/dates.ts';
import { reasonCodesOf } from '../rules/reasonCodes.ts';
import { riskFlags, type RiskFlag } from '../../record/riskFlags.ts';
import { latestRisk, type RiskView } from '../../risk/riskView.ts';
import { pendingApproval, type ApprovalRequestView } from '../../risk/approvalRequestView.ts';
import { screeningFlags, screeningHitsView, type ScreeningHitView } from '../../screening/screeningView.ts';
import { pepMatchesView, type PepMatchView } from '../../screening/pepMatchView.ts';
import { isSerialNumber } from '../../record/serialNumber.ts';
import { openApplication, openPayload } from '../../record/sealedPayload.ts';

/** One application as operators see it: its state, its masked contents and its full history. */
export interface OperatorApplicationView extends ApplicationSummary {
  application: Record<string, unknown>;
  history: {
    from_status: string | null;
    status: string;
    actor: string;
    reason: string | null;
    reason_codes: string[];
    details: Record<string, unknown> | null;
    at: number;
  }[];
  /** Per image field: its document pending, kept or failed (documents/documentView.ts). */
  documents: OperatorDocumentOutcomes;
  /** Soft signals for the reviewer (riskFlags.ts, documents/documentRisk.ts), computed at each view. */
  risk_flags: RiskFlag[];
  /** Sanctions screening hits with their list entries (screening/screeningView.ts). */
  screening_hits: ScreeningHitView[];
  /** PEP matches with their list entries (screening/pepMatchView.ts): shown, never holding. */
  pep_matches: PepMatchView[];
  /** The latest risk assessment (risk/riskView.ts), null before one is made; never the partner's. */
  risk: RiskView | null;
  /** An approval in enhanced review waiting for a second operator (risk/approvalRequestView.ts). */
  approval_request: ApprovalRequestView | null;
}

async function load(ctx: ServiceContext, busiWaterNo: string) {
  if (!isSerialNumber(busiWaterNo)) throw new ServiceError('applicationNotFound');
  const row = await findApplication(ctx.store.db, busiWaterNo);
  if (row === undefined) throw new ServiceError('applicationNotFound');
  // Erased by retention: the tombstone, shown as such.
  const application = openPayload(ctx.keyRing, row.busi_water_no, row.payload_enc);
  return { row, application };
}

/** `viewer`: the operator who looks; what a role may see of a screening hit differs. */
export async function showApplication(
  ctx: ServiceContext,
  busiWaterNo: string,
  viewer: { role: Role } & Viewer,
): Promise<OperatorApplicationView> {
  // Restricted by a deletion request: as if it did not exist, but to a compliance operator.
  if (isSerialNumber(busiWaterNo)) await refuseIfRestricted(ctx.store.db, busiWaterNo, viewer);
  const { row, application } = await load(ctx, busiWaterNo);
  const history = await listHistory(ctx.store.db, busiWaterNo);
  const erased = isErasedPayload(application);
  const documentRowsOf = await documentRows(ctx.store.db, [busiWaterNo]);
  const hits = await screeningHitsView(ctx, busiWaterNo, viewer);
  return {
    ...summaryOf(row),
    application: maskApplication(application),
    history: history.map((h) => ({
      from_status: h.from_status,
      status: h.to_status,
      actor: h.actor,
      reason: h.reason,
      reason_codes: reasonCodesOf(h.reason_codes),
      details: h.details === null ? null : (JSON.parse(h.details) as Record<string, unknown>),
      at: unixSeconds(h.at),
    })),
    documents: outcomesOf(
      documentRowsOf,
      erased ? [] : DOCUMENT_FIELDS.filter((field) => typeof application[field] === 'string'),
    ),
    screening_hits: hits,
    pep_matches: await pepMatchesView(ctx, busiWaterNo, viewer),
    risk: await latestRisk(ctx.store.db, busiWaterNo, ctx.riskPolicy.policy),
    approval_request: await pendingApproval(ctx.store.db, busiWaterNo),
    // Erased by retention: a tombstone, no applicant to flag.
    risk_flags: erased
      ? []
      : [
          ...screeningFlags(hits),
          ...riskFlags(application, {
            today: businessDay(new Date(ctx.now()), ctx.config.businessTimeZone),
            minAge: ctx.config.minAge,
            otherCodes: {
              position: ctx.codes.position.otherCode,
              purpose: ctx.codes.purpose.otherCode,
              wealth_source: ctx.codes.wealth_source.otherCode,
            },
          }),
          ...(await documentRiskFlags(ctx, row, documentRowsOf)),
        ],
  };
}

/**
 * One masked field in the clear, for a reviewer or admin, for a stated purpose; written to the
 * audit trail (who, when, which field, which application, why) in the same transaction that reads
 * it, so no reveal goes unrecorded, and within the operator's hourly allowance. The value itself
 * is never in the trail.
 */
export async function revealField(
  ctx: ServiceContext,
  request: {
    busiWaterNo: string;
    field: string;
    purpose: RevealPurpose;
    operator: { username: string; role: Role } & Viewer;
    source: string;
  },
): Promise<{ busi_water_no: string; field: string; value: unknown }> {
  const { operator } = request;
  if (!hasRole(operator.role, ACTING_ROLE)) {
    throw new ServiceError('forbidden', {
      params: {
        reason: `a ${operator.role} cannot reveal fields; ${ACTING_ROLE} or admin is required`,
        reason_zh: `${operator.role} 无权查看明文字段，需要 ${ACTING_ROLE} 或 admin 角色`,
      },
    });
  }
  if (!isRevealable(request.field)) {
    throw new ValidationError([
      problem('field', 'fieldNotAllowed', { allowed: REVEALABLE_FIELDS.join(', ') }),
    ]);
  }
  const field = request.field;
  return ctx.store.transaction(async (trx) => {
    if (!isSerialNumber(request.busiWaterNo)) throw new ServiceError('applicationNotFound');
    const row = await findApplication(trx, request.busiWaterNo);
    if (row === undefined) throw new ServiceError('applicationNotFound');
    await refuseIfRestricted(trx, request.busiWaterNo, operator);
    await takeReveal(ctx, trx, operator.username, request.purpose);
    const application: Record<string, unknown> = openApplication(
      ctx.keyRing,
      row.busi_water_no,
      row.payload_enc,
    );
    await recordAudit(trx, {
      actor: actorName({ kind: 'operator', id: operator.username, role: operator.role }),
      action: 'application.reveal',
      targetType: 'application',
      targetId: row.busi_water_no,
      details: { field, purpose: request.purpose.code, purpose_text: request.purpose.text },
      source: request.source,
      at: ctx.now(),
    });
    return { busi_water_no: row.busi_water_no, field, value: application[field] ?? null };
  });
}

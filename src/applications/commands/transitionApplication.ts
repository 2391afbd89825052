import type { Transaction } from 'kysely';
import { Type, type Static } from 'typebox';
import type { ServiceContext } from '../../context.ts';
import { problem, type FieldProblem } from '../../errors/problems.ts';
import { ServiceError, ValidationError } from '../../errors/serviceError.ts';
import { ACTING_ROLE, hasRole } from '../../access/roles.ts';
import { claimOnMove, refuseOverClaim, type ClaimMove } from './reviewClaims.ts';
import type { Database } from '../../store/tables.ts';
import { actorName, type Actor } from '../../audit/actor.ts';
import { findForMove } from '../../record/applicationRepository.ts';
import { deleteClaim, findClaim, putOperatorClaim } from '../../record/reviewClaimRepository.ts';
import { countOpenHits } from '../../screening/hitRepository.ts';
import { changeState } from './changeState.ts';
import { acknowledgementProblems, weighApproval } from './approvalGate.ts';
import type { RiskAcknowledgement } from '../../risk/approvalDecision.ts';
import { dropApprovalRequest } from '../../risk/approvalRequestRepository.ts';
import type { ApprovalRequestView } from '../../risk/approvalRequestView.ts';
import { isHeldMove, refuseIfHeld } from '../../screening/screeningGuard.ts';
import { refuseUnscreenedApproval } from '../../screening/screeningReadiness.ts';
import { checkImageUrl } from '../validation/checks/urls.ts';
import { freeTextProblems } from '../rules/freeText.ts';
import { reasonCodeProblems } from '../rules/reasonCodes.ts';
import { requestedFieldProblems } from '../rules/requestedFields.ts';
import { findTransition, STATUSES, type Status, type TransitionDetail } from '../../record/lifecycle.ts';
import { isSerialNumber } from '../../record/serialNumber.ts';

/**
 * A move along the lifecycle table, whoever asks: a partner's cancel, an operator's review over HTTP
 * or the CLI, the expiry job, a sandbox simulation. In one transaction it reads the row, checks the
 * move against the table, the actor and the details it needs, and records it with `changeState`
 * (row, history, event and audit entry). The partner's amendment is the other kind of change
 * (amendApplication.ts); both end in `changeState`.
 */
export interface TransitionRequest {
  busiWaterNo: string;
  to: Status;
  actor: Actor;
  reason?: string | null | undefined;
  /** Codes of the `reason` table; a rejection needs at least one. */
  reasonCodes?: readonly string[] | null | undefined;
  /** SUPPLEMENT_REQUIRED: the fields the partner is to send again (names of the submit's fields). */
  requestedFields?: readonly string[] | null | undefined;
  /** Carrier and tracking number for SHIPPED; ignored for other moves. */
  details?: Partial<Record<TransitionDetail, string | undefined>> | null | undefined;
  /** Partner scope: only this app's application is found; another's answers like an unknown one. */
  appId?: string | undefined;
  /** The version the actor last saw: if it has changed since, the move is refused (409). */
  expectedVersion?: number | undefined;
  /**
   * An operator's approve: their word on the open factors of the risk assessment, a note for each
   * high one (approvalGate.ts). Other moves ignore it.
   */
  riskAcknowledgements?: readonly RiskAcknowledgement[] | undefined;
  /** Sandbox simulation: any move of the table, whoever may normally make it. */
  simulated?: boolean | undefined;
  /** Where the request came from, for the audit trail: `admin-api <ip>`, `cli <user>`, `caller-api`. */
  source: string;
  /**
   * Writes that belong to the move (resolving a screening hit with it): run in the move's own
   * transaction right after the state is recorded. A throw rolls the whole move back.
   */
  alsoInTransaction?: ((trx: Transaction<Database>, moved: TransitionResult) => Promise<void>) | undefined;
}

/** What a move answers: where the application is now and where it was. */
export const TransitionResult = Type.Object({
  busi_water_no: Type.String(),
  status: Type.Enum([...STATUSES], { description: 'The status it moved to.' }),
  previous_status: Type.Enum([...STATUSES], { description: 'The status it moved from.' }),
  version: Type.Integer({ description: 'Its version after the move.' }),
  at: Type.Integer({ description: 'When it moved, in milliseconds.' }),
});
export type TransitionResult = Static<typeof TransitionResult>;

/**
 * What an approve answers: the move, or (enhanced review, docs/RISK.md) the approval asked for by
 * this operator and waiting for a second one: nothing moved.
 */
export type TransitionOutcome =
  { kind: 'moved'; moved: TransitionResult } | { kind: 'approval_requested'; request: ApprovalRequestView };

/** Longest carrier name and tracking number. */
export const DETAIL_LIMIT = 64;

export async function transitionApplication(
  ctx: ServiceContext,
  request: TransitionRequest,
): Promise<TransitionResult> {
  const outcome = await runTransition(ctx, request, false);
  // Without `mayRequest` the approval gate refuses rather than records a request.
  if (outcome.kind !== 'moved') throw new Error('a request answered where none may be recorded');
  return outcome.moved;
}

/**
 * An operator's approve, over HTTP or the CLI: the move to APPROVED, or, where the risk policy
 * routes the application to enhanced review and no other operator has asked yet, the request
 * recorded for a second operator to confirm.
 */
export async function approveApplication(
  ctx: ServiceContext,
  request: Omit<TransitionRequest, 'to'>,
): Promise<TransitionOutcome> {
  return runTransition(ctx, { ...request, to: 'APPROVED' }, true);
}

async function runTransition(
  ctx: ServiceContext,
  request: TransitionRequest,
  mayRequest: boolean,
): Promise<TransitionOutcome> {
  const { actor } = request;
  // Checked before anything is read: a viewer's attempt changes nothing and learns nothing.
  if (actor.kind === 'operator' && !hasRole(actor.role, ACTING_ROLE)) {
    throw new ServiceError('forbidden', {
      params: {
        reason: `a ${actor.role} cannot change applications; ${ACTING_ROLE} or admin is required`,
        reason_zh: `${actor.role} 无权变更申请，需要 ${ACTING_ROLE} 或 admin 角色`,
      },
    });
  }
  if (!isSerialNumber(request.busiWaterNo)) throw new ServiceError('applicationNotFound');
  const reason = request.reason ?? null;
  const codes = request.reasonCodes ?? [];
  const shapeProblems = [
    ...freeTextProblems('reason', reason),
    ...reasonCodeProblems(ctx.codes, codes),
    ...requestedFieldProblems(request.requestedFields ?? []),
    ...freeTextProblems('carrier', request.details?.carrier, DETAIL_LIMIT),
    ...trackingProblems(request.details?.tracking_no),
    ...trackingUrlProblems(request.details?.tracking_url),
    ...acknowledgementProblems(request.riskAcknowledgements ?? []),
  ];
  if (shapeProblems.length > 0) throw new ValidationError(shapeProblems);

  const outcome = await ctx.store.transaction((trx) => move(ctx, trx, request, reason, codes, mayRequest));
  if (outcome.kind === 'moved') ctx.metrics.onTransition(outcome.moved.previous_status, outcome.moved.status);
  return outcome;
}

/** Longest tracking link. */
export const TRACKING_URL_LIMIT = 2048;

/** A tracking link is shown to the partner and its customer: an absolute https URL to a public host. */
function trackingUrlProblems(value: string | undefined): FieldProblem[] {
  if (value === undefined) return [];
  if (value.length > TRACKING_URL_LIMIT)
    return [problem('tracking_url', 'fieldTooLong', { max: TRACKING_URL_LIMIT })];
  return checkImageUrl('tracking_url', value);
}

function trackingProblems(value: string | undefined): FieldProblem[] {
  if (value === undefined) return [];
  if (value.length === 0) return [problem('tracking_no', 'fieldEmpty')];
  if (value.length > DETAIL_LIMIT) return [problem('tracking_no', 'fieldTooLong', { max: DETAIL_LIMIT })];
  return [];
}

async function move(
  ctx: ServiceContext,
  trx: Transaction<Database>,
  request: TransitionRequest,
  reason: string | null,
  codes: readonly string[],
  mayRequest: boolean,
): Promise<TransitionOutcome> {
  const { actor, to, busiWaterNo } = request;
  const row = await findForMove(trx, busiWaterNo, request.appId);
  if (row === undefined) throw new ServiceError('applicationNotFound');

  const from = row.status;
  if (request.expectedVersion !== undefined && request.expectedVersion !== row.version) {
    throw new ServiceError('concurrentChange', { data: { version: row.version, status: from } });
  }
  const rule = findTransition(from, to);
  if (rule === undefined) {
    throw new ServiceError('transitionNotAllowed', { params: { from, to }, data: { status: from } });
  }
  if (request.simulated !== true && !rule.by.includes(actor.kind)) {
    throw new ServiceError('forbidden', {
      params: {
        reason: `a ${actor.kind} cannot move an application to ${to}`,
        reason_zh: `${actor.kind} 不能将申请变更为 ${to}`,
      },
    });
  }
  const missing: FieldProblem[] = [];
  if (rule.reasonRequired && (reason === null || reason.trim() === '')) {
    missing.push(problem('reason', 'fieldRequired'));
  }
  if (rule.codesRequired === true && codes.length === 0)
    missing.push(problem('reason_codes', 'fieldRequired'));
  const requested = rule.fieldsRequired === true ? [...(request.requestedFields ?? [])] : [];
  if (rule.fieldsRequired === true && requested.length === 0) {
    missing.push(problem('requested_fields', 'fieldRequired'));
  }
  const details: Record<string, unknown> = {};
  for (const name of rule.detailsRequired ?? []) {
    const value = request.details?.[name];
    if (value === undefined || value.trim() === '') missing.push(problem(name, 'fieldRequired'));
    else details[name] = value;
  }
  for (const name of rule.detailsOptional ?? []) {
    const value = request.details?.[name];
    if (value !== undefined && value !== '') details[name] = value;
  }
  if (missing.length > 0) throw new ValidationError(missing);
  if (requested.length > 0) details['requested_fields'] = requested;
  if (request.simulated === true) details['simulated'] = true;
  // An open sanctions screening hit holds approval, issue and shipping. Not a sandbox simulation:
  // refusing it would tip the partner off, and it makes no card (docs/SCREENING.md).
  if (request.simulated !== true && isHeldMove(to)) refuseIfHeld(to, await countOpenHits(trx, busiWaterNo));
  // Nor is an approval while no list is in force: nobody screened the applicant.
  if (request.simulated !== true) await refuseUnscreenedApproval(ctx, trx, to);

  const now = ctx.now();
  await followClaim(ctx, trx, {
    serial: busiWaterNo,
    from,
    to,
    operator: actor.kind === 'operator' ? actor.id : null,
    at: now,
  });
  // An operator's approval weighs the risk assessment: refused, asked for, or recorded with it.
  // After the claim: only its holder (or anyone, when none is live) asks, and asking ends the
  // claim, so that a second operator can take the application and confirm.
  const gate =
    to === 'APPROVED' && actor.kind === 'operator' && request.simulated !== true
      ? await weighApproval(ctx, trx, {
          busiWaterNo,
          actor: actorName(actor),
          operator: actor.id,
          acknowledgements: request.riskAcknowledgements ?? [],
          source: request.source,
          mayRequest,
        })
      : null;
  if (gate?.kind === 'requested') return { kind: 'approval_requested', request: gate.request };
  await changeState(ctx, trx, {
    busi_water_no: busiWaterNo,
    app_id: row.app_id,
    from,
    to,
    version: row.version,
    actor: actorName(actor),
    source: request.source,
    reason,
    reason_codes: codes,
    requested_fields: requested,
    details,
    card_no_masked: row.card_no_masked,
    external_id: row.external_id ?? null,
    audit_extra: gate?.audit,
    at: now,
  });
  // A pending approval request lives only while IN_REVIEW: approved, rejected, sent back, it goes.
  if (from === 'IN_REVIEW') await dropApprovalRequest(trx, busiWaterNo);
  const moved = {
    busi_water_no: busiWaterNo,
    status: to,
    previous_status: from,
    version: row.version + 1,
    at: now,
  };
  await request.alsoInTransaction?.(trx, moved);
  return { kind: 'moved', moved };
}

/** The review claim follows the move, in its transaction: reviewClaims.ts says how. */
async function followClaim(ctx: ServiceContext, trx: Transaction<Database>, move: ClaimMove): Promise<void> {
  const step = claimOnMove(ctx, move);
  if (step.kind === 'end') {
    refuseOverClaim(await findClaim(trx, move.serial), move);
    await deleteClaim(trx, move.serial);
  } else if (step.kind === 'start') {
    await putOperatorClaim(trx, step.claim);
  }
}

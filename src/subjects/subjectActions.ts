import type { Kysely } from 'kysely';
import { ACTING_ROLE, hasRole } from '../access/roles.ts';
import { actorName, type ChangedBy } from '../audit/actor.ts';
import { recordAudit } from '../audit/auditTrail.ts';
import { transitionApplication } from '../applications/commands/transitionApplication.ts';
import type { ServiceContext } from '../context.ts';
import { problem, type FieldProblem } from '../errors/problems.ts';
import { ServiceError, ValidationError } from '../errors/serviceError.ts';
import { findCoveredApplications, restrictApplications } from '../record/personRepository.ts';
import { compactAfterErasure, eraseApplicationNow } from '../retention/retention.ts';
import type { Database } from '../store/tables.ts';
import { decideDeletion, RECORD_KEEPING_CODE } from './deletionPolicy.ts';
import { endSubjectRequest, startSubjectRequest, type SubjectActor } from './subjectOutcomes.ts';
import {
  findCorrectionsLinkedTo,
  findSubjectRequestById,
  type SubjectRequestRow,
} from './subjectRequestRepository.ts';
import type { SubjectRequestView } from '../events/subjectRequestPayload.ts';
import { viewOfSubjectRequest } from './subjectRequestView.ts';

/**
 * What an operator does with an applicant's request (docs/PRIVACY.md), each step audited: start it,
 * decide a deletion (the policy erases now or restricts under record keeping), answer a correction
 * with a request for information (the partner's amend completes it), or refuse with a reason.
 */

/** Why an operator refuses a request: a code the partner can map, with the reason in words. */
export const SUBJECT_REFUSAL_CODES = [
  'identity_not_verified',
  'not_the_applicant',
  'manifestly_unfounded',
  'excessive',
  'data_accurate',
  'correction_not_possible',
  'legal_obligation',
  'other',
] as const;
export type SubjectRefusalCode = (typeof SUBJECT_REFUSAL_CODES)[number];

/** Longest reason in words. */
export const SUBJECT_REASON_MAX = 500;
const LONG_NUMBER = /[0-9]{6,}/;

function actorOf(by: ChangedBy): SubjectActor {
  return { actor: actorName(by.actor), source: by.source };
}

/** A viewer reads; the steps are a reviewer's or an admin's, as an application's moves are. */
function refuseViewer(by: ChangedBy): void {
  if (by.actor.kind === 'operator' && !hasRole(by.actor.role, ACTING_ROLE)) {
    throw new ServiceError('forbidden', {
      params: {
        reason: `a ${by.actor.role} cannot act on subject requests; ${ACTING_ROLE} or admin is required`,
        reason_zh: `${by.actor.role} 无权办理个人信息权利请求，需要 ${ACTING_ROLE} 或 admin 角色`,
      },
    });
  }
}

async function requestOf(ctx: ServiceContext, requestId: string): Promise<SubjectRequestRow> {
  const row = await findSubjectRequestById(ctx.store.db, requestId);
  if (row === undefined) throw new ServiceError('subjectRequestNotFound');
  return row;
}

function requireKind(row: SubjectRequestRow, expected: SubjectRequestRow['kind']): void {
  if (row.kind !== expected)
    throw new ServiceError('subjectRequestWrongKind', { params: { expected, kind: row.kind } });
}

/** received -> in_progress: an operator has taken it up. */
export async function startRequest(
  ctx: ServiceContext,
  requestId: string,
  by: ChangedBy,
): Promise<SubjectRequestView> {
  refuseViewer(by);
  const started = await ctx.store.transaction((trx) => startSubjectRequest(ctx, trx, requestId, actorOf(by)));
  return viewOfSubjectRequest(ctx.store.db, started, ctx.now());
}

/** A refusal of any kind of request, with its code and its reason in words (never an identity number). */
export async function refuseRequest(
  ctx: ServiceContext,
  requestId: string,
  refusal: { reason_code: string; reason: string },
  by: ChangedBy,
): Promise<SubjectRequestView> {
  refuseViewer(by);
  const problems: FieldProblem[] = [];
  if (!(SUBJECT_REFUSAL_CODES as readonly string[]).includes(refusal.reason_code)) {
    problems.push(problem('reason_code', 'fieldNotAllowed', { allowed: SUBJECT_REFUSAL_CODES.join(', ') }));
  }
  const reason = refusal.reason.trim();
  if (reason.length === 0) problems.push(problem('reason', 'fieldEmpty'));
  else if (reason.length > SUBJECT_REASON_MAX)
    problems.push(problem('reason', 'fieldTooLong', { max: SUBJECT_REASON_MAX }));
  else if (LONG_NUMBER.test(reason.replace(/[\s-]/g, '')))
    problems.push(problem('reason', 'textCarriesNumber'));
  if (problems.length > 0) throw new ValidationError(problems);
  const ended = await ctx.store.transaction((trx) =>
    endSubjectRequest(
      ctx,
      trx,
      requestId,
      { status: 'refused', reasonCode: refusal.reason_code, reason },
      actorOf(by),
    ),
  );
  return viewOfSubjectRequest(ctx.store.db, ended, ctx.now());
}

/**
 * A deletion, decided by the policy (deletionPolicy.ts): the applications with no record-keeping
 * duty are erased now (documents included, as retention erases), the others are restricted until
 * the date record keeping ends, and the request ends `completed` or `restricted` with that date.
 * One transaction: nothing is erased unless the request ends.
 */
export async function decideDeletionRequest(
  ctx: ServiceContext,
  requestId: string,
  by: ChangedBy,
): Promise<SubjectRequestView> {
  refuseViewer(by);
  const row = await requestOf(ctx, requestId);
  requireKind(row, 'deletion');
  const serials = JSON.parse(row.serials) as string[];
  const actor = actorOf(by);
  const { ended, erased } = await ctx.store.transaction(async (trx) => {
    const covered = await findCoveredApplications(trx, row.app_id, serials);
    const decision = decideDeletion(covered, ctx.now(), ctx.config.amlRetentionYears);
    if (decision.kind === 'in_progress') {
      throw new ServiceError('subjectDeletionInProgress', {
        params: { busi_water_no: decision.busiWaterNo, status: decision.status },
      });
    }
    let erasedCount = 0;
    for (const serial of decision.erase) {
      const done = await eraseApplicationNow(ctx, trx, serial, {
        ...actor,
        details: { subject_request: requestId, reason: 'deletion_request' },
      });
      if (done) erasedCount++;
    }
    if (decision.restrict.length > 0 && decision.until !== null) {
      await restrictApplications(trx, decision.restrict, decision.until);
      await recordAudits(trx, decision.restrict, decision.until, requestId, actor, ctx.now());
    }
    const outcome =
      decision.restrict.length === 0
        ? { status: 'completed' as const }
        : {
            status: 'restricted' as const,
            reasonCode: RECORD_KEEPING_CODE,
            reason: `kept under anti-money-laundering record keeping until ${new Date(decision.until ?? 0).toISOString().slice(0, 10)}, then erased`,
            restrictedUntil: decision.until,
          };
    return { ended: await endSubjectRequest(ctx, trx, requestId, outcome, actor), erased: erasedCount };
  });
  // The store's own copies of the erased values go too, as after a retention run.
  if (erased > 0) await compactAfterErasure(ctx);
  return viewOfSubjectRequest(ctx.store.db, ended, ctx.now());
}

async function recordAudits(
  trx: Kysely<Database>,
  serials: readonly string[],
  until: number,
  requestId: string,
  actor: SubjectActor,
  at: number,
): Promise<void> {
  for (const serial of serials) {
    await recordAudit(trx, {
      actor: actor.actor,
      action: 'application.restrict',
      targetType: 'application',
      targetId: serial,
      details: { subject_request: requestId, restricted_until: Math.floor(until / 1000) },
      source: actor.source,
      at,
    });
  }
}

/**
 * A correction answered by a request for information on one of the applications it covers (the
 * existing move to SUPPLEMENT_REQUIRED, with its fields, codes and reason): the request is in
 * progress and linked to it, in the move's transaction; the partner's amend completes it.
 */
export async function requestCorrectionInformation(
  ctx: ServiceContext,
  requestId: string,
  ask: {
    busi_water_no: string;
    requested_fields: readonly string[];
    reason_codes: readonly string[];
    reason?: string | null | undefined;
  },
  by: ChangedBy,
): Promise<SubjectRequestView> {
  refuseViewer(by);
  const row = await requestOf(ctx, requestId);
  requireKind(row, 'correction');
  if (row.status !== 'received' && row.status !== 'in_progress') {
    throw new ServiceError('subjectRequestEnded', { params: { status: row.status } });
  }
  if (!(JSON.parse(row.serials) as string[]).includes(ask.busi_water_no)) {
    throw new ServiceError('subjectApplicationNotCovered');
  }
  let started: SubjectRequestRow | undefined;
  await transitionApplication(ctx, {
    busiWaterNo: ask.busi_water_no,
    to: 'SUPPLEMENT_REQUIRED',
    actor: by.actor,
    reason: ask.reason ?? null,
    reasonCodes: ask.reason_codes,
    requestedFields: ask.requested_fields,
    appId: row.app_id,
    source: by.source,
    alsoInTransaction: async (trx) => {
      started = await startSubjectRequest(ctx, trx, requestId, actorOf(by), {
        linkedSerial: ask.busi_water_no,
        from: ['received', 'in_progress'],
      });
    },
  });
  if (started === undefined) throw new Error('the correction was not linked');
  return viewOfSubjectRequest(ctx.store.db, started, ctx.now());
}

/**
 * The partner's amend of an application a correction asked about: every open correction linked to
 * it completes, in the amend's transaction (wired by the amend's route: http/routes).
 */
export async function completeCorrections(
  ctx: ServiceContext,
  trx: Kysely<Database>,
  busiWaterNo: string,
  actor: SubjectActor,
): Promise<void> {
  for (const { request_id } of await findCorrectionsLinkedTo(trx, busiWaterNo)) {
    await endSubjectRequest(ctx, trx, request_id, { status: 'completed' }, actor);
  }
}

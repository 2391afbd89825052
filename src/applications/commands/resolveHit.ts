import { recordAudit } from '../../audit/auditTrail.ts';
import { actorName } from '../../audit/actor.ts';
import type { ServiceContext } from '../../context.ts';
import { problem } from '../../errors/problems.ts';
import { ServiceError, ValidationError } from '../../errors/serviceError.ts';
import { transitionApplication, type TransitionResult } from './transitionApplication.ts';
import { ACTING_ROLE, hasRole, type Role } from '../../access/roles.ts';
import type { ScreeningHitsTable } from '../../store/screeningTables.ts';
import { findHit, updateHit } from '../../screening/hitRepository.ts';
import { enqueueJobs } from '../../jobs/jobRepository.ts';
import { reassessJobs } from '../../jobs/reassess.ts';
import { findForMove } from '../../record/applicationRepository.ts';
import { isFinal } from '../../record/lifecycle.ts';

/**
 * What a reviewer does with a hit. Clearing it as a false positive takes two operators (four
 * eyes): one clears it with a note (`clearing`), another confirms (`cleared`); until then it holds
 * the application. Rejecting confirms the hit and rejects the application with `sanctions_hit`
 * (which the partner sees as `risk_policy`). Every step is audited. A hit cleared asks for a new
 * risk assessment of its application (docs/RISK.md), in the same transaction.
 */
export interface HitAction {
  busiWaterNo: string;
  hitId: string;
  operator: { username: string; role: Role };
  source: string;
}

/** Longest resolution note. */
export const NOTE_LIMIT = 1000;

function mayAct(operator: HitAction['operator']): void {
  if (!hasRole(operator.role, ACTING_ROLE)) {
    throw new ServiceError('forbidden', {
      params: {
        reason: `a ${operator.role} cannot resolve screening hits; ${ACTING_ROLE} or admin is required`,
        reason_zh: `${operator.role} 无权处理筛查命中，需要 ${ACTING_ROLE} 或 admin 角色`,
      },
    });
  }
}

async function act(
  ctx: ServiceContext,
  action: HitAction,
  step: {
    from: 'unresolved' | 'clearing';
    name: string;
    audit: 'screening.clear' | 'screening.confirm_clear';
  },
  set: (hit: { resolved_by: string | null }, now: number) => Parameters<typeof updateHit>[3],
  details: Record<string, unknown> = {},
) {
  mayAct(action.operator);
  return ctx.store.transaction(async (trx) => {
    const hit = await findHit(trx, action.busiWaterNo, action.hitId);
    if (hit === undefined) throw new ServiceError('screeningHitNotFound');
    if (hit.state !== step.from) {
      throw new ServiceError('screeningHitState', { params: { state: hit.state, action: step.name } });
    }
    const now = ctx.now();
    if (!(await updateHit(trx, hit.id, step.from, set(hit, now)))) throw new ServiceError('concurrentChange');
    await recordAudit(trx, {
      actor: actorName({ kind: 'operator', id: action.operator.username, role: action.operator.role }),
      action: step.audit,
      targetType: 'application',
      targetId: hit.busi_water_no,
      details: { hit_id: hit.id, list: hit.list, reference: hit.reference, ...details },
      source: action.source,
      at: now,
    });
    const state = step.from === 'unresolved' ? 'clearing' : 'cleared';
    // Cleared by the second operator: the hit no longer counts, and the rating is made again (a
    // hit being cleared still counts as open, so the first step changes no rating).
    if (state === 'cleared') {
      const application = await findForMove(trx, hit.busi_water_no);
      if (application !== undefined && !isFinal(application.status)) {
        const jobs = reassessJobs(
          [hit.busi_water_no],
          'screening.confirm_clear',
          `screening.cleared:${hit.id}`,
        );
        await enqueueJobs(trx, jobs, now);
      }
    }
    return { id: hit.id, state };
  });
}

export async function clearHit(ctx: ServiceContext, action: HitAction & { note: string }) {
  const note = action.note.trim();
  if (note === '') throw new ValidationError([problem('note', 'fieldRequired')]);
  if (note.length > NOTE_LIMIT)
    throw new ValidationError([problem('note', 'fieldTooLong', { max: NOTE_LIMIT })]);
  return act(
    ctx,
    action,
    { from: 'unresolved', name: 'clear', audit: 'screening.clear' },
    (_, now) => ({
      state: 'clearing',
      resolved_by: action.operator.username,
      resolution_note: note,
      resolved_at: now,
    }),
    { note },
  );
}

export async function confirmClear(ctx: ServiceContext, action: HitAction) {
  return act(
    ctx,
    action,
    { from: 'clearing', name: 'confirm', audit: 'screening.confirm_clear' },
    (hit, now) => {
      if (hit.resolved_by === action.operator.username) throw new ServiceError('screeningSameOperator');
      return { state: 'cleared', confirmed_by: action.operator.username, confirmed_at: now };
    },
  );
}

/**
 * Rejects the application on a hit: the hit is confirmed and the application REJECTED with
 * `sanctions_hit`, in one transaction (the move's), with the `screening.reject` audit row. The hit
 * is read again in that transaction and moved under its state as read: if another operator cleared
 * it meanwhile, the whole move is refused (`concurrentChange`) and nothing is recorded.
 */
export async function rejectOnHit(ctx: ServiceContext, action: HitAction): Promise<TransitionResult> {
  mayAct(action.operator);
  // Answered before the move is tried, whatever the application's state; decided again below.
  refuseToReject(await findHit(ctx.store.db, action.busiWaterNo, action.hitId));
  const actor = { kind: 'operator', id: action.operator.username, role: action.operator.role } as const;
  return transitionApplication(ctx, {
    busiWaterNo: action.busiWaterNo,
    to: 'REJECTED',
    actor,
    reason: null,
    reasonCodes: ['sanctions_hit'],
    source: action.source,
    alsoInTransaction: async (trx, moved) => {
      const hit = refuseToReject(await findHit(trx, action.busiWaterNo, action.hitId));
      const confirmed = await updateHit(trx, hit.id, hit.state, {
        state: 'confirmed',
        resolved_by: action.operator.username,
        resolved_at: moved.at,
      });
      if (!confirmed) throw new ServiceError('concurrentChange');
      await recordAudit(trx, {
        actor: actorName(actor),
        action: 'screening.reject',
        targetType: 'application',
        targetId: hit.busi_water_no,
        details: { hit_id: hit.id, list: hit.list, reference: hit.reference },
        source: action.source,
        at: moved.at,
      });
    },
  });
}

/** A hit an application may be rejected on: one that exists and is not resolved yet. */
function refuseToReject<T extends { state: ScreeningHitsTable['state'] }>(hit: T | undefined): T {
  if (hit === undefined) throw new ServiceError('screeningHitNotFound');
  if (hit.state === 'cleared' || hit.state === 'confirmed') {
    throw new ServiceError('screeningHitState', { params: { state: hit.state, action: 'reject' } });
  }
  return hit;
}

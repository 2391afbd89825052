import { actorName, type ChangedBy } from '../audit/actor.ts';
import { recordAudit } from '../audit/auditTrail.ts';
import type { ServiceContext } from '../context.ts';
import { problem, type FieldProblem } from '../errors/problems.ts';
import { ServiceError, ValidationError } from '../errors/serviceError.ts';
import { enqueueJobs } from '../jobs/jobRepository.ts';
import { reassessJobs } from '../jobs/reassess.ts';
import { findApp, updateApp } from '../partners/appRepository.ts';
import { RISK_LEVELS, type RiskLevel } from '../policies/riskPolicy.ts';
import { serialsOfAppIn } from '../record/applicationRepository.ts';
import { isFinal, STATUSES } from '../record/lifecycle.ts';

/**
 * A partner's (an app's) risk level, set by an admin with a reason: the `partner_risk` factor of
 * every assessment of its applications (docs/RISK.md). Audited (`app.risk_level`, with the levels
 * before and after and the reason), and each application of the app not yet final is assessed
 * again through the job queue, in the same transaction as the change, so that none keeps a rating
 * made under the old level. Setting the level it already has is recorded (someone looked and
 * confirmed it, with a reason) and asks for no assessment.
 */

/** Longest reason. */
export const RISK_LEVEL_REASON_LIMIT = 500;

export interface PartnerRiskLevelChange {
  app_id: string;
  risk_level: RiskLevel;
  previous_risk_level: RiskLevel;
  /** Applications of the app asked to be assessed again. */
  reassessing: number;
}

const OPEN_STATUSES = STATUSES.filter((status) => !isFinal(status));

function problems(level: string, reason: string): FieldProblem[] {
  const found: FieldProblem[] = [];
  if (!(RISK_LEVELS as readonly string[]).includes(level))
    found.push(problem('level', 'fieldNotAllowed', { allowed: RISK_LEVELS.join(', ') }));
  if (reason === '') found.push(problem('reason', 'fieldRequired'));
  else if (reason.length > RISK_LEVEL_REASON_LIMIT)
    found.push(problem('reason', 'fieldTooLong', { max: RISK_LEVEL_REASON_LIMIT }));
  return found;
}

/** The stored level as a level: unset (or anything else) is `low`. */
export function storedRiskLevel(value: string | null | undefined): RiskLevel {
  return (RISK_LEVELS as readonly (string | null | undefined)[]).includes(value)
    ? (value as RiskLevel)
    : 'low';
}

export async function setPartnerRiskLevel(
  ctx: ServiceContext,
  appId: string,
  change: { level: string; reason: string },
  by: ChangedBy,
): Promise<PartnerRiskLevelChange> {
  const reason = change.reason.trim();
  const found = problems(change.level, reason);
  if (found.length > 0) throw new ValidationError(found);
  const level = change.level as RiskLevel;
  return ctx.store.transaction(async (trx) => {
    const app = await findApp(trx, appId);
    if (app === undefined) throw new ServiceError('appNotFound');
    const previous = storedRiskLevel(app.risk_level);
    const now = ctx.now();
    await updateApp(trx, appId, { risk_level: level, updated_at: now });
    const serials = previous === level ? [] : await serialsOfAppIn(trx, appId, OPEN_STATUSES);
    await enqueueJobs(trx, reassessJobs(serials, 'app.risk_level', `app.risk_level:${appId}:${now}`), now);
    await recordAudit(trx, {
      actor: actorName(by.actor),
      action: 'app.risk_level',
      targetType: 'app',
      targetId: appId,
      details: { from: previous, to: level, reason, reassessing: serials.length },
      source: by.source,
      at: now,
    });
    return { app_id: appId, risk_level: level, previous_risk_level: previous, reassessing: serials.length };
  });
}

import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Actor } from '../../audit/actor.ts';
import type { ServiceContext } from '../../context.ts';
import { ServiceError } from '../../errors/serviceError.ts';
import type { Status } from '../../record/lifecycle.ts';
import { findClaim } from '../../record/reviewClaimRepository.ts';
import type { AssessOutcome } from '../../risk/assessApplication.ts';
import { policyAction, type PolicyAction } from '../../risk/policyAction.ts';
import { assessmentsOf } from '../../risk/riskRepository.ts';
import type { Database } from '../../store/tables.ts';
import { transitionApplication } from './transitionApplication.ts';

/**
 * The policy acts on its routing, right after the risk job has assessed an application
 * (risk/riskJob.ts): a straight-through approval or a decline, as risk/policyAction.ts decides,
 * made as ordinary transitions (row, history, event, audit entry) by the actor `policy:<version>`.
 * Each move is made at the version the assessment read, and checks in its own transaction that
 * the latest assessment still routes it so: an operator's move, an amendment or a newer assessment
 * in between refuses it (`concurrentChange`), and the application is left to review. So is one
 * that a reviewer holds (a live claim), and one any rule of the move refuses (an open hit, no
 * screening list in force, an open factor): the policy never overrides a refusal.
 */

export type Assessed = Extract<AssessOutcome, { outcome: 'assessed' }>;

export interface PolicyDecision {
  routing: PolicyAction['routing'];
  /** The states reached, in order: empty when the application was left to review. */
  moved: Status[];
  /** Why it was left to review (the refusal's error name, or `claimed`). */
  left?: string;
}

/** Where the audit trail says the decision came from. */
export const POLICY_SOURCE = 'risk-policy';

export async function decideByPolicy(
  ctx: ServiceContext,
  serial: string,
  assessed: Assessed,
  log: Logger,
): Promise<PolicyDecision | undefined> {
  const action = policyAction(assessed.assessment, assessed.evidence, assessed.status);
  if (action === undefined || action.moves.length === 0) return undefined;
  const { routing } = action;
  const claim = await findClaim(ctx.store.db, serial);
  if (claim !== undefined && claim.expires_at > ctx.now()) {
    log.info({ busi_water_no: serial, routing }, 'risk policy: a reviewer holds the application');
    return { routing, moved: [], left: 'claimed' };
  }
  const actor: Actor = { kind: 'policy', version: ctx.riskPolicy.version };
  let version = assessed.version;
  const moved: Status[] = [];
  for (const to of action.moves) {
    try {
      const result = await transitionApplication(ctx, {
        busiWaterNo: serial,
        to,
        actor,
        reason: null,
        reasonCodes: to === 'REJECTED' ? action.reasonCodes : [],
        expectedVersion: version,
        source: POLICY_SOURCE,
        alsoInTransaction: (trx) => refuseUnlessStillRouted(trx, ctx, serial, routing),
      });
      version = result.version;
      moved.push(to);
    } catch (error) {
      // A rule refused the move: it will not pass on a retry either; a reviewer decides.
      if (!(error instanceof ServiceError)) throw error;
      log.info(
        { busi_water_no: serial, routing, to, refused: error.error },
        'risk policy: the move was refused, the application is left to review',
      );
      return { routing, moved, left: error.error };
    }
  }
  ctx.metrics.riskPolicyDecided(routing);
  log.info({ busi_water_no: serial, routing, moved }, 'risk policy decided the application');
  return { routing, moved };
}

/** In the move's transaction: the latest assessment is still this policy's, with this routing. */
async function refuseUnlessStillRouted(
  trx: Kysely<Database>,
  ctx: ServiceContext,
  serial: string,
  routing: PolicyAction['routing'],
): Promise<void> {
  const [latest] = await assessmentsOf(trx, serial, 1);
  if (latest?.routing !== routing || latest.policy_version !== ctx.riskPolicy.version) {
    throw new ServiceError('concurrentChange');
  }
}

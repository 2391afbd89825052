import type { Logger } from 'pino';
import type { Kysely } from 'kysely';
import type { ServiceContext } from '../context.ts';
import { describe } from '../errors/describe.ts';
import { ServiceError } from '../errors/serviceError.ts';
import type { Database } from '../store/tables.ts';
import { anyListImported, versionsInForce } from './listRepository.ts';

/**
 * Whether screening is in force: a list imported, and each list's newest import younger than
 * `SCREENING_MAX_AGE_DAYS`. Screening that is off or stale must never be silent: it makes the
 * instance not ready (`/readyz`), shows in a metric per list, in a banner in the console and in a
 * warning at start, and with no list at all approval is refused (screeningGuard.ts). Every list is
 * judged alike, by its name: a list is in force once imported, whichever importer read it.
 */

/** A list in force, as readiness, the metrics and the console see it. */
export interface ListFreshness {
  list: string;
  version_id: string;
  entries: number;
  /** Unix seconds. */
  imported_at: number;
  age_seconds: number;
  stale: boolean;
}

export type ScreeningProblem = { reason: 'no_list' } | { reason: 'stale'; list: string; age_days: number };

export interface ScreeningReadiness {
  /** `SCREENING_REQUIRED`: whether a problem makes the instance not ready. */
  required: boolean;
  max_age_days: number;
  lists: ListFreshness[];
  /** Empty when screening is in force and fresh. */
  problems: ScreeningProblem[];
}

const DAY_MS = 86_400_000;

export async function screeningReadiness(
  ctx: Pick<ServiceContext, 'config' | 'store' | 'now'>,
): Promise<ScreeningReadiness> {
  const { required, maxAgeMs } = ctx.config.screening;
  const now = ctx.now();
  const lists = (await versionsInForce(ctx.store.db)).map((v) => ({
    list: v.list,
    version_id: v.version_id,
    entries: v.entries,
    imported_at: Math.floor(v.imported_at / 1000),
    age_seconds: Math.max(0, Math.floor((now - v.imported_at) / 1000)),
    stale: now - v.imported_at > maxAgeMs,
  }));
  const problems: ScreeningProblem[] =
    lists.length === 0
      ? [{ reason: 'no_list' }]
      : lists
          .filter((l) => l.stale)
          .map((l) => ({
            reason: 'stale',
            list: l.list,
            age_days: Math.floor((l.age_seconds * 1000) / DAY_MS),
          }));
  return { required, max_age_days: maxAgeMs / DAY_MS, lists, problems };
}

/** A problem in words, for `/readyz` and the log: it names the list and the setting. */
export function problemText(problem: ScreeningProblem, maxAgeDays: number): string {
  return problem.reason === 'no_list'
    ? 'screening: no sanctions list imported (cardapply screening import; docs/SCREENING.md)'
    : `screening: list ${problem.list} last imported ${problem.age_days} days ago, over SCREENING_MAX_AGE_DAYS ${maxAgeDays}`;
}

/** What `/readyz` adds to its reasons: nothing unless screening is required. */
export async function screeningNotReadyReasons(ctx: ServiceContext): Promise<string[]> {
  if (!ctx.config.screening.required) return [];
  const readiness = await screeningReadiness(ctx);
  return readiness.problems.map((p) => problemText(p, readiness.max_age_days));
}

/**
 * At start: a warning when screening is not required (so that it is never off without a line
 * saying so), and one for each problem that makes the instance not ready.
 */
export async function warnOfScreening(ctx: ServiceContext, logger: Logger): Promise<void> {
  if (!ctx.config.screening.required)
    logger.warn(
      { event: 'screening.not_required' },
      'SCREENING_REQUIRED=false: the instance is ready and approves applications whether or not a sanctions list is in force; for tests and sandboxes only (docs/SCREENING.md)',
    );
  try {
    const readiness = await screeningReadiness(ctx);
    for (const problem of readiness.problems)
      logger.warn(
        { event: 'screening.not_in_force', ...problem, required: readiness.required },
        `${problemText(problem, readiness.max_age_days)}${readiness.required ? ': not ready until it is' : ''}`,
      );
  } catch (error) {
    logger.warn({ err: describe(error) }, 'could not tell whether a sanctions list is in force');
  }
}

/**
 * An approval while no list is in force would approve an applicant nobody screened: refused, in
 * the move's transaction, unless `SCREENING_REQUIRED=false`. A stale list still screens, so it
 * only makes the instance not ready. Other moves are not held: a rejection needs no screening.
 */
export async function refuseUnscreenedApproval(ctx: ServiceContext, db: Kysely<Database>, to: string) {
  if (to !== 'APPROVED' || !ctx.config.screening.required) return;
  if (!(await anyListImported(db))) throw new ServiceError('screeningNotInForce');
}

import { isFinal, STATUSES, type Status } from '../../record/lifecycle.ts';
import {
  countEntered,
  enteredAt,
  hourlyWorkload,
  keptCounts,
  riskTierCounts,
} from '../repositories/countRepository.ts';
import { TIERS, type Tier } from '../../policies/riskPolicy.ts';
import type { ServiceContext } from '../../context.ts';
import { screeningAlerts } from '../../screening/hitRepository.ts';
import type { Store } from '../../store/connect.ts';

/**
 * The review workload, for the back office and its metrics: per status the count, how long the
 * oldest application has waited in it and the median time in it (by when each entered it, its
 * `updated_at`), against the SLA setting (`REVIEW_SLA_SECONDS`); and the backlog of the last
 * seven days: applications arriving and decisions (approved, rejected) per hour. Nothing reads more
 * than a bounded window, so the page costs the same at any size: counts from the counts the store
 * keeps per status; ages through the (status, updated_at) index, the median of at most
 * MEDIAN_WINDOW applications (the latest to enter the status, when more wait); past SLA counted
 * from whichever side of the SLA is smaller (pastSla); the backlog from the hourly counters the store keeps.
 */
export const BACKLOG_HOURS = 7 * 24;
const HOUR_MS = 3_600_000;
export const MEDIAN_WINDOW = 1_000;

export interface StatusLoad {
  status: Status;
  count: number;
  /** Seconds the oldest application has been in this status; null when none, or final. */
  oldest_seconds: number | null;
  median_seconds: number | null;
  sla_seconds: number | null;
  /** Applications in this status for longer than its SLA. */
  past_sla: number;
}

export interface Workload {
  at: number;
  statuses: StatusLoad[];
  /** One entry per hour, oldest first: the hour's start (Unix seconds), arrivals, decisions. */
  backlog: { hour: number; arrivals: number; decisions: number }[];
  /** Sanctions screening: hits that hold applications, and those found after delivery (an alert). */
  screening: { open_hits: number; delivered_alerts: number };
  /** The risk rating of the applications waiting, and what the policy decided itself. */
  risk: RiskLoad;
}

/**
 * Of the applications that are not final, how many have each tier (their latest assessment) and
 * how many are not yet rated; of the decisions (approved, rejected) of the backlog's seven days, how
 * many the policy took itself (actor `policy:<version>`: straight-through approvals, declines).
 */
export interface RiskLoad {
  tiers: { tier: Tier; count: number }[];
  unrated: number;
  decisions: number;
  policy_decisions: number;
}

/**
 * Past the SLA, reading about as many rows as the smaller side of the cutoff holds, whichever it
 * is: each side is counted up to a cap (MEDIAN_WINDOW, then four times more each round) until one
 * of them is under it; then that side is exact, and past the SLA is that side or the count less it.
 * A backlog long past its SLA (a year of it, a day's worth within) reads the day's; a queue all
 * within reads those past. Counting the past side whenever more than MEDIAN_WINDOW were within
 * read the whole of a backlog past its SLA (900,000 index entries, 71 ms on PostgreSQL).
 */
export async function pastSla(store: Store, status: Status, count: number, cutoff: number): Promise<number> {
  for (let cap = MEDIAN_WINDOW; ; cap *= 4) {
    const within = await countEntered(store.db, status, '>=', cutoff, cap + 1);
    if (within <= cap) return Math.max(0, count - within);
    const past = await countEntered(store.db, status, '<', cutoff, cap + 1);
    if (past <= cap) return past;
  }
}

/** Per waiting status: seconds since the oldest application entered it (for the metrics). */
export async function oldestWaiting(store: Store, now: number): Promise<Map<Status, number | null>> {
  const ages = new Map<Status, number | null>();
  for (const status of STATUSES) {
    if (isFinal(status)) continue;
    const oldest = await enteredAt(store.db, status, 0);
    ages.set(status, oldest === null ? null : Math.floor((now - oldest) / 1000));
  }
  return ages;
}

export async function reviewWorkload(ctx: ServiceContext): Promise<Workload> {
  const now = ctx.now();
  const sla = ctx.config.operators.slaSeconds;
  const kept = new Map((await keptCounts(ctx.store.db)).map((row) => [row.status, Number(row.n)]));
  const statuses: StatusLoad[] = [];
  for (const status of STATUSES) {
    const count = kept.get(status) ?? 0;
    const slaSeconds = sla[status] ?? null;
    if (isFinal(status) || count === 0) {
      statuses.push({
        status,
        count,
        oldest_seconds: null,
        median_seconds: null,
        sla_seconds: slaSeconds,
        past_sla: 0,
      });
      continue;
    }
    const oldest = await enteredAt(ctx.store.db, status, 0);
    // The median of the window (all of them when they fit); of an even count, the mean of the
    // two middle ones.
    const window = Math.min(count, MEDIAN_WINDOW);
    const order = count > MEDIAN_WINDOW ? 'desc' : 'asc';
    const lower = await enteredAt(ctx.store.db, status, Math.floor((window - 1) / 2), order);
    const upper = window % 2 === 0 ? await enteredAt(ctx.store.db, status, window / 2, order) : lower;
    const age = (at: number | null) => (at === null ? null : Math.floor((now - at) / 1000));
    const median = lower === null || upper === null ? null : Math.floor((now - (lower + upper) / 2) / 1000);
    statuses.push({
      status,
      count,
      oldest_seconds: age(oldest),
      median_seconds: median,
      sla_seconds: slaSeconds,
      past_sla: slaSeconds === null ? 0 : await pastSla(ctx.store, status, count, now - slaSeconds * 1000),
    });
  }
  const waiting = statuses.filter((s) => !isFinal(s.status)).reduce((sum, s) => sum + s.count, 0);
  const hours = await backlogHours(ctx, now);
  return {
    at: Math.floor(now / 1000),
    statuses,
    backlog: hours.backlog,
    screening: await screeningAlerts(ctx.store.db),
    risk: {
      ...(await riskLoad(ctx, waiting)),
      decisions: hours.backlog.reduce((sum, hour) => sum + hour.decisions, 0),
      policy_decisions: hours.policyDecisions,
    },
  };
}

/** Per tier, the rated applications that are not final; the rest of `waiting` is not yet rated. */
async function riskLoad(ctx: ServiceContext, waiting: number) {
  const kept = new Map(
    (await riskTierCounts(ctx.store.db)).map((row) => [Number(row.risk_rank), Number(row.n)]),
  );
  const tiers = TIERS.map((tier, i) => ({ tier, count: kept.get(i + 1) ?? 0 }));
  const rated = tiers.reduce((sum, t) => sum + t.count, 0);
  return { tiers, unrated: Math.max(0, waiting - rated) };
}

async function backlogHours(ctx: ServiceContext, now: number) {
  const firstHour = Math.floor(now / HOUR_MS) - BACKLOG_HOURS + 1;
  // Kept per hour by the store's triggers (migration 0050): at most BACKLOG_HOURS hours of a few
  // shards each, at any size. Summed: PostgreSQL keeps several shards of one hour.
  const rows = await hourlyWorkload(ctx.store.db, firstHour, BACKLOG_HOURS);
  const byHour = new Map(rows.map((row) => [Number(row.hour), row]));
  const backlog: Workload['backlog'] = Array.from({ length: BACKLOG_HOURS }, (_, i) => {
    const hour = firstHour + i;
    const row = byHour.get(hour);
    return {
      hour: (hour * HOUR_MS) / 1000,
      arrivals: Number(row?.arrivals ?? 0),
      decisions: Number(row?.decisions ?? 0),
    };
  });
  const policyDecisions = rows.reduce((sum, row) => sum + Number(row.policy_decisions ?? 0), 0);
  return { backlog, policyDecisions };
}

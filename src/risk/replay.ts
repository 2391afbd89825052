import type { Kysely } from 'kysely';
import { ROUTINGS, TIERS, type LoadedRiskPolicy, type Routing, type Tier } from '../policies/riskPolicy.ts';
import type { Database } from '../store/tables.ts';
import { assess, type RiskEvidence } from './assessment.ts';
import { assessedSerialsAfter, latestAssessmentsOf } from './riskRepository.ts';

/**
 * `cardapply risk replay`: what a changed policy would do to the applications already rated,
 * before it goes live (docs/RISK.md). Each application's latest assessment is weighed again, from
 * the evidence it kept, by the other policy; the result is a table of how many move from each tier
 * (and each routing) to which, with the serials of every cell where something moves. It only
 * reads: no assessment, transition or audit row is written, and the policy is not kept.
 */

export interface ReplayWindow {
  /** Applications submitted at or after this time (Unix milliseconds). */
  from?: number;
  /** Applications submitted before this time (Unix milliseconds). */
  to?: number;
}

export interface ReplayCell<T extends string> {
  from: T;
  to: T;
  count: number;
  /** The serials in the cell, when it moves (from ≠ to); the cells that stay carry a count only. */
  serials?: string[];
}

export interface ReplayResult {
  /** The policy replayed. */
  policy: { version: string; name: string };
  /** The versions the latest assessments had been made under, with how many of each. */
  stored_policies: Record<string, number>;
  applications: number;
  /** How many change tier, and routing. */
  moved: { tier: number; routing: number };
  tiers: ReplayCell<Tier>[];
  routings: ReplayCell<Routing>[];
}

/** How many applications one round reads: their serials, then their assessments. */
const BATCH = 1000;

export async function replayPolicy(
  db: Kysely<Database>,
  policy: LoadedRiskPolicy,
  window: ReplayWindow = {},
): Promise<ReplayResult> {
  const tiers = new Table<Tier>(TIERS);
  const routings = new Table<Routing>(ROUTINGS);
  const storedPolicies: Record<string, number> = {};
  let applications = 0;
  let after = '';
  for (;;) {
    const serials = await assessedSerialsAfter(db, after, window, BATCH);
    if (serials.length === 0) break;
    after = serials[serials.length - 1]!;
    for (const latest of await latestAssessmentsOf(db, serials)) {
      const replayed = assess(policy.policy, JSON.parse(latest.evidence) as RiskEvidence);
      tiers.add(latest.tier as Tier, replayed.tier, latest.busi_water_no);
      routings.add(latest.routing as Routing, replayed.routing, latest.busi_water_no);
      storedPolicies[latest.policy_version] = (storedPolicies[latest.policy_version] ?? 0) + 1;
      applications += 1;
    }
  }
  return {
    policy: { version: policy.version, name: policy.policy.name },
    stored_policies: storedPolicies,
    applications,
    moved: { tier: tiers.moved(), routing: routings.moved() },
    tiers: tiers.cells(),
    routings: routings.cells(),
  };
}

/** A from → to table: a count per cell, and the serials of the cells that move. */
class Table<T extends string> {
  readonly #cells = new Map<string, ReplayCell<T>>();
  readonly #order: readonly T[];

  constructor(order: readonly T[]) {
    this.#order = order;
  }

  add(from: T, to: T, serial: string): void {
    const key = `${from}\u0000${to}`;
    let cell = this.#cells.get(key);
    if (cell === undefined) {
      cell = from === to ? { from, to, count: 0 } : { from, to, count: 0, serials: [] };
      this.#cells.set(key, cell);
    }
    cell.count += 1;
    cell.serials?.push(serial);
  }

  moved(): number {
    let moved = 0;
    for (const cell of this.#cells.values()) if (cell.from !== cell.to) moved += cell.count;
    return moved;
  }

  cells(): ReplayCell<T>[] {
    const rank = (value: T) => this.#order.indexOf(value);
    return [...this.#cells.values()].sort((a, b) => rank(a.from) - rank(b.from) || rank(a.to) - rank(b.to));
  }
}

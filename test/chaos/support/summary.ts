import { appendFileSync } from 'node:fs';
import type { TestContext } from 'node:test';

/**
 * What each part of the proof tried and what held. Every part reports its figures as a test
 * diagnostic (shown by `npm test`) and, when `CHAOS_SUMMARY_FILE` is set (by `npm run test:chaos`
 * and `npm run fuzz`), as one JSON line there, which the runner prints as the closing summary.
 */
export interface PartReport {
  /** `crash/sqlite`, `outage/postgres`, `fuzz`, ... */
  part: string;
  /** Counts: kills, acknowledged, found, cases, 5xx, leaks... */
  figures: Record<string, number | string>;
  /** One line per promise that was checked and held. */
  held: string[];
}

/** Whether the full (slow) version runs: `npm run test:chaos` and `npm run fuzz` set CHAOS_FULL=1. */
export const FULL = process.env['CHAOS_FULL'] === '1';

/** The bounded size inside `npm test`, or the full one. */
export function scale(bounded: number, full: number): number {
  return FULL ? full : bounded;
}

export function report(t: TestContext, entry: PartReport): void {
  const figures = Object.entries(entry.figures)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  t.diagnostic(`${entry.part}: ${figures}`);
  for (const line of entry.held) t.diagnostic(`  held: ${line}`);
  const file = process.env['CHAOS_SUMMARY_FILE'];
  if (file !== undefined && file !== '') appendFileSync(file, `${JSON.stringify(entry)}\n`);
}

/** A seed for the random parts: CHAOS_SEED when given (to replay a run), else fresh. Always reported. */
export function seedOf(): number {
  const given = process.env['CHAOS_SEED'];
  return given !== undefined && /^[0-9]+$/.test(given) ? Number(given) : Math.floor(Math.random() * 2 ** 31);
}

/** A small seeded generator (mulberry32), so that a failing run can be replayed with CHAOS_SEED. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls until `predicate` holds or the time is up; returns whether it held. */
export async function eventually(
  predicate: () => boolean | Promise<boolean>,
  timeoutMs: number,
  stepMs = 50,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await predicate()) return true;
    if (Date.now() > deadline) return false;
    await sleep(stepMs);
  }
}

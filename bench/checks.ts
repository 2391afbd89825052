import fc from 'fast-check';
import { checkApplication, type CheckContext } from '../src/applications/validation/checks/index.ts';
import { arbValidApplication } from '../test/helpers/applicantFixture.ts';
import { defaultCodeTables } from '../src/codes/tables.ts';

/**
 * The time `checkApplication` takes per valid applicant, in process (no HTTP, no store): the median
 * of several passes over the same generated applicants, after a warm-up pass.
 * Run: node bench/checks.ts [applicants=2000] [passes=9]
 */
const applicants = Number(process.argv[2] ?? 2000);
const passes = Number(process.argv[3] ?? 9);
const now = new Date('2026-11-22T08:00:00Z');
const ctx: CheckContext = { now, minAge: 18, codes: defaultCodeTables(), timeZone: 'Asia/Shanghai' };
const apps = fc.sample(arbValidApplication(now), { numRuns: applicants, seed: 42 });

const pass = () => {
  const started = process.hrtime.bigint();
  let problems = 0;
  for (const app of apps) problems += checkApplication(app, ctx, new Set()).length;
  const micros = Number(process.hrtime.bigint() - started) / 1000 / apps.length;
  if (problems !== 0) throw new Error(`${problems} problems on valid applicants`);
  return micros;
};

pass(); // warm-up: loads the divisions and the pinyin dictionary, fills the caches
const times = Array.from({ length: passes }, pass).sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)]!;
console.log(
  JSON.stringify({
    applicants: apps.length,
    passes,
    median_us: Number(median.toFixed(1)),
    min_us: Number(times[0]!.toFixed(1)),
    max_us: Number(times[times.length - 1]!.toFixed(1)),
  }),
);

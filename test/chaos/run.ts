import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PartReport } from './support/summary.ts';

/**
 * `npm run test:chaos` (crash, outage, instances, contract, tenancy at full size) and `npm run fuzz`
 * (10,000 hostile requests and the fuzz regressions): runs the parts one after another with
 * CHAOS_FULL=1, then ends with a summary of what was tried and what held.
 */
const mode = process.argv[2] === 'fuzz' ? 'fuzz' : 'chaos';
const files = mode === 'fuzz' ? ['test/fuzz/*.test.ts'] : ['test/chaos/*.test.ts'];
const dir = mkdtempSync(join(tmpdir(), 'cardapply-chaos-'));
const summaryFile = join(dir, 'summary.jsonl');
const started = Date.now();

const run = spawnSync(
  process.execPath,
  ['--test', '--test-concurrency=1', '--test-timeout=3600000', ...files],
  { stdio: 'inherit', env: { ...process.env, CHAOS_FULL: '1', CHAOS_SUMMARY_FILE: summaryFile } },
);

const parts: PartReport[] = existsSync(summaryFile)
  ? readFileSync(summaryFile, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as PartReport)
  : [];
rmSync(dir, { recursive: true, force: true });

const total = (match: (key: string) => boolean) =>
  parts.reduce(
    (sum, p) =>
      sum +
      Object.entries(p.figures)
        .filter(([k, v]) => match(k) && typeof v === 'number')
        .reduce((s, [, v]) => s + (v as number), 0),
    0,
  );

console.log(
  `\n=== ${mode === 'fuzz' ? 'fuzz' : 'chaos'} summary (${Math.round((Date.now() - started) / 1000)} s) ===`,
);
for (const part of parts) {
  console.log(
    `${part.part}: ${Object.entries(part.figures)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  for (const line of part.held) console.log(`  held: ${line}`);
}
const totals = [
  ...(mode === 'chaos'
    ? [
        `kills ${total((k) => k === 'kills')}`,
        `acknowledged ${total((k) => k === 'acknowledged')}`,
        `found ${total((k) => k === 'found')}`,
      ]
    : []),
  `generated cases ${total((k) => k === 'cases' || k === 'generated cases')}`,
  `5xx ${total((k) => k.startsWith('5xx'))}`,
  `contract violations ${total((k) => k === 'violations' || k === 'contract violations')}`,
  `leaks found ${total((k) => k === 'leaks found')}`,
];
console.log(`totals: ${totals.join(', ')}`);
const failed = run.status !== 0;
console.log(
  failed ? `NOT HELD: some part failed (exit ${run.status ?? run.signal}); see above` : 'every promise held',
);
process.exit(failed ? 1 : 0);

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { budgetMs } from '../test/helpers/budget.ts';

const run = promisify(execFile);
const BENCH = fileURLToPath(new URL('./run.ts', import.meta.url));

// `npm run bench` itself is not part of the tests (figures need a quiet machine); this proves the
// benchmark still runs end to end, every target included, in a short version (`npm run test:bench`,
// run by .ci/run after `npm test`, not inside it): every part starts its own servers and loads them
// with 32 connections, so it takes about three minutes on an idle two-core machine, and beside the
// suite it would take both cores from the tests. Its ceiling grows with the load
// (test/helpers/budget.ts).
const CEILING_MS = budgetMs(150_000);

test('the benchmark runs end to end (BENCH_SMOKE=1)', { timeout: CEILING_MS + 10_000 }, async () => {
  const { stdout } = await run(process.execPath, [BENCH], {
    env: { ...process.env, BENCH_SMOKE: '1' },
    timeout: CEILING_MS,
    maxBuffer: 16 * 1024 * 1024,
  });
  assert.match(stdout, /floor on sqlite/);
  assert.match(stdout, /service on sqlite/);
  assert.match(stdout, /ratio service \/ floor on sqlite: [0-9.]+/);
  assert.match(stdout, /Duplicate flood: \{\n "sqlite": \{\n {2}"rps"/);
  assert.match(stdout, /At size \(requests\/s[^\n]*\{\n "sqlite": \{\n {2}"applications": 5000/);
  // The half-rate part reads the service's own event-loop delay beside the latency.
  assert.match(
    stdout,
    /Half of the maximum rate: \{"sqlite":\{"rate":[0-9]+,"service":\{[^}]*"loopDelay":\{"p99":[0-9.]+,"max":[0-9.]+\}/,
  );
  assert.match(stdout, /Cold start to listening on SQLite/);
  assert.match(
    stdout,
    /Screening against 100002 listed names \(all 5 lists\): p99 [0-9.]+ ms, [0-9.]+ of the 5 ms target/,
  );
  assert.match(stdout, /Re-screen after a list import[^\n]*\{\n "sqlite": \{\n {2}"applications": 1000/);
  if (process.env['DATABASE_URL']) {
    assert.match(stdout, /ratio service \/ floor on postgres: [0-9.]+/);
    assert.match(stdout, /ratio service \/ floor on pgbouncer: [0-9.]+/);
  }
});

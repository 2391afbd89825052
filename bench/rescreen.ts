import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createApp } from '../src/partners/credentials.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { unerasedAfter } from '../src/record/applicationRepository.ts';
import { isErasedPayload } from '../src/record/erasure.ts';
import { openPayload } from '../src/record/sealedPayload.ts';
import { screeningIndexFor } from '../src/screening/indexCache.ts';
import { RESCREEN_KIND } from '../src/screening/rescreenJob.ts';
import { openContext } from '../src/start.ts';
import { seedRescreen } from '../test/screening/rescreenStore.ts';
import { PINNING } from './processes.ts';

const CLI = fileURLToPath(new URL('../bin/cardapply.js', import.meta.url));
/** The re-screen's target (the screening issue): 20,000 stored applications a minute or more. */
export const RESCREEN_TARGET_PER_MINUTE = 20_000;

/**
 * The re-screen after a list import: `count` stored applications (test/screening/rescreenStore.ts)
 * screened by `cardapply worker` (pinned like the service), timed from its start to the job done.
 * The baseline, in the same run on the same store: this process reading the same applications in
 * the job's batches, opening each and screening it against the same index, with no job, no worker
 * and no hit written. The ratio worker / baseline is what the job's slices, leases and hit writes
 * cost.
 */
export async function rescreenRate(env: Record<string, string>, count: number) {
  const ctx = await openContext(loadConfig(env), createLogger({ logLevel: 'silent' }));
  try {
    const app = await createApp(ctx.store.db, 'rescreen bench', Date.now());
    await seedRescreen(ctx, app.app_id, count);

    const index = await screeningIndexFor(ctx.store);
    const baselineStart = performance.now();
    let after: string | null = null;
    let screened = 0;
    for (;;) {
      const rows = await unerasedAfter(ctx.store.db, after, 500);
      if (rows.length === 0) break;
      for (const row of rows) {
        const payload = openPayload(ctx.keyRing, row.busi_water_no, row.payload_enc);
        if (isErasedPayload(payload)) continue;
        index.screen(payload, ctx.config.screening.threshold);
        screened++;
      }
      after = rows[rows.length - 1]!.busi_water_no;
    }
    const baselineMs = performance.now() - baselineStart;

    const workerStart = performance.now();
    const ceilingMs = 60_000 + (3 * count * 60_000) / RESCREEN_TARGET_PER_MINUTE;
    const [command, ...prefix] = [...PINNING.server, process.execPath];
    const worker = spawn(command!, [...prefix, CLI, 'worker'], {
      env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    let workerMs: number | undefined;
    try {
      for (;;) {
        const job = await ctx.store.db
          .selectFrom('jobs')
          .select('status')
          .where('kind', '=', RESCREEN_KIND)
          .executeTakeFirst();
        if (job?.status === 'done') break;
        if (worker.exitCode !== null) throw new Error(`the worker exited (${worker.exitCode})`);
        // A minute to start, then three times what the target allows: far past any rate worth measuring.
        if (performance.now() - workerStart > ceilingMs)
          throw new Error(`the re-screen took over ${Math.round(ceilingMs / 1000)} s`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      workerMs = performance.now() - workerStart;
    } finally {
      worker.kill('SIGTERM');
      await exited;
    }
    const perMinute = (n: number, ms: number) => Math.round((n / ms) * 60_000);
    const workerPerMinute = perMinute(count, workerMs);
    const baselinePerMinute = perMinute(screened, baselineMs);
    return {
      applications: count,
      workerPerMinute,
      baselinePerMinute,
      ratio: Math.round((workerPerMinute / baselinePerMinute) * 100) / 100,
      target: RESCREEN_TARGET_PER_MINUTE,
      met: workerPerMinute >= RESCREEN_TARGET_PER_MINUTE,
    };
  } finally {
    await ctx.store.close();
  }
}

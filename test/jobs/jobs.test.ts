import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import type { ServiceContext } from '../../src/context.ts';
import type { ClaimedJob, JobKind, JobResult } from '../../src/jobs/jobQueue.ts';
import { claimJobs, completeJob, enqueueJobs } from '../../src/jobs/jobRepository.ts';
import { startJobRunner } from '../../src/worker/jobRunner.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';
import { fanOutEvents } from '../../src/webhooks/deliveryQueue.ts';
import { longestEventLoopGap } from '../helpers/eventLoopGaps.ts';
import { moveTo, newAppId, submitMany } from '../helpers/events.ts';
import { createStoreTarget, storeNames, type StoreTarget } from '../helpers/stores.ts';

/**
 * The durable job queue on every store: jobs queued by the outbox relay exactly once per event,
 * run by a runner with retries, give-up and leases that a dead runner leaves behind.
 */

const silent = createLogger({ logLevel: 'silent' });

/** A kind that records what it ran and answers what the test tells it to. */
function recordingKind(
  name: string,
  answer: (job: ClaimedJob) => Promise<JobResult> | JobResult = () => ({ outcome: 'done' }),
  extra: Partial<JobKind> = {},
): JobKind & { runs: ClaimedJob[] } {
  const runs: ClaimedJob[] = [];
  return {
    kind: name,
    runs,
    onEvent: {
      types: ['application.submitted'],
      jobsFor: (event) => [
        {
          kind: name,
          key: event.event_id,
          busi_water_no: event.busi_water_no,
          payload: { app: event.app_id },
        },
      ],
    },
    run: async (_ctx, job) => {
      runs.push(job);
      return answer(job);
    },
    ...extra,
  };
}

async function until(condition: () => Promise<boolean> | boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function jobRows(ctx: ServiceContext, kind: string) {
  return ctx.store.db.selectFrom('jobs').selectAll().where('kind', '=', kind).orderBy('created_at').execute();
}

for (const storeName of storeNames()) {
  describe(`job queue (${storeName})`, () => {
    let target: StoreTarget;
    let ctx: ServiceContext;

    before(async () => {
      target = createStoreTarget(storeName);
      ctx = await openContext(loadConfig({ ...target.env, WEBHOOK_POLL_INTERVAL_MS: '20' }), silent);
    });
    after(async () => {
      await ctx.store.close();
      await target.cleanup();
    });

    const relay = (kinds: readonly JobKind[]) =>
      fanOutEvents(ctx.store, { now: ctx.now(), limit: 1000, maxAgeMs: 86_400_000, jobKinds: kinds });

    test('the relay queues one job per subscribed event, once, whatever it sees twice', async () => {
      const kind = recordingKind('test.relay');
      const appId = await newAppId(ctx);
      const serials = await submitMany(ctx, appId, 3);
      // An event of another type asks for nothing.
      await moveTo(ctx, serials[0]!, 'IN_REVIEW');
      await relay([kind]);
      let rows = await jobRows(ctx, kind.kind);
      assert.deepEqual(rows.map((row) => row.busi_water_no).sort(), [...serials].sort());
      assert.ok(rows.every((row) => row.status === 'pending' && row.attempts === 0));
      assert.deepEqual(JSON.parse(rows[0]!.payload!), { app: appId });

      // A relay that died after queuing but before the events left its list would see them again.
      await ctx.store.db
        .insertInto('events_pending')
        .columns(['created_at', 'event_id'])
        .expression((eb) =>
          eb.selectFrom('events').select(['created_at', 'event_id']).where('app_id', '=', appId),
        )
        .execute();
      await relay([kind]);
      rows = await jobRows(ctx, kind.kind);
      assert.equal(rows.length, 3, 'no job is queued twice');
    });

    test('the runner runs each job, retries what asks for it and keeps its progress', async () => {
      const kind = recordingKind('test.retry', (job) => {
        const step = (job.payload as { step?: number } | null)?.step ?? 0;
        return step < 2
          ? { outcome: 'retry', at: ctx.now(), error: 'not yet', payload: { step: step + 1 } }
          : { outcome: 'done' };
      });
      await ctx.store.transaction((trx) =>
        enqueueJobs(trx, [{ kind: kind.kind, key: 'one', payload: { step: 0 } }], ctx.now()),
      );
      const runner = startJobRunner(ctx, silent, { kinds: [kind], pollIntervalMs: 20 });
      try {
        await until(async () => (await jobRows(ctx, kind.kind))[0]?.status === 'done', 'the job to finish');
      } finally {
        await runner.stop();
      }
      const [row] = await jobRows(ctx, kind.kind);
      assert.equal(row!.attempts, 3);
      assert.deepEqual(
        kind.runs.map((run) => run.payload),
        [{ step: 0 }, { step: 1 }, { step: 2 }],
      );
      assert.equal(row!.last_error, null);
      assert.notEqual(row!.finished_at, null);
    });

    test('a job fails for good when it says so, or when a retry would pass its give-up time', async () => {
      const failing = recordingKind('test.failing', () => ({ outcome: 'failed', error: 'not_a_document' }));
      const late = recordingKind('test.late', () => ({
        outcome: 'retry',
        at: ctx.now() + 60_000,
        error: 'down',
      }));
      await enqueueJobs(ctx.store.db, [{ kind: failing.kind, key: 'a' }], ctx.now());
      await enqueueJobs(
        ctx.store.db,
        [{ kind: late.kind, key: 'b', giveUpAt: ctx.now() + 1_000 }],
        ctx.now(),
      );
      const runner = startJobRunner(ctx, silent, { kinds: [failing, late], pollIntervalMs: 20 });
      try {
        await until(async () => {
          const rows = [...(await jobRows(ctx, failing.kind)), ...(await jobRows(ctx, late.kind))];
          return rows.every((row) => row.status === 'failed');
        }, 'both jobs to fail');
      } finally {
        await runner.stop();
      }
      assert.equal((await jobRows(ctx, failing.kind))[0]!.last_error, 'not_a_document');
      assert.equal((await jobRows(ctx, late.kind))[0]!.last_error, 'down');
      assert.equal(late.runs.length, 1, 'no run after the give-up time');
    });

    test('a lease that ran out is claimed again; the first runner no longer records', async () => {
      const kind = 'test.lease';
      // The clock is the caller's: claims at chosen times, no sleeping, nothing a loaded machine can break.
      const t0 = ctx.now();
      await enqueueJobs(ctx.store.db, [{ kind, key: 'x' }], t0);
      const claim = (workerId: string, now: number, leaseMs: number) =>
        claimJobs(ctx.store, { kind, workerId, now, leaseMs, limit: 5 });
      const first = await claim('dead', t0, 50);
      assert.equal(first.length, 1);
      assert.deepEqual(await claim('other', t0 + 49, 50), [], 'leased: not claimable');
      const second = await claim('alive', t0 + 51, 60_000);
      assert.equal(second.length, 1);
      assert.equal(second[0]!.attempts, 2);
      const job = { id: second[0]!.id, giveUpAt: null };
      assert.equal(
        await completeJob(ctx.store, { ...job, workerId: 'dead' }, { outcome: 'done' }, ctx.now()),
        false,
      );
      assert.equal(
        await completeJob(ctx.store, { ...job, workerId: 'alive' }, { outcome: 'done' }, ctx.now()),
        true,
      );
      assert.equal((await jobRows(ctx, kind))[0]!.status, 'done');
    });

    test('two runners share the queue without running a job twice', async () => {
      const seen = new Map<string, number>();
      const kind = recordingKind('test.shared', async (job) => {
        seen.set(job.key, (seen.get(job.key) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { outcome: 'done' };
      });
      const keys = Array.from({ length: 60 }, (_, i) => `k${i}`);
      await enqueueJobs(
        ctx.store.db,
        keys.map((key) => ({ kind: kind.kind, key })),
        ctx.now(),
      );
      const runners = [1, 2].map(() => startJobRunner(ctx, silent, { kinds: [kind], pollIntervalMs: 10 }));
      try {
        await until(
          async () => (await jobRows(ctx, kind.kind)).every((row) => row.status === 'done'),
          'all jobs',
        );
      } finally {
        await Promise.all(runners.map((runner) => runner.stop()));
      }
      assert.equal(seen.size, keys.length);
      assert.ok(
        [...seen.values()].every((count) => count === 1),
        'each job ran once',
      );
    });

    test('runs claimed together start a turn apart, so that requests are answered between them', async () => {
      // Each run holds the thread for 40 ms, as a run's synchronous part (decrypting, parsing, the
      // embedded store's queries) does; four are claimed at once.
      const RUN_MS = 40;
      const kind = recordingKind(
        'test.turns',
        () => {
          const until = performance.now() + RUN_MS;
          while (performance.now() < until);
          return { outcome: 'done' };
        },
        { concurrency: 4 },
      );
      await enqueueJobs(
        ctx.store.db,
        ['a', 'b', 'c', 'd'].map((key) => ({ kind: kind.kind, key })),
        ctx.now(),
      );
      const runner = startJobRunner(ctx, silent, { kinds: [kind], pollIntervalMs: 10 });
      let longestGapMs: number;
      try {
        ({ gapMs: longestGapMs } = await longestEventLoopGap(() =>
          until(() => kind.runs.length === 4, 'the four runs'),
        ));
      } finally {
        await runner.stop();
      }
      // Back to back, the four runs held the loop for 160 ms at once; a turn apart, for one run.
      assert.ok(longestGapMs < 2.5 * RUN_MS, `the event loop waited ${longestGapMs.toFixed(0)} ms at once`);
    });

    test('stop aborts a long run after its grace; the job is tried again', async () => {
      const kind = recordingKind('test.long', (job) =>
        job.attempts === 1
          ? new Promise<JobResult>(() => {
              /* never settles by itself: the abort ends it below */
            })
          : { outcome: 'done' },
      );
      const aborting: JobKind = {
        ...kind,
        run: (runCtx, job, log, signal) =>
          new Promise<JobResult>((resolve, reject) => {
            void kind.run(runCtx, job, log, signal).then(resolve, reject);
            signal.addEventListener('abort', () => reject(new Error('aborted')));
          }),
      };
      await enqueueJobs(ctx.store.db, [{ kind: kind.kind, key: 'long' }], ctx.now());
      const first = startJobRunner(ctx, silent, { kinds: [aborting], pollIntervalMs: 10, stopGraceMs: 50 });
      await until(() => kind.runs.length === 1, 'the first run');
      await first.stop();
      assert.equal((await jobRows(ctx, kind.kind))[0]!.status, 'pending', 'handed back, not lost');
      const second = startJobRunner(ctx, silent, { kinds: [aborting], pollIntervalMs: 10 });
      try {
        await until(async () => (await jobRows(ctx, kind.kind))[0]?.status === 'done', 'the second run');
      } finally {
        await second.stop();
      }
      assert.equal(kind.runs.length, 2);
    });
  });
}

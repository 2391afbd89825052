import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../../src/config.ts';
import type { ServiceContext } from '../../src/context.ts';
import { FAN_OUT_TRACKED_APART } from '../../src/events/outbox.ts';
import type { JobKind } from '../../src/jobs/jobQueue.ts';
import { createLogger } from '../../src/logger.ts';
import { oldestUnfannedEvent } from '../../src/metrics/gaugeRepository.ts';
import { openContext } from '../../src/start.ts';
import { fanOutEvents } from '../../src/webhooks/deliveryQueue.ts';
import { newAppId, submitMany } from '../helpers/events.ts';
import { createStoreTarget, storeNames, type StoreTarget } from '../helpers/stores.ts';

/**
 * Insert-only events (migration 0069): the fan-out's to-do list is `events_pending`, filled by a
 * trigger, and an event is never updated once written. In a rolling deploy the earlier version
 * writes its events with a null `fanned_out_at` and fans them out by setting it; each such event is
 * fanned out exactly once between the two versions, whichever sets it first.
 */

const silent = createLogger({ logLevel: 'silent' });

/** A job per application.submitted event, keyed by the event: a count of jobs is a count of fan-outs. */
const KIND: JobKind = {
  kind: 'test.fanout',
  onEvent: {
    types: ['application.submitted'],
    jobsFor: (event) => [{ kind: 'test.fanout', key: event.event_id, busi_water_no: event.busi_water_no }],
  },
  run: async () => ({ outcome: 'done' }),
};

for (const storeName of storeNames()) {
  describe(`the fan-out's list of pending events (${storeName})`, () => {
    let target: StoreTarget;
    let ctx: ServiceContext;

    before(async () => {
      target = createStoreTarget(storeName);
      ctx = await openContext(loadConfig(target.env), silent);
    });
    after(async () => {
      await ctx.store.close();
      await target.cleanup();
    });

    const relay = () =>
      fanOutEvents(ctx.store, { now: ctx.now(), limit: 1000, maxAgeMs: 86_400_000, jobKinds: [KIND] });
    const eventsOf = (appId: string) =>
      ctx.store.db.selectFrom('events').selectAll().where('app_id', '=', appId).orderBy('event_id').execute();
    const pendingOf = async (eventIds: readonly string[]) =>
      (
        await ctx.store.db
          .selectFrom('events_pending')
          .select('event_id')
          .where('event_id', 'in', [...eventIds])
          .execute()
      ).map((p) => p.event_id);
    const jobsOf = async (eventIds: readonly string[]) =>
      (
        await ctx.store.db
          .selectFrom('jobs')
          .select('job_key')
          .where('kind', '=', KIND.kind)
          .where('job_key', 'in', [...eventIds])
          .execute()
      ).map((j) => j.job_key);

    /** An event as the earlier version writes it: `fanned_out_at` null. */
    async function earlierVersionsEvent(appId: string, serial: string, id: string): Promise<void> {
      await ctx.store.db
        .insertInto('events')
        .values({
          event_id: id,
          app_id: appId,
          busi_water_no: serial,
          type: 'application.submitted',
          payload: JSON.stringify({ busi_water_no: serial }),
          created_at: ctx.now(),
          seq: 100,
          fanned_out_at: null,
        })
        .execute();
    }

    test("this version's events are listed, fanned out once, and never updated", async () => {
      const appId = await newAppId(ctx);
      await submitMany(ctx, appId, 3);
      const written = await eventsOf(appId);
      const ids = written.map((e) => e.event_id);
      assert.equal(written.length, 3);
      assert.ok(written.every((e) => e.fanned_out_at === FAN_OUT_TRACKED_APART));
      assert.deepEqual((await pendingOf(ids)).sort(), [...ids].sort());
      // The queue's age gauge sees them waiting.
      const oldest = Math.min(...written.map((e) => e.created_at));
      const waiting = (await oldestUnfannedEvent(ctx.store.db))?.oldest;
      assert.ok(waiting !== null && waiting !== undefined && Number(waiting) <= oldest, `${waiting}`);

      assert.ok((await relay()) >= 3);
      assert.deepEqual(await pendingOf(ids), [], 'the fan-out empties the list');
      assert.deepEqual((await jobsOf(ids)).sort(), [...ids].sort());
      assert.deepEqual(await eventsOf(appId), written, 'the events are as they were written');

      await relay();
      assert.equal((await jobsOf(ids)).length, 3, 'nothing is fanned out twice');
    });

    test("the earlier version's event is fanned out by this version when it gets there first", async () => {
      const appId = await newAppId(ctx);
      const [serial] = await submitMany(ctx, appId, 1);
      const id = `evt_earlier_first_${storeName}`;
      await earlierVersionsEvent(appId, serial!, id);
      assert.deepEqual(await pendingOf([id]), [id], 'the trigger lists it');

      await relay();
      assert.deepEqual(await jobsOf([id]), [id]);
      assert.deepEqual(await pendingOf([id]), []);
      const [event] = (await eventsOf(appId)).filter((e) => e.event_id === id);
      assert.notEqual(event!.fanned_out_at, null, 'marked, so the earlier version passes over it');
      // The earlier version's claim finds nothing.
      const unclaimed = await ctx.store.db
        .selectFrom('events')
        .select('event_id')
        .where('event_id', '=', id)
        .where('fanned_out_at', 'is', null)
        .execute();
      assert.deepEqual(unclaimed, []);
    });

    test('an event the earlier version has fanned out already is only taken off the list', async () => {
      const appId = await newAppId(ctx);
      const [serial] = await submitMany(ctx, appId, 1);
      const id = `evt_earlier_done_${storeName}`;
      await earlierVersionsEvent(appId, serial!, id);
      // The earlier version's fan-out: deliveries and jobs of its own, then the mark.
      await ctx.store.db.updateTable('events').set({ fanned_out_at: 1 }).where('event_id', '=', id).execute();

      await relay();
      assert.deepEqual(await jobsOf([id]), [], 'not fanned out a second time');
      assert.deepEqual(await pendingOf([id]), []);
    });

    test('an event written already fanned out is not listed', async () => {
      const appId = await newAppId(ctx);
      const [serial] = await submitMany(ctx, appId, 1);
      const id = `evt_fanned_${storeName}`;
      await ctx.store.db
        .insertInto('events')
        .values({
          event_id: id,
          app_id: appId,
          busi_water_no: serial!,
          type: 'application.submitted',
          payload: '{}',
          created_at: ctx.now(),
          seq: 100,
          fanned_out_at: 1,
        })
        .execute();
      assert.deepEqual(await pendingOf([id]), []);
    });

    test('a listed event that is gone is only taken off the list', async () => {
      await ctx.store.db
        .insertInto('events_pending')
        .values({ created_at: 1, event_id: 'evt_gone' })
        .execute();
      await relay();
      assert.deepEqual(await pendingOf(['evt_gone']), []);
    });

    test(
      'the two versions fanning one event out at once: the one that waits finds it marked',
      { skip: storeName === 'sqlite' ? 'one writer at a time on SQLite: the two cannot overlap' : false },
      async () => {
        const appId = await newAppId(ctx);
        const [serial] = await submitMany(ctx, appId, 1);
        const id = `evt_earlier_racing_${storeName}`;
        await earlierVersionsEvent(appId, serial!, id);

        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        let claimed!: () => void;
        const hasClaimed = new Promise<void>((resolve) => (claimed = resolve));
        // The earlier version's fan-out, as it claims: the event's row, locked, skipping others' locks.
        const earlier = ctx.store.db.transaction().execute(async (trx) => {
          const rows = await trx
            .selectFrom('events')
            .select('event_id')
            .where('event_id', '=', id)
            .where('fanned_out_at', 'is', null)
            .forNoKeyUpdate()
            .skipLocked()
            .execute();
          assert.equal(rows.length, 1);
          claimed();
          await released;
          await trx.updateTable('events').set({ fanned_out_at: 1 }).where('event_id', '=', id).execute();
        });
        await hasClaimed;
        let settled = false;
        const relaying = relay().finally(() => (settled = true));
        await sleep(300);
        assert.equal(settled, false, "this version's fan-out waits for the earlier one's lock");
        release();
        await earlier;
        await relaying;
        assert.deepEqual(await jobsOf([id]), [], 'fanned out by the earlier version only');
        assert.deepEqual(await pendingOf([id]), []);
      },
    );
  });
}

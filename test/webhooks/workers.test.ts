import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';
import { addEndpoint } from '../../src/webhooks/endpoints.ts';
import { eventIdsOf, moveTo, newAppId, submitMany } from '../helpers/events.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { createStoreTarget } from '../helpers/stores.ts';
import { spawnWorker, stopWorker, type WorkerProcess } from '../helpers/worker.ts';
import { skipWithout } from '../helpers/components.ts';

/**
 * Three `cardapply worker` processes on one PostgreSQL share 1,000 events through FOR UPDATE SKIP
 * LOCKED: every event is delivered, none is attempted twice (let alone twice at the same time),
 * and each worker does part of the work.
 */
const APPLICATIONS = 250;
const MOVES = ['IN_REVIEW', 'APPROVED', 'CARD_ISSUED'] as const;
const EVENTS = APPLICATIONS * (1 + MOVES.length);
const WORKERS = 3;

describe('three webhook workers on one PostgreSQL', { skip: skipWithout('postgres') }, () => {
  test(`deliver ${EVENTS} events, each attempted once, never twice at the same time`, async () => {
    const target = createStoreTarget('postgres');
    const env = {
      ...target.env,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_TIMEOUT_MS: '5000',
      WEBHOOK_LEASE_MS: '30000',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      WEBHOOK_CONCURRENCY: '8',
      DATABASE_POOL_SIZE: '4',
    };
    const ctx = await openContext(loadConfig(env), createLogger({ logLevel: 'silent' }));
    // A little latency at the receiver keeps many deliveries in flight across the workers.
    const receiver = await startReceiver([], () => ({
      status: 200,
      delayMs: Math.floor(Math.random() * 10),
    }));
    const workers: WorkerProcess[] = [];
    try {
      const appId = await newAppId(ctx);
      const endpoint = await addEndpoint(ctx, { appId, url: receiver.url });
      receiver.secrets = [endpoint.secret];

      // Half the events exist before the workers start, half are written while they run.
      const serials = await submitMany(ctx, appId, APPLICATIONS);
      for (const serial of serials.slice(0, APPLICATIONS / 2)) {
        for (const to of MOVES) await moveTo(ctx, serial, to);
      }
      for (let i = 0; i < WORKERS; i++) workers.push(await spawnWorker(env));
      for (const serial of serials.slice(APPLICATIONS / 2)) {
        for (const to of MOVES) await moveTo(ctx, serial, to);
      }
      const ids = await eventIdsOf(ctx, appId);
      assert.equal(ids.length, EVENTS);

      await receiver.waitFor(() => receiver.acknowledged().size === EVENTS, 120_000, 'every event');
      await new Promise((r) => setTimeout(r, 500));
      for (const worker of workers) {
        const code = await stopWorker(worker);
        assert.equal(code, 0, `worker exited with ${code}:\n${worker.output.slice(-20).join('\n')}`);
      }

      assert.equal(receiver.maxConcurrentPerId, 1, 'no event was attempted twice at the same time');
      assert.equal(receiver.received.length, EVENTS, 'no event was attempted twice at all');
      assert.ok(
        receiver.received.every((r) => r.verifiedBy === 0),
        'every signature verifies',
      );
      assert.deepEqual(new Set(receiver.received.map((r) => r.id)), new Set(ids));

      const attempts = await ctx.store.db
        .selectFrom('delivery_attempts')
        .select(['delivery_id', 'worker', 'status_code'])
        .execute();
      assert.equal(attempts.length, EVENTS);
      assert.equal(new Set(attempts.map((a) => a.delivery_id)).size, EVENTS);
      assert.ok(attempts.every((a) => a.status_code === 200));
      const perWorker = new Map<string, number>();
      for (const a of attempts) perWorker.set(a.worker, (perWorker.get(a.worker) ?? 0) + 1);
      assert.deepEqual(
        [...perWorker.keys()].sort(),
        workers.map((w) => w.workerId).sort(),
        `each worker delivered a share: ${JSON.stringify([...perWorker.values()])}`,
      );
      const pending = await ctx.store.db
        .selectFrom('deliveries')
        .select('id')
        .where('status', '!=', 'delivered')
        .execute();
      assert.equal(pending.length, 0);
    } finally {
      for (const w of workers)
        if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
      await receiver.close();
      await ctx.store.close();
      await target.cleanup();
    }
  });
});

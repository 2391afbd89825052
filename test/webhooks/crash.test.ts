import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';
import { LEASE_EXPIRED } from '../../src/webhooks/deliveryRepository.ts';
import { addEndpoint } from '../../src/webhooks/endpoints.ts';
import { eventIdsOf, moveTo, newAppId, submitMany } from '../helpers/events.ts';
import { spawnService } from '../helpers/process.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { createStoreTarget, storeNames } from '../helpers/stores.ts';
import { spawnWorker, stopWorker, type WorkerProcess } from '../helpers/worker.ts';

/**
 * The dispatcher in real processes. A `cardapply worker` process killed with SIGKILL while deliveries are in flight loses nothing:
 * its leases run out, a restarted worker takes the deliveries over, and every event is delivered.
 */
const ENV = {
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_LEASE_MS: '2000',
  WEBHOOK_BACKOFF_BASE_MS: '20',
  WEBHOOK_BACKOFF_MAX_MS: '200',
  WEBHOOK_POLL_INTERVAL_MS: '50',
  WEBHOOK_CONCURRENCY: '4',
};
const EVENTS = 40;

for (const storeName of storeNames()) {
  describe(`webhook worker crash on ${storeName}`, () => {
    test('the service process delivers by default, not with WEBHOOK_WORKER=false, and stops cleanly', async () => {
      const target = createStoreTarget(storeName);
      const env = { ...target.env, ...ENV };
      const ctx = await openContext(loadConfig(env), createLogger({ logLevel: 'silent' }));
      const receiver = await startReceiver();
      try {
        const appId = await newAppId(ctx);
        const endpoint = await addEndpoint(ctx, { appId, url: receiver.url });
        receiver.secrets = [endpoint.secret];

        const quiet = await spawnService({ ...env, WEBHOOK_WORKER: 'false' });
        await submitMany(ctx, appId, 1);
        await new Promise((r) => setTimeout(r, 500));
        assert.equal(receiver.received.length, 0, 'no dispatcher in this process');
        quiet.child.kill('SIGTERM');
        assert.equal(await quiet.exited, 0);

        const service = await spawnService(env);
        try {
          await receiver.waitFor(() => receiver.acknowledged().size === 1, 15_000, 'the event');
        } finally {
          service.child.kill('SIGTERM');
          assert.equal(await service.exited, 0, 'SIGTERM stops the server and the dispatcher');
        }
        assert.equal(receiver.received[0]!.verifiedBy, 0);
        assert.ok(service.output.some((line) => line.includes('webhook dispatcher stopped')));
      } finally {
        await receiver.close();
        await ctx.store.close();
        await target.cleanup();
      }
    });

    test('a worker killed with SIGKILL mid-delivery: after a restart every event is delivered', async () => {
      const target = createStoreTarget(storeName);
      const env = { ...target.env, ...ENV };
      const ctx = await openContext(loadConfig(env), createLogger({ logLevel: 'silent' }));
      const receiver = await startReceiver([], () => ({ status: 200, delayMs: 150 }));
      const workers: WorkerProcess[] = [];
      try {
        const appId = await newAppId(ctx);
        const endpoint = await addEndpoint(ctx, { appId, url: receiver.url });
        receiver.secrets = [endpoint.secret];
        const serials = await submitMany(ctx, appId, EVENTS / 2);
        for (const serial of serials) await moveTo(ctx, serial, 'IN_REVIEW');
        const ids = await eventIdsOf(ctx, appId);
        assert.equal(ids.length, EVENTS);

        const first = await spawnWorker(env);
        workers.push(first);
        // Kill it with requests in flight, part of the way through.
        await receiver.waitFor(
          () => receiver.received.length >= 8 && receiver.inFlight() > 0,
          20_000,
          'deliveries in flight',
        );
        first.child.kill('SIGKILL');
        await first.exited;
        const leased = await ctx.store.db
          .selectFrom('deliveries')
          .select(['id', 'leased_by'])
          .where('status', '=', 'delivering')
          .execute();
        assert.ok(leased.length > 0, 'the killed worker held leases');
        assert.ok(leased.every((l) => l.leased_by === first.workerId));
        const undelivered = ids.filter((id) => !receiver.acknowledged().has(id));
        assert.ok(undelivered.length > 0, 'the kill came before the end');

        const second = await spawnWorker(env);
        workers.push(second);
        try {
          await receiver.waitFor(
            () => ids.every((id) => receiver.acknowledged().has(id)),
            30_000,
            'every event after the restart',
          );
          // A request the receiver answered after the kill is delivered again once its lease runs
          // out (the receiver drops the copy by webhook-id): wait until the store says delivered.
          for (let i = 0; i < 600; i++) {
            const open = await ctx.store.db
              .selectFrom('deliveries')
              .select('id')
              .where('status', '!=', 'delivered')
              .executeTakeFirst();
            if (open === undefined) break;
            await new Promise((r) => setTimeout(r, 25));
          }
        } finally {
          assert.equal(await stopWorker(second), 0, 'SIGTERM stops the worker cleanly');
        }

        assert.ok(
          receiver.received.every((r) => r.verifiedBy === 0),
          'every request verifies',
        );
        const deliveries = await ctx.store.db
          .selectFrom('deliveries')
          .select(['id', 'status'])
          .where('endpoint_id', '=', endpoint.id)
          .execute();
        assert.equal(deliveries.length, EVENTS);
        assert.ok(deliveries.every((d) => d.status === 'delivered'));
        // The interrupted attempts are in the log, under the worker that never reported them.
        const interrupted = await ctx.store.db
          .selectFrom('delivery_attempts')
          .select(['delivery_id', 'worker'])
          .where('error', '=', LEASE_EXPIRED)
          .execute();
        assert.deepEqual(interrupted.map((a) => a.delivery_id).sort(), leased.map((l) => l.id).sort());
        assert.ok(interrupted.every((a) => a.worker === first.workerId));
      } finally {
        for (const w of workers)
          if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
        await receiver.close();
        await ctx.store.close();
        await target.cleanup();
      }
    });
  });
}

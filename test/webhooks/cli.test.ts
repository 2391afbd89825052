import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';
import { listDeliveries } from '../../src/webhooks/deliveries.ts';
import { createOperator } from '../../src/operators/operators.ts';
import { SYSTEM } from '../../src/audit/actor.ts';
import { TEST_PASSWORD } from '../helpers/operators.ts';
import { startDispatcher } from '../../src/webhooks/dispatcher.ts';
import { eventIdsOf, newAppId, submitMany } from '../helpers/events.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { createStoreTarget, storeNames } from '../helpers/stores.ts';

/** `npx cardapply webhooks ...` as operators run it, against each store. */
const BIN = fileURLToPath(new URL('../../bin/cardapply.js', import.meta.url));
const exec = promisify(execFile);

const ENV = {
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_TIMEOUT_MS: '3000',
  WEBHOOK_LEASE_MS: '6000',
  WEBHOOK_BACKOFF_BASE_MS: '20',
  WEBHOOK_BACKOFF_MAX_MS: '100',
  WEBHOOK_POLL_INTERVAL_MS: '25',
  WEBHOOK_MAX_AGE_SECONDS: '1',
};

for (const storeName of storeNames()) {
  describe(`cardapply webhooks on ${storeName}`, () => {
    test('add, list, deliveries, redeliver, rotate-secret, disable, enable, delete', async () => {
      const target = createStoreTarget(storeName);
      // An admin runs the commands that change endpoints, as in the console.
      const env = { ...process.env, ...target.env, ...ENV, CARDAPPLY_OPERATOR: 'ada' };
      const cli = async (...args: string[]) => {
        const { stdout } = await exec(process.execPath, [BIN, 'webhooks', ...args], { env });
        return stdout;
      };
      const json = async <T>(...args: string[]) => JSON.parse(await cli(...args, '--json')) as T;
      const ctx = await openContext(loadConfig(env), createLogger({ logLevel: 'silent' }));
      await createOperator(
        ctx,
        { username: 'ada', role: 'admin', password: TEST_PASSWORD },
        { actor: SYSTEM, source: 'test' },
      );
      let healthy = false;
      const receiver = await startReceiver([], () => ({ status: healthy ? 200 : 500 }));
      try {
        const appId = await newAppId(ctx);
        const added = await json<{ id: string; secret: string; events: string[]; app_id: string }>(
          'add',
          '--app',
          appId,
          '--url',
          receiver.url,
          '--events',
          'application.submitted,application.approved',
        );
        assert.match(added.id, /^we_[0-9a-f]{20}$/);
        assert.match(added.secret, /^whsec_/);
        assert.deepEqual(added.events, ['application.submitted', 'application.approved']);
        receiver.secrets = [added.secret];

        await assert.rejects(
          exec(process.execPath, [BIN, 'webhooks', 'add', '--app', appId, '--url', receiver.url], {
            env: { ...env, WEBHOOK_ALLOW_PRIVATE: 'false' },
          }),
          (error: { stderr: string; code: number }) => {
            assert.equal(error.code, 1);
            assert.match(error.stderr, /error: url: must be an absolute https URL/);
            return true;
          },
        );

        const listed = await cli('list', '--app', appId, '--json');
        assert.deepEqual(
          (JSON.parse(listed) as { id: string }[]).map((e) => e.id),
          [added.id],
        );
        assert.equal(listed.includes('whsec_'), false, 'list never shows a secret');

        // An event the receiver refuses until the (1 s) retry window closes: failed.
        await submitMany(ctx, appId, 1);
        const [eventId] = await eventIdsOf(ctx, appId);
        const dispatcher = startDispatcher(ctx, createLogger({ logLevel: 'silent' }), { pollIntervalMs: 25 });
        try {
          type Delivery = { status: string; event_id: string; attempts: { status_code: number | null }[] };
          for (let i = 0; i < 300; i++) {
            const [row] = await listDeliveries(ctx, { endpointId: added.id });
            if (row?.status === 'failed') break;
            await new Promise((r) => setTimeout(r, 25));
          }
          const deliveries = await json<Delivery[]>('deliveries', '--id', added.id);
          assert.equal(deliveries.length, 1);
          assert.equal(deliveries[0]!.status, 'failed');
          assert.ok(deliveries[0]!.attempts.length >= 2);
          assert.ok(deliveries[0]!.attempts.every((a) => a.status_code === 500));

          healthy = true;
          assert.deepEqual(await json('redeliver', '--endpoint', added.id, '--failed'), {
            queued: 1,
            in_flight: 0,
          });
          await receiver.waitFor(() => receiver.acknowledged().size === 1, 15_000, 'the redelivery');
          assert.deepEqual(await json('redeliver', '--event', eventId!), { queued: 1, in_flight: 0 });
          await receiver.waitFor(() => receiver.acknowledged().get(eventId!) === 2, 15_000, 'again');
        } finally {
          await dispatcher.stop();
          await receiver.close();
        }
        assert.ok(receiver.received.every((r) => r.verifiedBy === 0));
        const byEvent = await json<{ status: string; attempts: unknown[] }[]>(
          'deliveries',
          '--event',
          eventId!,
        );
        assert.equal(byEvent[0]!.status, 'delivered');

        const rotated = await json<{ secret: string; secrets: { expires_at: number | null }[] }>(
          'rotate-secret',
          '--id',
          added.id,
          '--overlap-seconds',
          '600',
        );
        assert.notEqual(rotated.secret, added.secret);
        assert.equal(rotated.secrets.filter((s) => s.expires_at !== null).length, 1);

        assert.equal((await json<{ status: string }>('disable', '--id', added.id)).status, 'disabled');
        assert.equal((await json<{ status: string }>('enable', '--id', added.id)).status, 'active');
        assert.deepEqual(await json('delete', '--id', added.id), {
          id: added.id,
          endpoint_id: added.id,
          deleted: true,
        });
        await assert.rejects(cli('delete', '--id', added.id), (error: { stderr: string }) => {
          assert.match(error.stderr, /error: id: no such webhook endpoint/);
          return true;
        });
        await assert.rejects(cli('deliveries'), /give --id/);
      } finally {
        await receiver.close();
        await ctx.store.close();
        await target.cleanup();
      }
    });
  });
}

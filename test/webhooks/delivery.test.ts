import assert from 'node:assert/strict';
import { EVENT_TYPES } from '../../src/record/lifecycle.ts';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { ERRORS, type ErrorName } from '../../src/errors/catalogue.ts';
import type { ServiceContext } from '../../src/context.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';
import { listDeliveries, redeliverEvent, redeliverFailed } from '../../src/webhooks/deliveries.ts';
import {
  startDispatcher,
  type AttemptReport,
  type DispatcherOptions,
} from '../../src/webhooks/dispatcher.ts';
import {
  addEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  rotateSecret,
  setEndpointStatus,
} from '../../src/webhooks/endpoints.ts';
import { checkedLookup } from '../../src/network/endpointUrl.ts';
import { eventIdsOf, moveTo, newAppId, submitMany } from '../helpers/events.ts';
import { countEventLoopTurns } from '../helpers/eventLoopGaps.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { createStoreTarget, storeNames, type StoreTarget } from '../helpers/stores.ts';

/**
 * Webhook delivery end to end on every store: a real receiver on a loopback port verifies every
 * signature with the `standardwebhooks` package; the dispatcher runs in-process with short
 * back-off and time-out settings so that retries happen within a second or two.
 */

const FAST = {
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_TIMEOUT_MS: '3000',
  WEBHOOK_LEASE_MS: '6000',
  WEBHOOK_BACKOFF_BASE_MS: '20',
  WEBHOOK_BACKOFF_MAX_MS: '150',
  WEBHOOK_POLL_INTERVAL_MS: '25',
};

const silent = createLogger({ logLevel: 'silent' });

async function openTestContext(
  target: StoreTarget,
  env: Record<string, string> = {},
): Promise<ServiceContext> {
  return openContext(loadConfig({ ...target.env, ...FAST, ...env }), silent);
}

function dispatch(ctx: ServiceContext, options: DispatcherOptions = {}) {
  const reports: AttemptReport[] = [];
  const dispatcher = startDispatcher(ctx, silent, {
    concurrency: 4,
    ...options,
    onAttempt: (report) => reports.push(report),
  });
  return { dispatcher, reports };
}

const everyAcknowledged = (receiver: Receiver, ids: readonly string[]) => () => {
  const acked = receiver.acknowledged();
  return ids.every((id) => acked.has(id));
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const storeName of storeNames()) {
  describe(`webhooks on ${storeName}`, () => {
    let target: StoreTarget;
    let ctx: ServiceContext;

    before(async () => {
      target = createStoreTarget(storeName);
      ctx = await openTestContext(target);
    });
    after(async () => {
      await ctx.store.close();
      await target.cleanup();
    });

    test('every event arrives once, signed (verified by standardwebhooks), in the documented shape', async () => {
      const appId = await newAppId(ctx);
      const receiver = await startReceiver();
      const endpoint = await addEndpoint(ctx, { appId, url: receiver.url });
      assert.match(endpoint.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      receiver.secrets = [endpoint.secret];
      const serials = await submitMany(ctx, appId, 3);
      await moveTo(ctx, serials[0]!, 'IN_REVIEW');
      await moveTo(ctx, serials[0]!, 'APPROVED');
      await moveTo(ctx, serials[1]!, 'IN_REVIEW');
      await moveTo(ctx, serials[1]!, 'REJECTED', 'documents unreadable');
      const ids = await eventIdsOf(ctx, appId);
      assert.equal(ids.length, 7);

      const { dispatcher } = dispatch(ctx);
      try {
        await receiver.waitFor(everyAcknowledged(receiver, ids), 15_000, 'all events');
        await sleep(150);
      } finally {
        await dispatcher.stop();
        await receiver.close();
      }

      assert.equal(receiver.received.length, 7, 'one request per event, no retries needed');
      for (const r of receiver.received) {
        assert.equal(r.verifiedBy, 0, `signature of ${r.id} verifies`);
        assert.equal(r.signatures.length, 1);
        assert.equal(r.parsed.id, r.id, 'webhook-id is the event id');
        assert.ok(Math.abs(r.timestamp - Date.now() / 1000) < 60);
        assert.deepEqual(Object.keys(r.parsed).sort(), ['created_at', 'data', 'id', 'type']);
        assert.deepEqual(Object.keys(r.parsed.data).sort(), [
          'busi_water_no',
          'card_no_masked',
          'external_id',
          'previous_status',
          'reason',
          'reason_codes',
          'sequence',
          'status',
        ]);
        assert.match(String(r.parsed.data['card_no_masked']), /^[0-9]{6}\*+[0-9]{4}$/);
      }
      // Sequence numbers let a receiver order one application's events: 1, 2, 3 in occurrence order.
      const first = receiver.received
        .filter((r) => r.parsed.data.busi_water_no === serials[0])
        .sort((a, b) => a.parsed.data.sequence - b.parsed.data.sequence);
      assert.deepEqual(
        first.map((r) => [r.parsed.data.sequence, r.parsed.type, r.parsed.data['previous_status']]),
        [
          [1, 'application.submitted', null],
          [2, 'application.in_review', 'SUBMITTED'],
          [3, 'application.approved', 'IN_REVIEW'],
        ],
      );
      const rejected = receiver.received.find((r) => r.parsed.type === 'application.rejected');
      assert.equal(rejected?.parsed.data['reason'], 'documents unreadable');

      const deliveries = await listDeliveries(ctx, { endpointId: endpoint.id });
      assert.equal(deliveries.length, 7);
      for (const d of deliveries) {
        assert.equal(d.status, 'delivered');
        assert.equal(d.attempts.length, 1);
        assert.equal(d.attempts[0]!.status_code, 204);
        assert.ok(d.attempts[0]!.duration_ms !== null && d.attempts[0]!.duration_ms >= 0);
      }
    });

    test('a receiver answering 500 to its first calls gets every event exactly once; the log shows the retries', async () => {
      const appId = await newAppId(ctx);
      const FAILURES = 8;
      const receiver = await startReceiver([], (call) => ({ status: call < FAILURES ? 500 : 200 }));
      const endpoint = await addEndpoint(ctx, { appId, url: receiver.url });
      receiver.secrets = [endpoint.secret];
      await submitMany(ctx, appId, 4);
      const ids = await eventIdsOf(ctx, appId);

      const { dispatcher, reports } = dispatch(ctx);
      try {
        await receiver.waitFor(everyAcknowledged(receiver, ids), 15_000, 'all events');
        await sleep(300);
      } finally {
        await dispatcher.stop();
        await receiver.close();
      }
      assert.ok(
        receiver.received.every((r) => r.verifiedBy === 0),
        'every request verifies',
      );
      const acked = receiver.acknowledged();
      assert.deepEqual([...acked.values()], [1, 1, 1, 1], 'each event acknowledged exactly once');
      assert.equal(receiver.received.length, FAILURES + ids.length);
      assert.equal(reports.filter((r) => r.outcome === 'retry').length, FAILURES);

      const deliveries = await listDeliveries(ctx, { endpointId: endpoint.id });
      const attempts = deliveries.flatMap((d) => d.attempts);
      assert.equal(attempts.length, FAILURES + ids.length, 'every attempt is in the log');
      assert.equal(attempts.filter((a) => a.status_code === 500 && a.error === 'HTTP 500').length, FAILURES);
      for (const d of deliveries) {
        assert.equal(d.status, 'delivered');
        assert.equal(d.attempts.at(-1)!.status_code, 200);
        assert.equal(d.attempt_count, d.attempts.length);
        // Retries of one webhook keep its id: the receiver can drop a copy it already has.
        assert.ok(receiver.received.filter((r) => r.id === d.event_id).length === d.attempts.length);
      }
    });

    test('a receiver that is down for a while gets every event once it is back', async () => {
      const appId = await newAppId(ctx);
      const receiver = await startReceiver();
      const endpoint = await addEndpoint(ctx, { appId, url: receiver.url });
      receiver.secrets = [endpoint.secret];
      await receiver.stop();
      await submitMany(ctx, appId, 3);
      const ids = await eventIdsOf(ctx, appId);

      const { dispatcher, reports } = dispatch(ctx);
      try {
        // Three refused attempts for each event, not nine in all: the retries need not share out evenly.
        await receiver.waitFor(
          () =>
            ids.every((id) => reports.filter((r) => r.outcome === 'retry' && r.eventId === id).length >= 3),
          15_000,
          'failed attempts while down',
        );
        await receiver.start();
        await receiver.waitFor(everyAcknowledged(receiver, ids), 15_000, 'all events after recovery');
        await sleep(200);
      } finally {
        await dispatcher.stop();
        await receiver.close();
      }
      assert.deepEqual([...receiver.acknowledged().values()], [1, 1, 1]);
      assert.ok(receiver.received.every((r) => r.verifiedBy === 0));
      const deliveries = await listDeliveries(ctx, { endpointId: endpoint.id });
      for (const d of deliveries) {
        assert.equal(d.status, 'delivered');
        const refused = d.attempts.filter((a) => a.error === 'ECONNREFUSED' && a.status_code === null);
        assert.ok(refused.length >= 3, `attempts while down are logged (${refused.length})`);
      }
    });

    test('an attempt that outlasts the time-out is cut off, logged and retried', async () => {
      const ctx = await openTestContext(target, { WEBHOOK_TIMEOUT_MS: '500', WEBHOOK_LEASE_MS: '1000' });
      after(() => ctx.store.close());
      const appId = await newAppId(ctx);
      const receiver = await startReceiver([], (call) =>
        call === 0 ? { status: 200, delayMs: 1500 } : { status: 200 },
      );
      const endpoint = await addEndpoint(ctx, { appId, url: receiver.url });
      receiver.secrets = [endpoint.secret];
      await submitMany(ctx, appId, 1);
      const [eventId] = await eventIdsOf(ctx, appId);

      const { dispatcher } = dispatch(ctx);
      try {
        await receiver.waitFor(() => receiver.received.length >= 2, 15_000, 'the retry');
      } finally {
        await dispatcher.stop();
        await receiver.close();
      }
      const [delivery] = await listDeliveries(ctx, { eventId: eventId! });
      assert.equal(delivery?.status, 'delivered');
      const [first, second] = delivery!.attempts;
      assert.equal(first?.error, 'timeout');
      assert.ok(
        first!.duration_ms! >= 450 && first!.duration_ms! < 1500,
        `cut off at ${first!.duration_ms} ms`,
      );
      assert.equal(second?.status_code, 200);
    });

    test('after the retry window a delivery is failed; redeliver --failed sends it again', async () => {
      const shortCtx = await openTestContext(target, { WEBHOOK_MAX_AGE_SECONDS: '1' });
      try {
        const appId = await newAppId(shortCtx);
        let healthy = false;
        const receiver = await startReceiver([], () => ({ status: healthy ? 200 : 503 }));
        const endpoint = await addEndpoint(shortCtx, { appId, url: receiver.url });
        receiver.secrets = [endpoint.secret];
        await submitMany(shortCtx, appId, 2);
        const { dispatcher } = dispatch(shortCtx);
        try {
          await receiver.waitFor(() => receiver.received.length >= 4, 15_000, 'some attempts');
          let failed = 0;
          for (let i = 0; i < 150 && failed < 2; i++) {
            failed = (await listDeliveries(shortCtx, { endpointId: endpoint.id, status: 'failed' })).length;
            if (failed < 2) await sleep(100);
          }
          assert.equal(failed, 2, 'both deliveries are failed after the window');
          const failedAt = await listDeliveries(shortCtx, { endpointId: endpoint.id });
          for (const d of failedAt) {
            assert.ok(d.attempt_count >= 2);
            assert.equal(d.last_status_code, 503);
            // The last attempt is made at or after the end of the window, never before it.
            assert.ok(d.attempts.at(-1)!.started_at_ms >= d.give_up_at * 1000);
          }

          healthy = true;
          const before = receiver.received.length;
          assert.deepEqual(await redeliverFailed(shortCtx, endpoint.id), { queued: 2, in_flight: 0 });
          await receiver.waitFor(() => receiver.acknowledged().size === 2, 15_000, 'redelivery');
          assert.equal(receiver.received.length, before + 2);
        } finally {
          await dispatcher.stop();
          await receiver.close();
        }
        const deliveries = await listDeliveries(shortCtx, { endpointId: endpoint.id });
        assert.deepEqual(
          deliveries.map((d) => d.status),
          ['delivered', 'delivered'],
        );
      } finally {
        await shortCtx.store.close();
      }
    });

    test('secret rotation: both secrets sign during the overlap, only the new one after it', async () => {
      const appId = await newAppId(ctx);
      const receiver = await startReceiver();
      const endpoint = await addEndpoint(ctx, { appId, url: receiver.url });
      const rotated = await rotateSecret(ctx, endpoint.id, 3600);
      assert.notEqual(rotated.secret, endpoint.secret);
      assert.equal(rotated.secrets.length, 2);
      assert.ok(rotated.secrets.some((s) => s.expires_at !== null));
      receiver.secrets = [endpoint.secret, rotated.secret];
      const [serial] = await submitMany(ctx, appId, 1);

      const { dispatcher } = dispatch(ctx);
      try {
        await receiver.waitFor(() => receiver.received.length === 1, 15_000, 'first event');
        const [during] = receiver.received;
        assert.equal(during!.signatures.length, 2, 'two signatures during the overlap');
        assert.deepEqual(during!.verifiedWith, [0, 1], 'each secret alone verifies it');

        const final = await rotateSecret(ctx, endpoint.id, 0);
        assert.equal(final.secrets.length, 1);
        receiver.secrets = [endpoint.secret, rotated.secret, final.secret];
        await moveTo(ctx, serial!, 'IN_REVIEW');
        await receiver.waitFor(() => receiver.received.length === 2, 15_000, 'second event');
        const [, afterwards] = receiver.received;
        assert.equal(afterwards!.signatures.length, 1);
        assert.deepEqual(afterwards!.verifiedWith, [2], 'only the newest secret signs');
      } finally {
        await dispatcher.stop();
        await receiver.close();
      }
      assert.equal(
        JSON.stringify(await listEndpoints(ctx, { appId })).includes('whsec_'),
        false,
        'listing never shows a secret',
      );
    });

    test('event filters, disabled endpoints, later endpoints and redelivery of one event', async () => {
      const appId = await newAppId(ctx);
      const otherApp = await newAppId(ctx, 'someone else');
      const receiver = await startReceiver();
      const approvedOnly = await addEndpoint(ctx, {
        appId,
        url: `${receiver.url}?who=approved`,
        events: ['application.approved'],
      });
      const disabled = await addEndpoint(ctx, { appId, url: `${receiver.url}?who=disabled` });
      const foreign = await addEndpoint(ctx, { appId: otherApp, url: `${receiver.url}?who=foreign` });
      receiver.secrets = [approvedOnly.secret, disabled.secret, foreign.secret];
      await setEndpointStatus(ctx, disabled.id, 'disabled');

      const [serial] = await submitMany(ctx, appId, 1);
      await moveTo(ctx, serial!, 'IN_REVIEW');
      const approvedEvent = await moveTo(ctx, serial!, 'APPROVED');
      let laterId: string | undefined;
      const { dispatcher } = dispatch(ctx);
      try {
        await receiver.waitFor(() => receiver.received.length >= 1, 15_000, 'the approved event');
        await sleep(300);
        assert.deepEqual(
          receiver.received.map((r) => [r.parsed.type, r.verifiedBy]),
          [['application.approved', 0]],
          'only the filtered type, only to the enabled endpoint of the app',
        );

        await setEndpointStatus(ctx, disabled.id, 'active');
        const later = await addEndpoint(ctx, { appId, url: `${receiver.url}?who=later` });
        receiver.secrets.push(later.secret);
        laterId = later.id;
        await sleep(300);
        assert.equal(receiver.received.length, 1, 'events from before are not queued for them');

        // Redelivery of one event: to every endpoint of the app that takes it, registered later too.
        const result = await redeliverEvent(ctx, approvedEvent);
        assert.deepEqual(result, { queued: 3, in_flight: 0 });
        await receiver.waitFor(() => receiver.received.length === 4, 15_000, 'redeliveries');
        await sleep(200);
        assert.equal(receiver.received.length, 4);
        assert.ok(receiver.received.every((r) => r.id === approvedEvent));
        assert.deepEqual(receiver.received.map((r) => r.verifiedBy).sort(), [0, 0, 1, 3]);

        await assert.rejects(redeliverEvent(ctx, approvedEvent, foreign.id), {
          error: 'webhookEndpointNotFound',
        });
        await assert.rejects(redeliverEvent(ctx, 'evt_nope'), { error: 'eventNotFound' });
        await setEndpointStatus(ctx, later.id, 'disabled');
        await assert.rejects(redeliverEvent(ctx, approvedEvent, later.id), {
          error: 'webhookEndpointDisabled',
        });
      } finally {
        await dispatcher.stop();
        await receiver.close();
      }

      // Deleting an endpoint takes its secrets, deliveries and attempts with it.
      assert.deepEqual(await deleteEndpoint(ctx, approvedOnly.id), {
        id: approvedOnly.id,
        endpoint_id: approvedOnly.id,
        deleted: true,
      });
      await assert.rejects(getEndpoint(ctx, approvedOnly.id), { error: 'webhookEndpointNotFound' });
      const left = await listDeliveries(ctx, { eventId: approvedEvent });
      assert.deepEqual(left.map((d) => d.endpoint_id).sort(), [disabled.id, laterId!].sort());
      await assert.rejects(deleteEndpoint(ctx, approvedOnly.id), { error: 'webhookEndpointNotFound' });
    });

    test('endpoint URLs: https and public only, checked at registration and at delivery', async () => {
      const strict = {
        ...ctx,
        config: { ...ctx.config, webhooks: { ...ctx.config.webhooks, allowPrivate: false } },
      };
      const appId = await newAppId(ctx);
      const refused = async (url: string, code: number) => {
        await assert.rejects(addEndpoint(strict, { appId, url }), (error: unknown) => {
          const problems = (error as { problems?: { field: string; error: ErrorName }[] }).problems ?? [];
          assert.equal(problems[0]?.field, 'url', url);
          assert.equal(ERRORS[problems[0]!.error].code, code, url);
          return true;
        });
      };
      await refused('http://example.com/hook', 42231);
      await refused('ftp://example.com/hook', 42231);
      await refused('not a url', 42231);
      await refused('https://user:pw@example.com/hook', 42232);
      await refused('https://127.0.0.1/hook', 42233);
      await refused('https://localhost/hook', 42233);
      await refused('https://10.1.2.3/hook', 42233);
      await refused('https://169.254.169.254/latest', 42233);
      await refused('https://[::1]/hook', 42233);
      await refused('https://[fe80::1]/hook', 42233);
      await refused('https://0x7f.1/hook', 42233);
      await refused('https://does-not-exist.invalid/hook', 42280);
      await assert.rejects(addEndpoint(ctx, { appId: 'app_0000000000000000', url: 'http://127.0.0.1:1/x' }), {
        error: 'appNotFound',
      });
      await assert.rejects(
        addEndpoint(ctx, { appId, url: 'http://127.0.0.1:1/x', events: ['application.nope'] }),
        {
          problems: [
            {
              field: 'events',
              error: 'fieldNotAllowed',
              params: {
                allowed: EVENT_TYPES.join(', '),
              },
            },
          ],
        },
      );

      // At delivery: a worker without WEBHOOK_ALLOW_PRIVATE refuses to connect to a private address.
      const receiver = await startReceiver();
      const endpoint = await addEndpoint(ctx, { appId, url: receiver.url });
      await submitMany(ctx, appId, 1);
      const { dispatcher, reports } = dispatch(strict);
      try {
        await receiver.waitFor(() => reports.length >= 1, 15_000, 'an attempt');
      } finally {
        await dispatcher.stop();
        await receiver.close();
      }
      assert.equal(receiver.received.length, 0);
      assert.match(reports[0]!.error ?? '', /^refused: /);
      const [delivery] = await listDeliveries(ctx, { endpointId: endpoint.id });
      assert.match(delivery!.attempts[0]!.error ?? '', /^refused: /);
      await deleteEndpoint(ctx, endpoint.id);

      // The connection-time check: a name that resolves to a private address is refused.
      const error = await new Promise<Error | null>((resolve) =>
        checkedLookup(false)('localhost', {}, (e) => resolve(e)),
      );
      assert.equal((error as { code?: string } | null)?.code, 'EPRIVATEADDRESS');
    });

    test('a backlog of several fan-out batches is taken a turn of the event loop apart', async () => {
      // SQLite answers in the event loop's own thread: batches taken back to back held the loop,
      // and every request waiting on it, for the whole backlog (tens of ms at 600 submissions a
      // second). A store of its own, so that every transaction seen here is a fan-out.
      const own = createStoreTarget(storeName);
      const ctx = await openTestContext(own);
      after(async () => {
        await ctx.store.close();
        await own.cleanup();
      });
      await submitMany(ctx, await newAppId(ctx), 210); // three batches: 100, 100 and 10
      const turns = countEventLoopTurns();
      const began: number[] = [];
      const ended: number[] = [];
      const watched: ServiceContext = {
        ...ctx,
        store: {
          ...ctx.store,
          transaction: async (work) => {
            began.push(turns.now());
            try {
              return await ctx.store.transaction(work);
            } finally {
              ended.push(turns.now());
            }
          },
        },
      };
      const { dispatcher } = dispatch(watched);
      try {
        const deadline = Date.now() + 15_000;
        const pending = () => ctx.store.db.selectFrom('events_pending').select('event_id').execute();
        while ((await pending()).length > 0 && Date.now() < deadline) await sleep(20);
        assert.deepEqual(await pending(), [], 'the backlog was fanned out');
      } finally {
        await dispatcher.stop();
        turns.stop();
      }
      assert.equal(began.length, 3, `fan-out transactions: ${began.length}`);
      assert.ok(
        began.every((at, i) => i === 0 || at > ended[i - 1]!),
        `each batch begins on a later turn than the one before ended: began ${began.join(', ')}, ended ${ended.join(', ')}`,
      );
    });

    test('stop() lets a short attempt finish and releases one that takes too long', async () => {
      // A time-out well beyond the stop grace: the attempt is cut short by stop(), not by the time-out.
      const ctx = await openTestContext(target, { WEBHOOK_TIMEOUT_MS: '5000', WEBHOOK_LEASE_MS: '10000' });
      after(() => ctx.store.close());
      const appId = await newAppId(ctx);
      const receiver = await startReceiver([], (call) => ({ status: 200, delayMs: call === 0 ? 1500 : 0 }));
      const endpoint = await addEndpoint(ctx, { appId, url: receiver.url });
      receiver.secrets = [endpoint.secret];
      await submitMany(ctx, appId, 1);
      const slow = await startDispatcherUntilAttempt(ctx, endpoint.id, { stopGraceMs: 100 });
      await slow.dispatcher.stop();
      assert.equal(slow.reports[0]?.outcome, 'released');
      const [released] = await listDeliveries(ctx, { endpointId: endpoint.id });
      assert.equal(released!.status, 'pending');
      assert.equal(released!.attempt_count, 0, 'a released attempt does not count towards the back-off');
      assert.equal(released!.attempts[0]!.error, 'aborted');

      const { dispatcher } = dispatch(ctx);
      try {
        await receiver.waitFor(
          () => receiver.acknowledged().size === 1 && receiver.received.length >= 2,
          15_000,
          'delivery',
        );
      } finally {
        await dispatcher.stop();
        await receiver.close();
      }
      const [delivered] = await listDeliveries(ctx, { endpointId: endpoint.id });
      assert.equal(delivered!.status, 'delivered');
    });
  });
}

async function startDispatcherUntilAttempt(
  ctx: ServiceContext,
  endpointId: string,
  options: DispatcherOptions,
): Promise<ReturnType<typeof dispatch>> {
  const started = dispatch(ctx, options);
  const deadline = Date.now() + 15_000;
  // The receiver has the request once its handler runs; it answers only after its delay.
  while (Date.now() < deadline) {
    const inFlight = await ctx.store.db
      .selectFrom('deliveries')
      .select('id')
      .where('status', '=', 'delivering')
      .where('endpoint_id', '=', endpointId)
      .executeTakeFirst();
    if (inFlight !== undefined) {
      await sleep(200);
      return started;
    }
    await sleep(20);
  }
  throw new Error('no attempt started');
}

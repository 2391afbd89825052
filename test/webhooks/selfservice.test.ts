import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLogger } from '../../src/logger.ts';
import { PATHS } from '../../src/http/paths.ts';
import { startDispatcher } from '../../src/webhooks/dispatcher.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { ADMIN, call, newOperator, type TestOperator } from '../helpers/operators.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import {
  newPartner,
  nowSeconds,
  post,
  startService,
  type TestPartner,
  type TestService,
} from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * A partner's own webhook endpoints over HTTP, on every store, with a real receiver that verifies
 * every signature with the `standardwebhooks` package: register, list, test, events of real
 * transitions (reason codes included), deliveries and attempts, rotation with an overlap,
 * redelivery, disable, enable, delete; another app's endpoint answers like an unknown one; the
 * SSRF rules of registration; and the automatic disable of an endpoint failing for five days.
 */

const FAST = {
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_TIMEOUT_MS: '3000',
  WEBHOOK_LEASE_MS: '6000',
  WEBHOOK_BACKOFF_BASE_MS: '20',
  WEBHOOK_BACKOFF_MAX_MS: '200',
};
const DAY = 86_400_000;
let next = 120_000;

interface Endpoint {
  id: string;
  status: string;
  secret?: string;
  failing_since: number | null;
  disabled_reason: string | null;
  secrets: { id: string; expires_at: number | null }[];
}

for (const storeName of storeNames()) {
  describe(`self-service webhooks on ${storeName}`, () => {
    let service: TestService;
    let partner: TestPartner;
    let other: TestPartner;
    let reviewer: TestOperator;
    const logger = createLogger({ logLevel: 'silent' });

    const as = (who: TestPartner, path: string, body: Record<string, unknown> = {}) =>
      post(
        service.baseUrl,
        path,
        { app_id: who.appId, timestamp: nowSeconds(), ...body },
        { token: who.token },
      );
    const ok = async <T>(who: TestPartner, path: string, body: Record<string, unknown> = {}) => {
      const reply = await as(who, path, body);
      assert.equal(reply.status, 200, `${path}: ${reply.text}`);
      return reply.body.data as T;
    };
    const submit = async (who: TestPartner) =>
      (
        (await post(service.baseUrl, PATHS.apply, uniqueApplicant(next++, who.appId), { token: who.token }))
          .body.data as { busi_water_no: string }
      ).busi_water_no;

    before(async () => {
      service = await startService(storeName, FAST);
      partner = await newPartner(service);
      other = await newPartner(service, 'other partner');
      reviewer = await newOperator(service, 'reviewer');
    });
    after(() => service.close());

    test('the life cycle of an endpoint, every message verified by standardwebhooks', async () => {
      const receiver: Receiver = await startReceiver();
      const dispatcher = startDispatcher(service.ctx, logger, { pollIntervalMs: 25 });
      try {
        const created = await ok<Endpoint>(partner, PATHS.webhookRegister, { url: receiver.url });
        assert.match(created.secret ?? '', /^whsec_/);
        receiver.secrets = [created.secret!];
        const listed = await ok<{ items: Endpoint[] }>(partner, PATHS.webhookList);
        assert.deepEqual(
          listed.items.map((e) => e.id),
          [created.id],
        );
        assert.ok(!JSON.stringify(listed).includes(created.secret!), 'the secret is shown once');
        assert.deepEqual((await ok<{ items: Endpoint[] }>(other, PATHS.webhookList)).items, []);

        // A test message, signed, now.
        const tested = await ok<{ delivered: boolean; status_code: number; event_id: string }>(
          partner,
          PATHS.webhookTest,
          { endpoint_id: created.id },
        );
        assert.deepEqual([tested.delivered, tested.status_code], [true, 204]);
        const testMessage = receiver.received.find((r) => r.id === tested.event_id);
        assert.equal(testMessage?.parsed.type, 'webhook.test');
        assert.equal(testMessage?.verifiedBy, 0);

        // Events of real transitions: a submission and a rejection with its codes.
        const serial = await submit(partner);
        await call(service, 'POST', `${ADMIN}/applications/${serial}/reject`, {
          token: reviewer.token,
          body: { reason_codes: ['name_mismatch'] },
        });
        await receiver.waitFor(
          () => receiver.received.some((r) => r.parsed.type === 'application.rejected'),
          10_000,
          'the rejection',
        );
        const rejected = receiver.received.find((r) => r.parsed.type === 'application.rejected')!;
        assert.deepEqual(rejected.parsed.data['reason_codes'], ['name_mismatch']);

        const byEndpoint = await ok<{ items: { event_type: string; status: string; attempts: unknown[] }[] }>(
          partner,
          PATHS.webhookDeliveries,
          { endpoint_id: created.id },
        );
        await receiver.waitFor(() => receiver.acknowledged().size >= 3, 10_000, 'both events acknowledged');
        assert.ok(byEndpoint.items.length >= 1);
        const byEvent = await ok<{ items: { status: string; attempts: { status_code: number }[] }[] }>(
          partner,
          PATHS.webhookDeliveries,
          { event_id: rejected.id },
        );
        assert.equal(byEvent.items[0]?.attempts[0]?.status_code, 204);

        // Rotation with an overlap: both secrets sign; then without: only the newest.
        const rotated = await ok<Endpoint>(partner, PATHS.webhookRotateSecret, {
          endpoint_id: created.id,
          overlap_seconds: 3600,
        });
        receiver.secrets = [created.secret!, rotated.secret!];
        const redelivered = await ok<{ queued: number }>(partner, PATHS.webhookRedeliver, {
          event_id: rejected.id,
          endpoint_id: created.id,
        });
        assert.equal(redelivered.queued, 1);
        await receiver.waitFor(
          () => receiver.received.filter((r) => r.id === rejected.id).length >= 2,
          10_000,
          'the redelivery',
        );
        assert.deepEqual(receiver.received.filter((r) => r.id === rejected.id).at(-1)?.verifiedWith, [0, 1]);
        const final = await ok<Endpoint>(partner, PATHS.webhookRotateSecret, {
          endpoint_id: created.id,
          overlap_seconds: 0,
        });
        receiver.secrets = [created.secret!, rotated.secret!, final.secret!];
        const retest = await ok<{ event_id: string }>(partner, PATHS.webhookTest, {
          endpoint_id: created.id,
        });
        // Without an overlap every secret in force stops at once: only the newest signs.
        assert.deepEqual(receiver.received.find((r) => r.id === retest.event_id)?.verifiedWith, [2]);

        // Disabled: nothing is sent; enabled again: it is.
        const disabled = await ok<Endpoint>(partner, PATHS.webhookDisable, { endpoint_id: created.id });
        assert.equal(disabled.status, 'disabled');
        const quiet = await submit(partner);
        // Events are queued for endpoints when the dispatcher fans them out: wait for that.
        for (const deadline = Date.now() + 10_000; ;) {
          const waiting = await service.ctx.store.db
            .selectFrom('events_pending')
            .innerJoin('events', 'events.event_id', 'events_pending.event_id')
            .select('events.event_id')
            .where('events.busi_water_no', '=', quiet)
            .executeTakeFirst();
          if (waiting === undefined) break;
          assert.ok(Date.now() < deadline, 'the event is fanned out');
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        const enabled = await ok<Endpoint>(partner, PATHS.webhookEnable, { endpoint_id: created.id });
        assert.equal(enabled.status, 'active');
        const loud = await submit(partner);
        await receiver.waitFor(
          () => receiver.received.some((r) => r.parsed.data.busi_water_no === loud),
          10_000,
          'the event after enabling',
        );
        assert.ok(!receiver.received.some((r) => r.parsed.data.busi_water_no === quiet));
        assert.ok(
          receiver.received.every((r) => r.verifiedBy >= 0),
          'every message verifies',
        );

        const deleted = await ok<{ deleted: boolean }>(partner, PATHS.webhookDelete, {
          endpoint_id: created.id,
        });
        assert.equal(deleted.deleted, true);
        assert.equal((await as(partner, PATHS.webhookShow, { endpoint_id: created.id })).status, 404);
      } finally {
        await dispatcher.stop();
        await receiver.close();
      }
    });

    test("another app's endpoint and events answer exactly like unknown ones", async () => {
      const receiver = await startReceiver();
      try {
        const mine = await ok<Endpoint>(partner, PATHS.webhookRegister, { url: receiver.url });
        const serial = await submit(partner);
        const [event] = (
          await ok<{ items: { id: string }[] }>(partner, PATHS.events, { busi_water_no: serial })
        ).items;
        for (const [path, extra] of [
          [PATHS.webhookShow, {}],
          [PATHS.webhookRotateSecret, {}],
          [PATHS.webhookDisable, {}],
          [PATHS.webhookEnable, {}],
          [PATHS.webhookDelete, {}],
          [PATHS.webhookTest, {}],
          [PATHS.webhookDeliveries, {}],
          [PATHS.webhookRedeliver, { event_id: event!.id }],
        ] as const) {
          const foreign = await as(other, path, { endpoint_id: mine.id, ...extra });
          const unknown = await as(other, path, { endpoint_id: 'we_00000000000000000000', ...extra });
          assert.equal(foreign.status, 404, `${path}: ${foreign.text}`);
          assert.equal(foreign.text, unknown.text, path);
        }
        const foreignEvent = await as(other, PATHS.webhookRedeliver, { event_id: event!.id });
        assert.equal(foreignEvent.status, 404);
        assert.equal(
          foreignEvent.body.msg,
          (await as(other, PATHS.webhookRedeliver, { event_id: 'evt_none' })).body.msg,
        );
        assert.equal(
          (await ok<Endpoint>(partner, PATHS.webhookShow, { endpoint_id: mine.id })).status,
          'active',
        );
        await ok(partner, PATHS.webhookDelete, { endpoint_id: mine.id });
      } finally {
        await receiver.close();
      }
    });

    test('registration takes https to public hosts only (as the operators’ does)', async () => {
      const strict = await startService(storeName);
      try {
        const strictPartner = await newPartner(strict);
        for (const [url, code] of [
          ['http://hooks.example.com/cardapply', 42231],
          ['https://user:pw@hooks.example.com/', 42232],
          ['https://127.0.0.1/hook', 42233],
          ['https://10.1.2.3/hook', 42233],
          ['https://localhost/hook', 42233],
          ['https://[::1]/hook', 42233],
        ] as const) {
          const reply = await post(
            strict.baseUrl,
            PATHS.webhookRegister,
            { app_id: strictPartner.appId, timestamp: nowSeconds(), url },
            { token: strictPartner.token },
          );
          assert.equal(reply.status, 422, `${url}: ${reply.text}`);
          assert.equal(reply.body.code, code, `${url}: ${reply.text}`);
        }
      } finally {
        await strict.close();
      }
    });

    test('an endpoint failing for five days in a row is disabled, with an audit row and a metric', async () => {
      const receiver = await startReceiver([], () => ({ status: 500 }));
      const endpoint = await ok<Endpoint>(partner, PATHS.webhookRegister, { url: receiver.url });
      const before = (await service.ctx.metrics.webhookEndpointsAutoDisabled.get()).values[0]?.value ?? 0;
      const first = startDispatcher(service.ctx, logger, { pollIntervalMs: 25 });
      const serial = await submit(partner);
      try {
        await receiver.waitFor(() => receiver.received.length >= 2, 10_000, 'failed attempts');
      } finally {
        await first.stop();
      }
      const failing = await ok<Endpoint>(partner, PATHS.webhookShow, { endpoint_id: endpoint.id });
      assert.equal(failing.status, 'active');
      assert.ok(failing.failing_since !== null, 'failures are counted from the first');

      // Five days on (the dispatcher's clock, ctx.now()), the next failure disables it.
      const later = { ...service.ctx, now: () => Date.now() + 5 * DAY + 3_600_000 };
      const second = startDispatcher(later, logger, { pollIntervalMs: 25 });
      try {
        const deadline = Date.now() + 10_000;
        for (;;) {
          const view = await ok<Endpoint>(partner, PATHS.webhookShow, { endpoint_id: endpoint.id });
          if (view.status === 'disabled') {
            assert.equal(view.disabled_reason, 'failing');
            break;
          }
          assert.ok(Date.now() < deadline, 'disabled within 10 s');
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } finally {
        await second.stop();
        await receiver.close();
      }
      const audit = await service.ctx.store.db
        .selectFrom('audit_log')
        .select(['actor', 'target_type', 'target_id', 'details'])
        .where('action', '=', 'webhook.auto_disable')
        .execute();
      const row = audit.find((a) => (a.details ?? '').includes(endpoint.id));
      assert.deepEqual([row?.actor, row?.target_type, row?.target_id], ['system', 'app', partner.appId]);
      assert.equal(audit.filter((a) => (a.details ?? '').includes(endpoint.id)).length, 1);
      const after = (await service.ctx.metrics.webhookEndpointsAutoDisabled.get()).values[0]?.value ?? 0;
      assert.equal(after, before + 1);
      // Its owner enables it again: the health record starts afresh.
      const enabled = await ok<Endpoint>(partner, PATHS.webhookEnable, { endpoint_id: endpoint.id });
      assert.deepEqual(
        [enabled.status, enabled.failing_since, enabled.disabled_reason],
        ['active', null, null],
      );
      assert.ok(serial.length > 0);
      await ok(partner, PATHS.webhookDelete, { endpoint_id: endpoint.id });
    });
  });
}

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.ts';
import { PATHS } from '../../src/http/paths.ts';
import { startDispatcher } from '../../src/webhooks/dispatcher.ts';
import { addEndpoint } from '../../src/webhooks/endpoints.ts';
import { ADMIN, call, move, newOperator, pathTo, type TestOperator } from '../helpers/operators.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { newPartner, post, startService, type TestPartner, type TestService } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';
import { screeningRunner, screeningSettled, submitOver, unList, uploadList } from './screeningHelpers.ts';

/**
 * The issuer's alert: a list import finds a customer whose card is already delivered. The issuer's
 * own endpoint (a real HTTP server here) receives exactly one alert, signed as Standard Webhooks
 * specifies and verified with the `standardwebhooks` package, after a refused first attempt; the
 * admin feed lists it; the partner's events, webhooks and status view show nothing of it.
 */
const LIST = unList({
  dataId: 2,
  first: 'SHI',
  second: 'MINGYUAN',
  reference: 'TSi.ALERT',
  original: '施明远',
});

const silent = pino({ level: 'silent' });
const ISSUER_SECRET = `whsec_${randomBytes(32).toString('base64')}`;

test('the issuer endpoint needs its secret, and the secret its endpoint', () => {
  assert.throws(() => loadConfig({ ISSUER_WEBHOOK_URL: 'https://compliance.example/alerts' }), {
    message: /ISSUER_WEBHOOK_SECRET: is required with ISSUER_WEBHOOK_URL/,
  });
  assert.throws(() => loadConfig({ ISSUER_WEBHOOK_SECRET: ISSUER_SECRET }), {
    message: /ISSUER_WEBHOOK_URL: is required/,
  });
  assert.throws(
    () => loadConfig({ ISSUER_WEBHOOK_URL: 'https://compliance.example/a', ISSUER_WEBHOOK_SECRET: 'secret' }),
    { message: /ISSUER_WEBHOOK_SECRET: must be whsec_/ },
  );
  assert.throws(
    () =>
      loadConfig({
        ISSUER_WEBHOOK_URL: 'https://u:p@compliance.example/a',
        ISSUER_WEBHOOK_SECRET: ISSUER_SECRET,
      }),
    { message: /ISSUER_WEBHOOK_URL: must not carry credentials/ },
  );
});

for (const storeName of storeNames()) {
  describe(`the issuer's screening alert on ${storeName}`, () => {
    let issuer: Receiver;
    let partnerReceiver: Receiver;
    let service: TestService;
    let partner: TestPartner;
    let admin: TestOperator;
    let viewer: TestOperator;

    before(async () => {
      // The issuer's system refuses the first attempt: the alert is tried again with backoff.
      issuer = await startReceiver([ISSUER_SECRET], (call) => ({ status: call === 0 ? 503 : 204 }));
      partnerReceiver = await startReceiver();
      service = await startService(storeName, {
        ISSUER_WEBHOOK_URL: issuer.url,
        ISSUER_WEBHOOK_SECRET: ISSUER_SECRET,
        // The partner's receiver is on loopback too.
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_BACKOFF_BASE_MS: '50',
      });
      partner = await newPartner(service, 'delivered partner');
      admin = await newOperator(service, 'admin');
      viewer = await newOperator(service, 'viewer');
      const endpoint = await addEndpoint(service.ctx, { appId: partner.appId, url: partnerReceiver.url });
      partnerReceiver.secrets = [endpoint.secret];
    });
    after(async () => {
      await service.close();
      await issuer.close();
      await partnerReceiver.close();
    });

    const as = (operator: TestOperator, method: string, path: string, body?: unknown) =>
      call(service, method, `${ADMIN}${path}`, {
        token: operator.token,
        ...(body === undefined ? {} : { body }),
      });
    const submit = (n: number, overrides: Record<string, string> = {}) =>
      submitOver(service, partner, n, overrides);
    const query = (serial: string) =>
      post(
        service.baseUrl,
        PATHS.query,
        { app_id: partner.appId, timestamp: Math.floor(Date.now() / 1000), busi_water_no: serial },
        { token: partner.token },
      );
    const importList = () => uploadList(service, admin.token, LIST);
    const settled = (what: string) => screeningSettled(service, what);
    /** The ids of every event of the partner's applications (each one's `webhook-id`). */
    const partnerEventIds = async () =>
      new Set(
        (
          await service.ctx.store.db
            .selectFrom('events')
            .select('event_id')
            .where('app_id', '=', partner.appId)
            .execute()
        ).map((row) => row.event_id),
      );
    /** What the partner could ever hear of an application: its events and their webhook deliveries. */
    const counts = async (serial: string) => {
      const db = service.ctx.store.db;
      const events = await db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('busi_water_no', '=', serial)
        .executeTakeFirstOrThrow();
      const deliveries = await db
        .selectFrom('deliveries')
        .innerJoin('events', 'events.event_id', 'deliveries.event_id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('events.busi_water_no', '=', serial)
        .executeTakeFirstOrThrow();
      return { events: Number(events.n), deliveries: Number(deliveries.n) };
    };

    test('a delivered application screened after a list import raises exactly one alert, for the issuer alone', async () => {
      const runner = screeningRunner(service);
      const dispatcher = startDispatcher(service.ctx, silent, { pollIntervalMs: 25 });
      try {
        const applicant = { name: '施明远', name_en: 'SHI MINGYUAN' };
        const delivered = await submit(900_001, applicant);
        const ordinary = await submit(900_002);
        for (const to of pathTo('DELIVERED')) await move(service, delivered, to, partner.appId);
        await partnerReceiver.waitFor(
          () => partnerReceiver.received.some((r) => r.parsed.type === 'application.delivered'),
          30_000,
          'the partner hears of the delivery',
        );
        await settled('submission screening');
        // Everything the partner could hear so far, heard: the other application's submission, say,
        // may still be on its way on a loaded machine, and must not pass for news of the screening.
        const heardBefore = await partnerEventIds();
        await partnerReceiver.waitFor(
          () => [...heardBefore].every((id) => partnerReceiver.acknowledged().has(id)),
          30_000,
          'the partner hears of every event so far',
        );
        const before = { view: (await query(delivered)).text, ...(await counts(delivered)) };

        await importList();
        await issuer.waitFor(
          () => issuer.acknowledged().size === 1,
          30_000,
          'the issuer acknowledges an alert',
        );
        await settled('the re-screen');
        // A second import re-screens everyone again: the hit is known, no second alert.
        await importList();
        await settled('the second re-screen');
        await new Promise((resolve) => setTimeout(resolve, 300));

        assert.deepEqual(
          issuer.received.map((r) => r.answered),
          [503, 204],
          'one refused attempt, then one delivered',
        );
        const [first, second] = issuer.received;
        assert.equal(first!.id, second!.id, 'a retry keeps its webhook-id');
        for (const received of issuer.received)
          assert.equal(
            received.verifiedBy,
            0,
            'signed with ISSUER_WEBHOOK_SECRET (standardwebhooks verifies)',
          );
        const alert = JSON.parse(second!.body) as {
          id: string;
          type: string;
          data: Record<string, unknown>;
        };
        assert.equal(alert.type, 'screening.delivered_hit');
        assert.equal(alert.id, second!.id);
        assert.deepEqual(
          {
            busi_water_no: alert.data['busi_water_no'],
            app_id: alert.data['app_id'],
            list: alert.data['list'],
            reference: alert.data['reference'],
            state: alert.data['state'],
            score: alert.data['score'],
          },
          {
            busi_water_no: delivered,
            app_id: partner.appId,
            list: 'un',
            reference: 'TSi.ALERT',
            state: 'unresolved',
            score: 1,
          },
        );
        // The issuer's systems look the applicant up themselves: no identity data travels.
        for (const value of [applicant.name, applicant.name_en, 'SHI', 'MINGYUAN'])
          assert.ok(!second!.body.includes(value), `the alert carries no name (${value})`);
        assert.ok(
          !issuer.received.some((r) => r.body.includes(ordinary)),
          'the ordinary applicant is no alert',
        );

        // The partner: the same status view, no event, no webhook delivery, nothing received.
        await new Promise((resolve) => setTimeout(resolve, 200));
        assert.equal((await query(delivered)).text, before.view);
        const afterwards = await counts(delivered);
        assert.deepEqual(afterwards, { events: before.events, deliveries: before.deliveries });
        assert.deepEqual(await partnerEventIds(), heardBefore, 'no new event for the partner');
        assert.deepEqual(
          new Set(partnerReceiver.received.map((r) => r.id)),
          heardBefore,
          'the partner hears nothing more (a retried delivery of an earlier event aside)',
        );
        for (const received of partnerReceiver.received) {
          assert.match(received.parsed.type, /^application\./);
          assert.ok(!received.body.includes('sanctions') && !received.body.includes('screening'));
        }

        // The admin feed: the same alert, with a cursor to resume from.
        const feed = await as(viewer, 'GET', '/screening/alerts');
        assert.equal(feed.status, 200, feed.text);
        const page = feed.body.data as { items: { id: string }[]; next_cursor: string; has_more: boolean };
        assert.deepEqual(
          page.items.map((item) => item.id),
          [alert.id],
        );
        assert.deepEqual(page.items[0], { ...alert, data: { ...alert.data } });
        assert.equal(page.has_more, false);
        const resumed = await as(viewer, 'GET', `/screening/alerts?cursor=${page.next_cursor}`);
        assert.deepEqual(resumed.body.data, { items: [], next_cursor: page.next_cursor, has_more: false });
        const bad = await as(viewer, 'GET', '/screening/alerts?cursor=bm90LWEtY3Vyc29y');
        assert.equal(bad.status, 422, bad.text);
        assert.equal((await call(service, 'GET', `${ADMIN}/screening/alerts`)).status, 401);

        // The workload view's alert, and the audit trail.
        const workload = await as(viewer, 'GET', '/workload');
        assert.deepEqual((workload.body.data as { screening: unknown }).screening, {
          open_hits: 1,
          delivered_alerts: 1,
        });
        const audit = await service.ctx.store.db
          .selectFrom('audit_log')
          .select(['action', 'details'])
          .where('target_id', '=', delivered)
          .where('action', 'like', 'screening.%')
          .execute();
        assert.equal(audit.length, 1);
        assert.equal((JSON.parse(audit[0]!.details!) as { after_delivery: boolean }).after_delivery, true);
      } finally {
        await runner.stop();
        await dispatcher.stop();
      }
    });
  });
}

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PATHS } from '../../src/http/paths.ts';
import { createLogger } from '../../src/logger.ts';
import { startDispatcher } from '../../src/webhooks/dispatcher.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { ADMIN, Applications, call, move, newOperator, type TestOperator } from '../helpers/operators.ts';
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
 * Over HTTP on every store: the partner's event list, the admin webhook routes, and events of real
 * lifecycle transitions reaching a receiver.
 */
const FAST = {
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_TIMEOUT_MS: '3000',
  WEBHOOK_LEASE_MS: '6000',
  WEBHOOK_BACKOFF_BASE_MS: '20',
  WEBHOOK_BACKOFF_MAX_MS: '200',
  WEBHOOK_POLL_INTERVAL_MS: '25',
};

interface EventItem {
  id: string;
  type: string;
  created_at: number;
  data: { busi_water_no: string; sequence: number; status: string; previous_status: string | null };
}

for (const storeName of storeNames()) {
  describe(`webhooks over HTTP on ${storeName}`, () => {
    let service: TestService;
    let partner: TestPartner;
    let other: TestPartner;
    let applications: Applications;
    let admin: TestOperator;
    let reviewer: TestOperator;
    const serials: string[] = [];

    const listEvents = (body: Record<string, unknown>, who: TestPartner = partner) =>
      post(
        service.baseUrl,
        PATHS.events,
        { app_id: who.appId, timestamp: nowSeconds(), ...body },
        { token: who.token },
      );

    before(async () => {
      service = await startService(storeName, FAST);
      partner = await newPartner(service);
      other = await newPartner(service, 'another partner');
      applications = new Applications(service);
      admin = await newOperator(service, 'admin');
      reviewer = await newOperator(service, 'reviewer');
      serials.push(await applications.inState(partner.appId, 'APPROVED'));
      serials.push(await applications.inState(partner.appId, 'REJECTED'));
      serials.push(await applications.submit(partner.appId));
      await applications.submit(other.appId);
    });
    after(() => service.close());

    test('a partner lists its own events, oldest first, page by page', async () => {
      const seen: EventItem[] = [];
      let cursor: string | null = null;
      do {
        const reply = await listEvents({ limit: 2, ...(cursor === null ? {} : { cursor }) });
        assert.equal(reply.status, 200, reply.text);
        const data = reply.body.data as { items: EventItem[]; next_cursor: string | null };
        assert.ok(data.items.length <= 2);
        seen.push(...data.items);
        cursor = data.next_cursor;
      } while (cursor !== null);
      // APPROVED: 3 events, REJECTED: 2, SUBMITTED: 1.
      assert.equal(seen.length, 6);
      assert.equal(new Set(seen.map((e) => e.id)).size, 6);
      assert.ok(
        seen.every((e) => serials.includes(e.data.busi_water_no)),
        'only its own',
      );
      const approved = seen.filter((e) => e.data.busi_water_no === serials[0]);
      assert.deepEqual(
        approved.map((e) => [e.data.sequence, e.type, e.data.previous_status]),
        [
          [1, 'application.submitted', null],
          [2, 'application.in_review', 'SUBMITTED'],
          [3, 'application.approved', 'IN_REVIEW'],
        ],
      );

      const byType = await listEvents({ type: 'application.rejected' });
      assert.deepEqual(
        (byType.body.data as { items: EventItem[] }).items.map((e) => e.data.busi_water_no),
        [serials[1]],
      );
      const bySerial = await listEvents({ busi_water_no: serials[2] });
      assert.equal((bySerial.body.data as { items: EventItem[] }).items.length, 1);
      // Another app's serial answers like one without events.
      const foreign = await listEvents({ busi_water_no: serials[0] }, other);
      assert.deepEqual(foreign.body.data, { items: [], next_cursor: null });
    });

    test('the event list refuses bad input with catalogue codes', async () => {
      const badCursor = await listEvents({ cursor: 'bm90IGEgY3Vyc29y' });
      assert.equal(badCursor.status, 422);
      assert.equal(badCursor.body.code, 42205);
      assert.equal(badCursor.body.msg, 'cursor: is not a cursor returned by this listing');
      for (const [body, code] of [
        [{ limit: 0 }, 42205],
        [{ limit: 101 }, 42205],
        [{ type: 'application.nope' }, 42206],
        [{ colour: 'red' }, 42207],
      ] as const) {
        const reply = await listEvents(body);
        assert.equal(reply.status, 422, JSON.stringify(body));
        assert.equal(reply.body.code, code, reply.text);
      }
      const noToken = await post(service.baseUrl, PATHS.events, {
        app_id: partner.appId,
        timestamp: nowSeconds(),
      });
      assert.equal(noToken.status, 401);
      const mismatch = await post(
        service.baseUrl,
        PATHS.events,
        { app_id: other.appId, timestamp: nowSeconds() },
        { token: partner.token },
      );
      assert.equal(mismatch.status, 403);
    });

    test('admin routes: reviewers read, admins manage; events of real transitions arrive signed', async () => {
      const receiver = await startReceiver();
      const logger = createLogger({ logLevel: 'silent' });
      const dispatcher = startDispatcher(service.ctx, logger, { pollIntervalMs: 25 });
      try {
        const anonymous = await call(service, 'GET', `${ADMIN}/webhooks`);
        assert.equal(anonymous.status, 401);
        const refused = await call(service, 'POST', `${ADMIN}/webhooks`, {
          token: reviewer.token,
          body: { app_id: partner.appId, url: receiver.url },
        });
        assert.equal(refused.status, 403, refused.text);

        const added = await call(service, 'POST', `${ADMIN}/webhooks`, {
          token: admin.token,
          body: { app_id: partner.appId, url: receiver.url },
        });
        assert.equal(added.status, 200, added.text);
        const endpoint = added.body.data as { id: string; secret: string; status: string };
        assert.match(endpoint.secret, /^whsec_/);
        receiver.secrets = [endpoint.secret];

        const bad = await call(service, 'POST', `${ADMIN}/webhooks`, {
          token: admin.token,
          body: { app_id: partner.appId, url: 'ftp://example.com/', events: ['application.nope'] },
        });
        assert.equal(bad.status, 422);
        const unknownApp = await call(service, 'POST', `${ADMIN}/webhooks`, {
          token: admin.token,
          body: { app_id: 'app_0000000000000000', url: receiver.url },
        });
        assert.equal(unknownApp.status, 404);

        const listed = await call(service, 'GET', `${ADMIN}/webhooks?app_id=${partner.appId}`, {
          token: reviewer.token,
        });
        assert.equal(listed.status, 200, listed.text);
        assert.deepEqual(
          (listed.body.data as { id: string }[]).map((e) => e.id),
          [endpoint.id],
        );
        assert.equal(listed.text.includes('whsec_'), false, 'never the secret');

        // A real lifecycle: every transition's event reaches the receiver, in sequence.
        const serial = await applications.inState(partner.appId, 'SHIPPED');
        await move(service, serial, 'DELIVERED', partner.appId);
        await receiver.waitFor(() => receiver.received.length === 6, 15_000, 'six events');
        const types = receiver.received
          .sort((a, b) => a.parsed.data.sequence - b.parsed.data.sequence)
          .map((r) => r.parsed.type);
        assert.deepEqual(types, [
          'application.submitted',
          'application.in_review',
          'application.approved',
          'application.card_issued',
          'application.shipped',
          'application.delivered',
        ]);
        assert.ok(receiver.received.every((r) => r.verifiedBy === 0));

        // The receiver has answered; the worker records the outcome a moment later.
        let rows: { event_id: string; status: string; attempts: unknown[] }[] = [];
        for (let i = 0; i < 200; i++) {
          const deliveries = await call(service, 'GET', `${ADMIN}/webhooks/${endpoint.id}/deliveries`, {
            token: reviewer.token,
          });
          assert.equal(deliveries.status, 200, deliveries.text);
          rows = deliveries.body.data as typeof rows;
          if (rows.every((d) => d.status === 'delivered')) break;
          await new Promise((r) => setTimeout(r, 25));
        }
        assert.equal(rows.length, 6);
        assert.ok(rows.every((d) => d.status === 'delivered' && d.attempts.length === 1));

        const eventId = rows[0]!.event_id;
        const redeliver = await call(service, 'POST', `${ADMIN}/events/${eventId}/redeliver`, {
          token: admin.token,
          body: { endpoint_id: endpoint.id },
        });
        assert.equal(redeliver.status, 200, redeliver.text);
        assert.deepEqual(redeliver.body.data, { queued: 1, in_flight: 0 });
        await receiver.waitFor(() => receiver.received.length === 7, 15_000, 'the redelivery');
        assert.equal(receiver.received.at(-1)!.id, eventId, 'same webhook-id: receivers drop the copy');
        let attempts = 0;
        for (let i = 0; i < 200 && attempts < 2; i++) {
          const byEvent = await call(service, 'GET', `${ADMIN}/events/${eventId}/deliveries`, {
            token: reviewer.token,
          });
          attempts = (byEvent.body.data as { attempts: unknown[] }[])[0]!.attempts.length;
          if (attempts < 2) await new Promise((r) => setTimeout(r, 25));
        }
        assert.equal(attempts, 2);
        const reviewerRedeliver = await call(service, 'POST', `${ADMIN}/events/${eventId}/redeliver`, {
          token: reviewer.token,
          body: {},
        });
        assert.equal(reviewerRedeliver.status, 403);

        const rotated = await call(service, 'POST', `${ADMIN}/webhooks/${endpoint.id}/rotate-secret`, {
          token: admin.token,
          body: { overlap_seconds: 60 },
        });
        assert.equal(rotated.status, 200, rotated.text);
        assert.equal((rotated.body.data as { secrets: unknown[] }).secrets.length, 2);

        for (const action of ['disable', 'enable']) {
          const reply = await call(service, 'POST', `${ADMIN}/webhooks/${endpoint.id}/${action}`, {
            token: admin.token,
            body: {},
          });
          assert.equal(reply.status, 200, reply.text);
          assert.equal(
            (reply.body.data as { status: string }).status,
            action === 'disable' ? 'disabled' : 'active',
          );
        }
        const failed = await call(service, 'POST', `${ADMIN}/webhooks/${endpoint.id}/redeliver-failed`, {
          token: admin.token,
          body: {},
        });
        assert.deepEqual(failed.body.data, { queued: 0, in_flight: 0 });

        const deleted = await call(service, 'DELETE', `${ADMIN}/webhooks/${endpoint.id}`, {
          token: admin.token,
        });
        assert.equal(deleted.status, 200, deleted.text);
        const gone = await call(service, 'GET', `${ADMIN}/webhooks/${endpoint.id}`, {
          token: reviewer.token,
        });
        assert.equal(gone.status, 404);
        assert.equal(gone.body.code, 40410);
      } finally {
        await dispatcher.stop();
        await receiver.close();
      }
    });
  });
}

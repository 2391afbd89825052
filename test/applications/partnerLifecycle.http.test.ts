import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { StatusView } from '../../src/applications/views/queryApplication.ts';
import { PATHS } from '../../src/http/paths.ts';
import { Applications, move } from '../helpers/operators.ts';
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
 * The partner's side of the lifecycle over HTTP, on every store: the status view with its history,
 * the list (filters, cursor, tenancy, and no skip or repeat while applications arrive), cancel,
 * and the sandbox simulation that exists only with SANDBOX=true.
 */

interface Page {
  items: StatusView[];
  next_cursor: string | null;
}

for (const storeName of storeNames()) {
  describe(`partner lifecycle on ${storeName}`, () => {
    let service: TestService;
    let partner: TestPartner;
    let apps: Applications;

    const as = (who: TestPartner) => ({
      list: (body: Record<string, unknown> = {}) =>
        post(
          service.baseUrl,
          PATHS.list,
          { app_id: who.appId, timestamp: nowSeconds(), ...body },
          { token: who.token },
        ),
      query: (serial: string) =>
        post(
          service.baseUrl,
          PATHS.query,
          { app_id: who.appId, timestamp: nowSeconds(), busi_water_no: serial },
          { token: who.token },
        ),
      cancel: (serial: string, extra: Record<string, unknown> = {}) =>
        post(
          service.baseUrl,
          PATHS.cancel,
          { app_id: who.appId, timestamp: nowSeconds(), busi_water_no: serial, ...extra },
          { token: who.token },
        ),
    });

    before(async () => {
      service = await startService(storeName);
      partner = await newPartner(service);
      apps = new Applications(service);
    });
    after(() => service.close());

    test('query shows the whole history, with carrier and tracking number once shipped', async () => {
      const serial = await apps.inState(partner.appId, 'SHIPPED');
      const reply = await as(partner).query(serial);
      assert.equal(reply.status, 200, reply.text);
      const view = reply.body.data as StatusView;
      assert.equal(view.status, 'SHIPPED');
      assert.deepEqual(
        view.history.map((h) => h.status),
        ['SUBMITTED', 'IN_REVIEW', 'APPROVED', 'CARD_ISSUED', 'SHIPPED'],
      );
      assert.deepEqual(view.history[4]?.details, { carrier: 'SF Express', tracking_no: 'SF1234567890' });
      assert.ok(view.history.slice(0, 4).every((h) => !('details' in h)));
      assert.ok(!reply.text.includes('operator:'), 'operators stay anonymous to partners');
    });

    describe('cancel', () => {
      test('a SUBMITTED application is cancelled, with its reason, and the view says so', async () => {
        const serial = await apps.submit(partner.appId);
        const reply = await as(partner).cancel(serial, { reason: 'customer changed their mind' });
        assert.equal(reply.status, 200, reply.text);
        const view = reply.body.data as StatusView;
        assert.equal(view.status, 'CANCELLED');
        assert.equal(view.status_reason, 'customer changed their mind');
        assert.deepEqual(
          view.history.map((h) => [h.status, h.reason]),
          [
            ['SUBMITTED', null],
            ['CANCELLED', 'customer changed their mind'],
          ],
        );
        const row = await service.ctx.store.db
          .selectFrom('events')
          .select('actor')
          .where('busi_water_no', '=', serial)
          .where('to_status', '=', 'CANCELLED')
          .executeTakeFirstOrThrow();
        assert.equal(row.actor, `caller:${partner.appId}`);
      });

      test('an IN_REVIEW application may be cancelled too, without a reason', async () => {
        const serial = await apps.inState(partner.appId, 'IN_REVIEW');
        const reply = await as(partner).cancel(serial);
        assert.equal(reply.status, 200, reply.text);
        assert.equal((reply.body.data as StatusView).status, 'CANCELLED');
      });

      for (const from of [
        'APPROVED',
        'CARD_ISSUED',
        'SHIPPED',
        'DELIVERED',
        'REJECTED',
        'CANCELLED',
      ] as const) {
        test(`cancelling from ${from} is a 409 naming both states`, async () => {
          const serial = await apps.inState(partner.appId, from);
          const reply = await as(partner).cancel(serial);
          assert.equal(reply.status, 409, reply.text);
          assert.equal(reply.body.code, 40905);
          assert.equal(reply.body.msg, `status: cannot move from ${from} to CANCELLED`);
          const view = (await as(partner).query(serial)).body.data as StatusView;
          assert.equal(view.status, from);
        });
      }

      test("another app's application answers exactly like an unknown one, and stays as it is", async () => {
        const serial = await apps.submit(partner.appId);
        const other = await newPartner(service, 'other partner');
        const foreign = await as(other).cancel(serial);
        const unknown = await as(other).cancel(
          serial.slice(0, -4) + (serial.endsWith('AAAA') ? 'BBBB' : 'AAAA'),
        );
        assert.equal(foreign.status, 404);
        assert.deepEqual(foreign.body, unknown.body);
        assert.equal(((await as(partner).query(serial)).body.data as StatusView).status, 'SUBMITTED');
      });

      test('unknown fields, an empty reason and a reason with a card number are refused', async () => {
        const serial = await apps.submit(partner.appId);
        const extra = await as(partner).cancel(serial, { status: 'CANCELLED' });
        assert.equal(extra.status, 422);
        assert.equal(extra.body.code, 42207);
        const empty = await as(partner).cancel(serial, { reason: '' });
        assert.equal(empty.body.code, 42204);
        const number = await as(partner).cancel(serial, { reason: 'card 5399661234567897 lost' });
        assert.equal(number.status, 422);
        assert.equal(number.body.code, 42251);
      });

      test('a retried cancel with the same Idempotency-Key answers as the first did', async () => {
        const serial = await apps.submit(partner.appId);
        const body = { app_id: partner.appId, timestamp: nowSeconds(), busi_water_no: serial };
        const send = () =>
          post(service.baseUrl, PATHS.cancel, body, {
            token: partner.token,
            headers: { 'idempotency-key': `cancel-${serial}` },
          });
        const first = await send();
        const retry = await send();
        assert.equal(first.status, 200, first.text);
        assert.equal(retry.status, 200, retry.text);
        assert.deepEqual(retry.body, first.body);
      });

      test('without a token it is a 401', async () => {
        const reply = await post(service.baseUrl, PATHS.cancel, {
          app_id: partner.appId,
          timestamp: nowSeconds(),
          busi_water_no: 'X',
        });
        assert.equal(reply.status, 401);
      });
    });

    describe('list', () => {
      let lister: TestPartner;
      const serials: string[] = [];

      before(async () => {
        lister = await newPartner(service, 'lister');
        for (let i = 0; i < 25; i++) serials.push(await apps.submit(lister.appId));
        await move(service, serials[3]!, 'IN_REVIEW', lister.appId);
        await move(service, serials[7]!, 'IN_REVIEW', lister.appId);
        // Someone else's applications never show up.
        const other = await newPartner(service, 'neighbour');
        for (let i = 0; i < 3; i++) await apps.submit(other.appId);
      });

      test('the first page has 20 of the partner’s own applications, oldest first, with a cursor', async () => {
        const reply = await as(lister).list();
        assert.equal(reply.status, 200, reply.text);
        const page = reply.body.data as Page;
        assert.deepEqual(
          page.items.map((i) => i.busi_water_no),
          serials.slice(0, 20),
        );
        assert.equal(typeof page.next_cursor, 'string');
        assert.equal(page.items[0]!.history[0]!.status, 'SUBMITTED');
        const rest = (await as(lister).list({ cursor: page.next_cursor })).body.data as Page;
        assert.deepEqual(
          rest.items.map((i) => i.busi_water_no),
          serials.slice(20),
        );
        assert.equal(rest.next_cursor, null);
      });

      test('status filter', async () => {
        const page = (await as(lister).list({ status: 'IN_REVIEW' })).body.data as Page;
        assert.deepEqual(
          page.items.map((i) => i.busi_water_no),
          [serials[3], serials[7]],
        );
        assert.ok(page.items.every((i) => i.status === 'IN_REVIEW'));
      });

      test('creation time filter, both ends inclusive, in seconds', async () => {
        const rows = await service.ctx.store.db
          .selectFrom('applications')
          .select(['busi_water_no', 'created_at'])
          .where('app_id', '=', lister.appId)
          .execute();
        const second = Math.floor(rows[0]!.created_at / 1000);
        const expected = rows
          .filter((r) => Math.floor(r.created_at / 1000) === second)
          .map((r) => r.busi_water_no)
          .sort();
        const page = (await as(lister).list({ created_from: second, created_to: second, limit: 100 })).body
          .data as Page;
        assert.deepEqual(page.items.map((i) => i.busi_water_no).sort(), expected);
        const none = (await as(lister).list({ created_from: second + 3600 })).body.data as Page;
        assert.deepEqual(none.items, []);
        assert.equal(none.next_cursor, null);
      });

      test('bad limits, statuses and cursors are 422s', async () => {
        for (const [body, code] of [
          [{ limit: 0 }, 42205],
          [{ limit: 101 }, 42205],
          [{ limit: '5' }, 42202],
          [{ status: 'LOST' }, 42206],
          [{ cursor: 'not-a-cursor' }, 42205],
          [{ cursor: Buffer.from('1.12.nope').toString('base64url') }, 42205],
          [{ app_id: lister.appId, owner: 'x' }, 42207],
        ] as const) {
          const reply = await as(lister).list(body);
          assert.equal(reply.status, 422, `${JSON.stringify(body)}: ${reply.text}`);
          assert.equal(reply.body.code, code, reply.text);
        }
      });

      test('a body app_id of another app is a 403, so nobody lists another app’s applications', async () => {
        const reply = await post(
          service.baseUrl,
          PATHS.list,
          { app_id: partner.appId, timestamp: nowSeconds() },
          { token: lister.token },
        );
        assert.equal(reply.status, 403);
      });

      test('page by page while applications arrive: nothing skipped, nothing repeated', async () => {
        const busy = await newPartner(service, 'busy partner');
        const existing: string[] = [];
        for (let i = 0; i < 45; i++) existing.push(await apps.submit(busy.appId));
        let arriving = true;
        const arrived: string[] = [];
        const writers = Array.from({ length: 3 }, async () => {
          while (arriving) {
            arrived.push(await apps.submit(busy.appId));
            // node:sqlite is synchronous: without a turn of the event loop nothing else would run.
            await new Promise((resolve) => setImmediate(resolve));
          }
        });
        const seen: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        try {
          do {
            const reply = await as(busy).list(cursor === null ? { limit: 7 } : { limit: 7, cursor });
            assert.equal(reply.status, 200, reply.text);
            const page = reply.body.data as Page;
            seen.push(...page.items.map((i) => i.busi_water_no));
            cursor = page.next_cursor;
            pages++;
            // Let arrivals interleave with the listing; stop them after a while so that it ends.
            if (pages === 12) arriving = false;
          } while (cursor !== null);
        } finally {
          arriving = false;
          await Promise.all(writers);
        }
        assert.ok(arrived.length > 0, 'applications arrived during the listing');
        assert.equal(new Set(seen).size, seen.length, 'nothing repeated');
        for (const serial of existing) assert.ok(seen.includes(serial), `${serial} was skipped`);
        const all = new Set([...existing, ...arrived]);
        assert.ok(
          seen.every((s) => all.has(s)),
          'only the partner’s own',
        );
        const order = seen.map((s) => s);
        assert.deepEqual(order, [...order].sort(), 'in creation order: serials sort by creation time');
      });
    });
  });

  describe(`sandbox simulation on ${storeName}`, () => {
    test('without SANDBOX the endpoint does not exist', async () => {
      const service = await startService(storeName);
      try {
        const partner = await newPartner(service);
        const reply = await post(
          service.baseUrl,
          PATHS.simulate,
          { app_id: partner.appId, timestamp: nowSeconds(), busi_water_no: 'X', status: 'APPROVED' },
          { token: partner.token },
        );
        assert.equal(reply.status, 404);
        assert.equal(reply.body.code, 40402);
      } finally {
        await service.close();
      }
    });

    test('with SANDBOX=true a partner drives its own application along the allowed moves only', async () => {
      const service = await startService(storeName, { SANDBOX: 'true' });
      try {
        const partner = await newPartner(service);
        const apps = new Applications(service);
        const serial = await apps.submit(partner.appId);
        const simulate = (who: TestPartner, status: string, extra: Record<string, unknown> = {}) =>
          post(
            service.baseUrl,
            PATHS.simulate,
            { app_id: who.appId, timestamp: nowSeconds(), busi_water_no: serial, status, ...extra },
            { token: who.token },
          );
        const skip = await simulate(partner, 'APPROVED');
        assert.equal(skip.status, 409);
        assert.equal(skip.body.msg, 'status: cannot move from SUBMITTED to APPROVED');
        const other = await newPartner(service, 'other');
        assert.equal((await simulate(other, 'IN_REVIEW')).status, 404);
        for (const status of ['IN_REVIEW', 'APPROVED', 'CARD_ISSUED', 'SHIPPED', 'DELIVERED']) {
          const reply = await simulate(partner, status);
          assert.equal(reply.status, 200, reply.text);
          assert.equal((reply.body.data as StatusView).status, status);
        }
        const view = (
          await post(
            service.baseUrl,
            PATHS.query,
            { app_id: partner.appId, timestamp: nowSeconds(), busi_water_no: serial },
            { token: partner.token },
          )
        ).body.data as StatusView;
        assert.equal(view.history.length, 6);
        assert.equal(view.history[4]?.details?.carrier, 'SANDBOX');
        const final = await simulate(partner, 'CANCELLED');
        assert.equal(final.status, 409);

        const another = await apps.submit(partner.appId);
        const reject = await post(
          service.baseUrl,
          PATHS.simulate,
          { app_id: partner.appId, timestamp: nowSeconds(), busi_water_no: another, status: 'REJECTED' },
          { token: partner.token },
        );
        assert.equal(reject.status, 422, reject.text);
        assert.equal(reject.body.code, 42201);
        const events = await service.ctx.store.db
          .selectFrom('events')
          .select('type')
          .where('busi_water_no', '=', serial)
          .orderBy('seq')
          .execute();
        assert.deepEqual(
          events.map((e) => e.type),
          [
            'application.submitted',
            'application.in_review',
            'application.approved',
            'application.card_issued',
            'application.shipped',
            'application.delivered',
          ],
        );
      } finally {
        await service.close();
      }
    });

    test('with SANDBOX=true every new state can be driven: information requested and amended, expired, returned', async () => {
      const service = await startService(storeName, { SANDBOX: 'true' });
      try {
        const partner = await newPartner(service);
        const apps = new Applications(service, 50_000);
        const call = (path: string, body: Record<string, unknown>) =>
          post(
            service.baseUrl,
            path,
            { app_id: partner.appId, timestamp: nowSeconds(), ...body },
            { token: partner.token },
          );
        const simulate = async (serial: string, status: string, extra: Record<string, unknown> = {}) => {
          const reply = await call(PATHS.simulate, { busi_water_no: serial, status, ...extra });
          assert.equal(reply.status, 200, reply.text);
          return reply.body.data as StatusView;
        };

        const asked = await apps.submit(partner.appId);
        await simulate(asked, 'IN_REVIEW');
        const noFields = await call(PATHS.simulate, {
          busi_water_no: asked,
          status: 'SUPPLEMENT_REQUIRED',
          reason_codes: ['image_missing'],
        });
        assert.equal(noFields.status, 422, noFields.text);
        const waiting = await simulate(asked, 'SUPPLEMENT_REQUIRED', {
          reason_codes: ['image_missing'],
          requested_fields: ['id_card_back_img'],
        });
        assert.deepEqual(
          [waiting.status, waiting.requested_fields],
          ['SUPPLEMENT_REQUIRED', ['id_card_back_img']],
        );
        const amended = await call(PATHS.amend, {
          busi_water_no: asked,
          id_card_back_img: 'https://img.example.com/sandbox/back.jpg',
        });
        assert.equal(amended.status, 200, amended.text);
        assert.equal((amended.body.data as StatusView).status, 'IN_REVIEW');

        const lapsed = await apps.submit(partner.appId);
        await simulate(lapsed, 'IN_REVIEW');
        await simulate(lapsed, 'SUPPLEMENT_REQUIRED', {
          reason_codes: ['other'],
          requested_fields: ['address'],
        });
        assert.equal((await simulate(lapsed, 'EXPIRED')).status, 'EXPIRED');

        const shipped = await apps.submit(partner.appId);
        for (const status of ['IN_REVIEW', 'APPROVED', 'CARD_ISSUED', 'SHIPPED'])
          await simulate(shipped, status);
        const back = await simulate(shipped, 'RETURNED', { reason_codes: ['recipient_unreachable'] });
        assert.deepEqual([back.status, back.reason_codes], ['RETURNED', ['recipient_unreachable']]);
        const again = await simulate(shipped, 'SHIPPED', { tracking_url: 'https://track.example.com/SIM1' });
        assert.equal(again.history.at(-1)?.details?.tracking_url, 'https://track.example.com/SIM1');
      } finally {
        await service.close();
      }
    });
  });
}

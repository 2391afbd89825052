import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { StatusView } from '../../src/applications/views/queryApplication.ts';
import type { ApplicationEventView as EventView } from '../../src/applications/views/eventView.ts';
import { PATHS } from '../../src/http/paths.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { ADMIN, Applications, call, newOperator, type TestOperator } from '../helpers/operators.ts';
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
 * Outcomes a partner can act on, over HTTP on every store: reason codes on a rejection (in the
 * query, the list and the events), and the partner's own reference (`external_id`): unique per app
 * among active applications, usable in place of the serial, invisible to another app.
 */

let next = 70_000;

for (const storeName of storeNames()) {
  describe(`outcomes on ${storeName}`, () => {
    let service: TestService;
    let partner: TestPartner;
    let other: TestPartner;
    let reviewer: TestOperator;
    let apps: Applications;

    const as = (who: TestPartner, path: string, body: Record<string, unknown> = {}) =>
      post(
        service.baseUrl,
        path,
        { app_id: who.appId, timestamp: nowSeconds(), ...body },
        { token: who.token },
      );
    const submit = (who: TestPartner, extra: Record<string, unknown> = {}) =>
      post(
        service.baseUrl,
        PATHS.apply,
        { ...uniqueApplicant(next++, who.appId), ...extra },
        { token: who.token },
      );

    before(async () => {
      service = await startService(storeName);
      partner = await newPartner(service);
      other = await newPartner(service, 'other partner');
      reviewer = await newOperator(service, 'reviewer');
      apps = new Applications(service, 80_000);
    });
    after(() => service.close());

    test('a rejection needs a known code; its codes are in the query, the list and the events', async () => {
      const serial = await apps.inState(partner.appId, 'IN_REVIEW');
      const reject = (body: Record<string, unknown>) =>
        call(service, 'POST', `${ADMIN}/applications/${serial}/reject`, { token: reviewer.token, body });
      const textOnly = await reject({ reason: 'blurred photo' });
      assert.equal(textOnly.status, 422, textOnly.text);
      assert.equal(textOnly.body.msg, 'reason_codes: is required');
      const unknown = await reject({ reason_codes: ['blurred'] });
      assert.equal(unknown.status, 422, unknown.text);
      assert.equal(unknown.body.msg, 'reason_codes[0]: blurred is not a code of the reason table');
      const done = await reject({
        reason_codes: ['document_unreadable', 'image_missing'],
        reason: 'blurred photo',
      });
      assert.equal(done.status, 200, done.text);

      const view = (await as(partner, PATHS.query, { busi_water_no: serial })).body.data as StatusView;
      assert.equal(view.status, 'REJECTED');
      assert.deepEqual(view.reason_codes, ['document_unreadable', 'image_missing']);
      assert.equal(view.status_reason, 'blurred photo');
      assert.deepEqual(
        view.history.map((h) => [h.status, h.reason_codes]),
        [
          ['SUBMITTED', []],
          ['IN_REVIEW', []],
          ['REJECTED', ['document_unreadable', 'image_missing']],
        ],
      );
      const listed = (await as(partner, PATHS.list, { status: 'REJECTED', limit: 100 })).body.data as {
        items: StatusView[];
      };
      assert.deepEqual(listed.items.find((item) => item.busi_water_no === serial)?.reason_codes, [
        'document_unreadable',
        'image_missing',
      ]);
      const events = (await as(partner, PATHS.events, { busi_water_no: serial })).body.data as {
        items: EventView[];
      };
      const rejected = events.items.find((e) => e.type === 'application.rejected');
      assert.deepEqual(rejected?.data.reason_codes, ['document_unreadable', 'image_missing']);
      assert.deepEqual(events.items[0]?.data.reason_codes, []);

      const codes = (await as(partner, PATHS.codes)).body.data as Record<
        string,
        { code: string; other: boolean }[]
      >;
      assert.ok(codes['reason']?.some((entry) => entry.code === 'document_unreadable'));
      assert.deepEqual(
        codes['reason']?.filter((entry) => entry.other).map((entry) => entry.code),
        ['other'],
      );
    });

    test('a shipment comes back (RETURNED, with a code) and is shipped again, with a tracking link', async () => {
      const serial = await apps.inState(partner.appId, 'CARD_ISSUED');
      const admin = (action: string, body: Record<string, unknown>) =>
        call(service, 'POST', `${ADMIN}/applications/${serial}/${action}`, { token: reviewer.token, body });
      const insecure = await admin('ship', {
        carrier: 'SF Express',
        tracking_no: 'SF100',
        tracking_url: 'http://track.example.com/SF100',
      });
      assert.equal(insecure.status, 422, insecure.text);
      assert.equal(insecure.body.code, 42231);
      const shipped = await admin('ship', {
        carrier: 'SF Express',
        tracking_no: 'SF100',
        tracking_url: 'https://track.example.com/SF100',
      });
      assert.equal(shipped.status, 200, shipped.text);
      const noCode = await admin('return', {});
      assert.equal(noCode.status, 422, noCode.text);
      assert.equal(noCode.body.msg, 'reason_codes: is required');
      const returned = await admin('return', { reason_codes: ['address_undeliverable'] });
      assert.equal(returned.status, 200, returned.text);
      const delivered = await admin('deliver', {});
      assert.equal(delivered.status, 409, 'a returned card is not delivered before it is shipped again');
      const again = await admin('ship', { carrier: 'EMS', tracking_no: 'EE200CN' });
      assert.equal(again.status, 200, again.text);

      const view = (await as(partner, PATHS.query, { busi_water_no: serial })).body.data as StatusView;
      assert.deepEqual(
        view.history.slice(-3).map((h) => [h.status, h.reason_codes, h.details]),
        [
          [
            'SHIPPED',
            [],
            { carrier: 'SF Express', tracking_no: 'SF100', tracking_url: 'https://track.example.com/SF100' },
          ],
          ['RETURNED', ['address_undeliverable'], undefined],
          ['SHIPPED', [], { carrier: 'EMS', tracking_no: 'EE200CN' }],
        ],
      );
      const events = (await as(partner, PATHS.events, { busi_water_no: serial })).body.data as {
        items: EventView[];
      };
      assert.deepEqual(
        events.items.slice(-3).map((e) => e.type),
        ['application.shipped', 'application.returned', 'application.shipped'],
      );
    });

    describe('external_id', () => {
      test('stored and shown; a second active use is a 409 naming the serial; free again once final', async () => {
        const reference = `ORD-${next}`;
        const first = await submit(partner, { external_id: reference });
        assert.equal(first.status, 200, first.text);
        const serial = (first.body.data as { busi_water_no: string }).busi_water_no;

        const again = await submit(partner, { external_id: reference });
        assert.equal(again.status, 409, again.text);
        assert.equal(again.body.code, 40921);
        assert.deepEqual(again.body.data, { busi_water_no: serial });

        // Another app has its own references: the same one is free there, and ours stays invisible.
        const theirs = await submit(other, { external_id: reference });
        assert.equal(theirs.status, 200, theirs.text);
        const theirSerial = (theirs.body.data as { busi_water_no: string }).busi_water_no;

        const byReference = await as(partner, PATHS.query, { external_id: reference });
        assert.equal(byReference.status, 200, byReference.text);
        const view = byReference.body.data as StatusView;
        assert.equal(view.busi_water_no, serial);
        assert.equal(view.external_id, reference);
        const theirView = (await as(other, PATHS.query, { external_id: reference })).body.data as StatusView;
        assert.equal(theirView.busi_water_no, theirSerial);

        const listed = (await as(partner, PATHS.list, { external_id: reference })).body.data as {
          items: StatusView[];
        };
        assert.deepEqual(
          listed.items.map((item) => item.busi_water_no),
          [serial],
        );

        const cancelled = await as(partner, PATHS.cancel, {
          external_id: reference,
          reason: 'customer changed mind',
        });
        assert.equal(cancelled.status, 200, cancelled.text);
        assert.equal((cancelled.body.data as StatusView).status, 'CANCELLED');

        const reused = await submit(partner, { external_id: reference });
        assert.equal(reused.status, 200, reused.text);
        const newSerial = (reused.body.data as { busi_water_no: string }).busi_water_no;
        // The reference now names the active application; the cancelled one keeps it in its view.
        const now = (await as(partner, PATHS.query, { external_id: reference })).body.data as StatusView;
        assert.equal(now.busi_water_no, newSerial);
        const old = (await as(partner, PATHS.query, { busi_water_no: serial })).body.data as StatusView;
        assert.equal(old.external_id, reference);
        const both = (await as(partner, PATHS.list, { external_id: reference })).body.data as {
          items: StatusView[];
        };
        assert.deepEqual(
          both.items.map((item) => item.busi_water_no),
          [serial, newSerial],
        );
      });

      test("another app's reference answers like an unknown one; a bad or missing reference is a 422", async () => {
        const reference = `INV/${next}`;
        assert.equal((await submit(partner, { external_id: reference })).status, 200);
        for (const path of [PATHS.query, PATHS.cancel]) {
          const foreign = await as(other, path, { external_id: reference });
          const unknown = await as(other, path, { external_id: 'never-used' });
          assert.equal(foreign.status, 404, foreign.text);
          assert.equal(foreign.text, unknown.text);
        }
        const mismatch = await as(partner, PATHS.query, {
          external_id: reference,
          busi_water_no: '0'.repeat(32),
        });
        assert.equal(mismatch.status, 404);
        const none = await as(partner, PATHS.query, {});
        assert.equal(none.status, 422, none.text);
        assert.equal(none.body.msg, 'busi_water_no: is required');
        for (const bad of ['', ' padded', 'tab\there', 'x'.repeat(65), '订单1']) {
          const reply = await submit(partner, { external_id: bad });
          assert.equal(reply.status, 422, `${JSON.stringify(bad)}: ${reply.text}`);
          assert.equal((reply.body.data as { errors: { field: string }[] }).errors[0]?.field, 'external_id');
        }
      });
    });
  });
}

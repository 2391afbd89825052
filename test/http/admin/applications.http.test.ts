import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SENSITIVE_FIELDS } from '../../../src/redaction.ts';
import { PATHS } from '../../../src/http/paths.ts';
import { newPartner, nowSeconds, post } from '../../helpers/service.ts';
import { storeNames } from '../../helpers/stores.ts';
import { uniqueApplicant } from '../../helpers/applicants.ts';
import { adminBench } from '../../helpers/adminService.ts';

/** Applications in the admin API on every store: masking, audited reveals, search and moves. */

for (const storeName of storeNames()) {
  describe(`admin API on ${storeName}`, () => {
    const bench = adminBench(storeName);

    describe('applications', () => {
      test('show masks every identity field and never shows the payment password', async () => {
        const partner = await newPartner(bench.service, 'shown partner');
        const applicant = uniqueApplicant(900_000, partner.appId);
        const serial = (await post(bench.service.baseUrl, PATHS.apply, applicant, { token: partner.token }))
          .body.data as { busi_water_no: string };
        const reply = await bench.as(bench.operators.viewer, 'GET', `/applications/${serial.busi_water_no}`);
        assert.equal(reply.status, 200, reply.text);
        const view = reply.body.data as { application: Record<string, unknown>; history: unknown[] };
        for (const field of SENSITIVE_FIELDS) {
          const value = (applicant as Record<string, unknown>)[field];
          if (typeof value === 'string')
            assert.ok(!reply.text.includes(value), `${field} is not in the clear`);
        }
        assert.ok(!('pay_pwd' in view.application));
        assert.equal(view.application['name'], '李*');
        assert.equal(view.application['name_en'], 'L* L**');
        assert.equal(view.application['mob_no'], '*******8000');
        assert.equal(view.application['email'], 'l***@example.com');
        assert.equal(view.application['address'], '广东省-深圳市-南山区-****');
        assert.equal(view.application['id_card_img'], 'https://img.example.com/****');
        assert.match(String(view.application['cert_id']), /^4\*{16}[0-9X]$/);
        assert.equal(view.application['birthday'], applicant.birthday, 'the rest is shown as submitted');
        assert.equal(view.history.length, 1);
      });

      test('a reveal shows one field to a reviewer and is audited: who, when, which field, which application', async () => {
        const serial = await bench.apps.submit(bench.appId);
        const row = await bench.service.ctx.store.db
          .selectFrom('applications')
          .select(['payload_enc'])
          .where('busi_water_no', '=', serial)
          .executeTakeFirstOrThrow();
        const clear = JSON.parse(bench.service.ctx.keyRing.decrypt(row.payload_enc, serial)) as Record<
          string,
          string
        >;
        const started = nowSeconds();
        const reply = await bench.as(bench.operators.reviewer, 'POST', `/applications/${serial}/reveal`, {
          field: 'cert_id',
          purpose: 'document_comparison',
          purpose_text: 'passport page against the form',
        });
        assert.equal(reply.status, 200, reply.text);
        assert.deepEqual(reply.body.data, {
          busi_water_no: serial,
          field: 'cert_id',
          value: clear['cert_id'],
        });
        const audit = await bench.as(
          bench.operators.admin,
          'GET',
          `/audit?target_id=${serial}&action=application.reveal`,
        );
        const entries = (audit.body.data as { items: Record<string, unknown>[] }).items;
        assert.equal(entries.length, 1);
        assert.equal(entries[0]!['actor'], `operator:${bench.operators.reviewer.username}`);
        assert.deepEqual(entries[0]!['details'], {
          field: 'cert_id',
          purpose: 'document_comparison',
          purpose_text: 'passport page against the form',
        });
        assert.equal(entries[0]!['target_type'], 'application');
        assert.ok(Number(entries[0]!['at']) >= started - 1);
        assert.match(String(entries[0]!['source']), /^admin-api /);
        assert.ok(!audit.text.includes(clear['cert_id']!));
      });

      test('the payment password and unknown fields cannot be revealed; unknown serials are 404', async () => {
        const serial = await bench.apps.submit(bench.appId);
        for (const field of ['pay_pwd', 'nickname']) {
          const reply = await bench.as(bench.operators.admin, 'POST', `/applications/${serial}/reveal`, {
            field,
            purpose: 'identity_check',
          });
          assert.equal(reply.status, 422, reply.text);
          assert.equal(reply.body.code, 42206);
        }
        const unknown = await bench.as(
          bench.operators.admin,
          'POST',
          `/applications/${'0'.repeat(32)}/reveal`,
          {
            field: 'cert_id',
            purpose: 'identity_check',
          },
        );
        assert.equal(unknown.status, 404);
      });

      test('moves over the API: history with actors, 409 naming both states, reason and details required', async () => {
        const serial = await bench.apps.submit(bench.appId);
        const r = bench.operators.reviewer;
        assert.equal(
          (await bench.as(r, 'POST', `/applications/${serial}/approve`, {})).body.msg,
          'status: cannot move from SUBMITTED to APPROVED',
        );
        const reject = await bench.as(r, 'POST', `/applications/${serial}/reject`, {});
        assert.equal(reject.status, 422);
        assert.equal(reject.body.msg, 'reason_codes: is required');
        for (const [action, body] of [
          ['review', {}],
          ['approve', { reason: 'all documents in order' }],
          ['issue', {}],
        ] as const) {
          const reply = await bench.as(r, 'POST', `/applications/${serial}/${action}`, body);
          assert.equal(reply.status, 200, reply.text);
        }
        const ship = await bench.as(r, 'POST', `/applications/${serial}/ship`, { carrier: 'EMS' });
        assert.equal(ship.status, 422);
        assert.equal(ship.body.msg, 'tracking_no: is required');
        const stale = await bench.as(r, 'POST', `/applications/${serial}/ship`, {
          carrier: 'EMS',
          tracking_no: 'EE1',
          version: 2,
        });
        assert.equal(stale.status, 409);
        assert.equal(stale.body.code, 40906);
        const shipped = await bench.as(r, 'POST', `/applications/${serial}/ship`, {
          carrier: 'EMS',
          tracking_no: 'EE123456789CN',
          version: 4,
        });
        assert.equal(shipped.status, 200, shipped.text);
        const view = shipped.body.data as {
          status: string;
          version: number;
          history: { from_status: string | null; status: string; actor: string; details: unknown }[];
        };
        assert.equal(view.status, 'SHIPPED');
        assert.equal(view.version, 5);
        assert.deepEqual(
          view.history.map((h) => [h.from_status, h.status, h.actor]),
          [
            [null, 'SUBMITTED', `caller:${bench.appId}`],
            ['SUBMITTED', 'IN_REVIEW', `operator:${r.username}`],
            ['IN_REVIEW', 'APPROVED', `operator:${r.username}`],
            ['APPROVED', 'CARD_ISSUED', `operator:${r.username}`],
            ['CARD_ISSUED', 'SHIPPED', `operator:${r.username}`],
          ],
        );
        assert.deepEqual(view.history[4]!.details, { carrier: 'EMS', tracking_no: 'EE123456789CN' });
      });

      test('search filters by status, app, serial and creation time, page by page', async () => {
        const own = await newPartner(bench.service, 'searched');
        const serials: string[] = [];
        for (let i = 0; i < 7; i++) serials.push(await bench.apps.submit(own.appId));
        await bench.as(bench.operators.reviewer, 'POST', `/applications/${serials[2]}/review`, {});
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const reply = await bench.as(
            bench.operators.viewer,
            'GET',
            `/applications?app_id=${own.appId}&limit=3${cursor === null ? '' : `&cursor=${cursor}`}`,
          );
          assert.equal(reply.status, 200, reply.text);
          const page = reply.body.data as { items: { busi_water_no: string }[]; next_cursor: string | null };
          assert.ok(page.items.length <= 3);
          seen.push(...page.items.map((i) => i.busi_water_no));
          cursor = page.next_cursor;
        } while (cursor !== null);
        assert.deepEqual(seen, serials);
        const inReview = await bench.as(
          bench.operators.viewer,
          'GET',
          `/applications?app_id=${own.appId}&status=IN_REVIEW`,
        );
        assert.deepEqual(
          (inReview.body.data as { items: { busi_water_no: string }[] }).items.map((i) => i.busi_water_no),
          [serials[2]],
        );
        const bySerial = await bench.as(
          bench.operators.viewer,
          'GET',
          `/applications?busi_water_no=${serials[5]}`,
        );
        assert.equal((bySerial.body.data as { items: unknown[] }).items.length, 1);
        const future = await bench.as(
          bench.operators.viewer,
          'GET',
          `/applications?created_from=${nowSeconds() + 3600}`,
        );
        assert.deepEqual((future.body.data as { items: unknown[] }).items, []);
        for (const query of ['limit=0', 'limit=101', 'limit=x', 'status=LOST', 'cursor=zzz', 'extra=1']) {
          const reply = await bench.as(bench.operators.viewer, 'GET', `/applications?${query}`);
          assert.equal(reply.status, 422, `${query}: ${reply.text}`);
        }
      });
    });
  });
}

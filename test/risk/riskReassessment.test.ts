import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PATHS } from '../../src/http/paths.ts';
import { createLogger } from '../../src/logger.ts';
import { assessApplication } from '../../src/risk/assessApplication.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { pngImage } from '../helpers/documentImages.ts';
import { startDocumentServer, type DocumentServer } from '../helpers/documentServer.ts';
import { startDocumentService, type DocumentService } from '../helpers/documentService.ts';
import { ADMIN, call, move, newOperator, type TestOperator } from '../helpers/operators.ts';
import { newPartner, nowSeconds, post, type TestPartner } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';
import { plantHit, unList, uploadList } from '../screening/screeningHelpers.ts';

/**
 * Issue 52: an application is assessed again whenever evidence changes outside its own events,
 * through the job queue, on every store: a hit cleared by two operators, a partner's risk level set
 * by an admin (audited, with its reason), a re-screen after a list import that finds a hit. Only
 * applications not yet final are assessed again.
 */

const FIELDS = ['id_card_img', 'id_card_back_img', 'passport_img', 'sign_applicant', 'pay_voucher'] as const;
const silent = createLogger({ logLevel: 'silent' });

for (const storeName of storeNames()) {
  describe(`risk re-assessment when evidence changes (${storeName})`, () => {
    let service: DocumentService;
    let images: DocumentServer;
    let partner: TestPartner;
    let admin: TestOperator;
    let reviewer: TestOperator;
    let n = 0;

    before(async () => {
      images = await startDocumentServer();
      service = await startDocumentService(storeName);
      partner = await newPartner(service);
      admin = await newOperator(service, 'admin');
      reviewer = await newOperator(service, 'reviewer');
    });
    after(async () => {
      await service.close();
      await images.close();
    });

    async function submit(as: TestPartner, fields: Record<string, string> = {}) {
      n++;
      const body = {
        ...uniqueApplicant(n, as.appId),
        mob_no: `135${String(40_000_000 + n * 7919 + (storeName === 'sqlite' ? 0 : 1)).slice(-8)}`,
        email: `again.${storeName}.${n}.${Date.now()}@example.com`,
        ...Object.fromEntries(
          FIELDS.map((field, i) => [
            field,
            images.route(`/${storeName}/again/${n}/${field}.png`, {
              kind: 'bytes',
              body: pngImage(500 + n * 7 + i, 400),
            }),
          ]),
        ),
        ...fields,
        timestamp: nowSeconds(),
      };
      const reply = await post(service.baseUrl, PATHS.apply, body, { token: as.token });
      assert.equal(reply.status, 200, reply.text);
      return (reply.body.data as { busi_water_no: string }).busi_water_no;
    }

    const assessments = (serial: string) =>
      service.ctx.store.db
        .selectFrom('risk_assessments')
        .select(['tier', 'cause', 'factors'])
        .where('busi_water_no', '=', serial)
        .orderBy('assessed_at')
        .orderBy('id')
        .execute();

    /** Polls until the application has `count` assessments; they then. */
    async function assessedTimes(serial: string, count: number, withinMs = 20_000) {
      const deadline = Date.now() + withinMs;
      for (;;) {
        const rows = await assessments(serial);
        if (rows.length >= count) return rows;
        if (Date.now() > deadline)
          throw new Error(`${serial}: ${rows.length} assessments, not ${count}: ${JSON.stringify(rows)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }

    test('a hit cleared by two operators asks for a new assessment', async () => {
      const serial = await submit(partner);
      await assessedTimes(serial, 1);
      const hit = await plantHit(service, serial);
      await assessApplication(service.ctx, serial, 'test', silent);
      assert.equal((await assessments(serial)).at(-1)?.tier, 'prohibited');
      const cleared = await call(service, 'POST', `${ADMIN}/applications/${serial}/screening/${hit}/clear`, {
        token: reviewer.token,
        body: { note: 'a namesake: another date of birth' },
      });
      assert.equal(cleared.status, 200, cleared.text);
      const confirmed = await call(
        service,
        'POST',
        `${ADMIN}/applications/${serial}/screening/${hit}/confirm`,
        { token: admin.token, body: {} },
      );
      assert.equal(confirmed.status, 200, confirmed.text);
      const rows = await assessedTimes(serial, 3);
      assert.deepEqual(
        rows.map((row) => [row.tier, row.cause]),
        [
          ['low', 'application.documents_kept'],
          ['prohibited', 'test'],
          ['low', 'screening.confirm_clear'],
        ],
      );
    });

    test("an admin sets a partner's risk level, audited; its open applications are assessed again", async () => {
      const other = await newPartner(service, 'risky partner');
      const open = await submit(other);
      const decided = await submit(other);
      await assessedTimes(open, 1);
      await assessedTimes(decided, 1);
      await move(service, decided, 'REJECTED', other.appId);
      const path = `${ADMIN}/apps/${other.appId}/risk-level`;
      const body = { level: 'high', reason: 'chargebacks above the agreed rate' };
      // Admins only; a level that is not one, or an app that does not exist, is refused.
      assert.equal((await call(service, 'POST', path, { token: reviewer.token, body })).status, 403);
      const wrong = await call(service, 'POST', path, {
        token: admin.token,
        body: { ...body, level: 'extreme' },
      });
      assert.equal(wrong.status, 422, wrong.text);
      assert.match(wrong.text, /level/);
      const missing = await call(service, 'POST', `${ADMIN}/apps/nosuchapp/risk-level`, {
        token: admin.token,
        body,
      });
      assert.equal(missing.status, 404, missing.text);
      const reply = await call(service, 'POST', path, { token: admin.token, body });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(reply.body.data, {
        app_id: other.appId,
        risk_level: 'high',
        previous_risk_level: 'low',
        reassessing: 1,
      });
      const audit = await service.ctx.store.db
        .selectFrom('audit_log')
        .select(['actor', 'details'])
        .where('action', '=', 'app.risk_level')
        .where('target_id', '=', other.appId)
        .execute();
      assert.deepEqual(
        audit.map((row) => [row.actor, JSON.parse(row.details ?? '{}') as unknown]),
        [[`operator:${admin.username}`, { from: 'low', to: 'high', reason: body.reason, reassessing: 1 }]],
      );
      const rows = await assessedTimes(open, 2);
      assert.equal(rows[1]!.cause, 'app.risk_level');
      const factors = JSON.parse(rows[1]!.factors) as { code: string; evidence: unknown }[];
      assert.deepEqual(factors.find((f) => f.code === 'partner_risk')?.evidence, { level: 'high' });
      // The rejected application is final: not assessed again.
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal((await assessments(decided)).length, 1);
      // The same level again: recorded, and nothing to assess.
      const same = await call(service, 'POST', path, { token: admin.token, body });
      assert.equal((same.body.data as { reassessing: number }).reassessing, 0);
    });

    // Last: once a list is in force, every later assessment screens against it.
    test('a re-screen after a list import that finds a hit asks for a new assessment', async () => {
      const serial = await submit(partner, { name: '钱志林', name_en: 'QIAN ZHILIN' });
      await assessedTimes(serial, 1);
      await uploadList(
        service,
        admin.token,
        unList({ dataId: 52, first: 'QIAN', second: 'ZHILIN', reference: 'TSi.RISK52', original: '钱志林' }),
      );
      const rows = await assessedTimes(serial, 2);
      assert.equal(rows[1]!.tier, 'prohibited');
      assert.equal(rows[1]!.cause, 'screening.rescreen');
    });
  });
}

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { StatusView } from '../../src/applications/views/queryApplication.ts';
import { expireSupplements } from '../../src/applications/commands/supplementExpiry.ts';
import type { ApplicationEventView as EventView } from '../../src/applications/views/eventView.ts';
import { PATHS } from '../../src/http/paths.ts';
import { ERRORS } from '../../src/errors/catalogue.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { ADMIN, call, newOperator, type TestOperator } from '../helpers/operators.ts';
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
 * A request for more information and the partner's amendment, over HTTP on every store: an operator
 * asks for fields with reason codes; the amend takes exactly those fields, checks the whole
 * application again (duplicates included), stores it encrypted and returns it to IN_REVIEW; an
 * amend beyond the fields or outside the state is refused; a request not answered lapses (EXPIRED)
 * by the job, on a clock the test moves.
 */

const DAY = 86_400_000;
let next = 90_000;

for (const storeName of storeNames()) {
  describe(`request for information on ${storeName}`, () => {
    let service: TestService;
    let partner: TestPartner;
    let other: TestPartner;
    let reviewer: TestOperator;

    const as = (who: TestPartner, path: string, body: Record<string, unknown> = {}) =>
      post(
        service.baseUrl,
        path,
        { app_id: who.appId, timestamp: nowSeconds(), ...body },
        { token: who.token },
      );
    const admin = (serial: string, action: string, body: Record<string, unknown> = {}) =>
      call(service, 'POST', `${ADMIN}/applications/${serial}/${action}`, { token: reviewer.token, body });
    const submitted = async (extra: Record<string, unknown> = {}) => {
      const applicant = uniqueApplicant(next++, partner.appId);
      const reply = await post(
        service.baseUrl,
        PATHS.apply,
        { ...applicant, ...extra },
        { token: partner.token },
      );
      assert.equal(reply.status, 200, reply.text);
      return { serial: (reply.body.data as { busi_water_no: string }).busi_water_no, applicant };
    };
    /** An application an operator has asked to resend the front image, document number and birthday. */
    const awaiting = async (extra: Record<string, unknown> = {}) => {
      const made = await submitted(extra);
      assert.equal((await admin(made.serial, 'review')).status, 200);
      const asked = await admin(made.serial, 'supplement', {
        reason_codes: ['document_unreadable'],
        reason: 'The front image is blurred.',
        requested_fields: ['id_card_img', 'cert_id', 'birthday'],
      });
      assert.equal(asked.status, 200, asked.text);
      return made;
    };

    before(async () => {
      service = await startService(storeName);
      partner = await newPartner(service);
      other = await newPartner(service, 'other partner');
      reviewer = await newOperator(service, 'reviewer');
    });
    after(() => service.close());

    test('an operator asks for fields with codes; both are required and checked', async () => {
      const { serial } = await submitted();
      assert.equal((await admin(serial, 'review')).status, 200);
      const noFields = await admin(serial, 'supplement', { reason_codes: ['document_unreadable'] });
      assert.equal(noFields.status, 422, noFields.text);
      assert.equal(noFields.body.msg, 'requested_fields: is required');
      const noCodes = await admin(serial, 'supplement', { requested_fields: ['id_card_img'] });
      assert.equal(noCodes.status, 422, noCodes.text);
      assert.equal(noCodes.body.msg, 'reason_codes: is required');
      const notAField = await admin(serial, 'supplement', {
        reason_codes: ['document_unreadable'],
        requested_fields: ['app_id'],
      });
      assert.equal(notAField.status, 422, notAField.text);
      const view = (await as(partner, PATHS.query, { busi_water_no: serial })).body.data as StatusView;
      assert.equal(view.status, 'IN_REVIEW');
      assert.deepEqual(view.requested_fields, []);
    });

    test('a field a partner cannot send again is refused by name, and not offered to the console', async () => {
      const { serial } = await submitted();
      assert.equal((await admin(serial, 'review')).status, 200);
      for (const [requested, refused] of [
        [['id_card_img', 'pay_pwd'], 1],
        [['card_no', 'cert_id'], 0],
      ] as const) {
        const reply = await admin(serial, 'supplement', {
          reason_codes: ['document_unreadable'],
          requested_fields: requested,
        });
        assert.equal(reply.status, 422, reply.text);
        assert.equal(reply.body.code, ERRORS.fieldNotResendable.code, reply.text);
        const name = requested[refused];
        assert.match(
          reply.body.msg,
          new RegExp(`^requested_fields\\[${refused}\\]: ${name} is not a field a partner can send again$`),
        );
        assert.deepEqual(
          (reply.body.data as { errors: { field: string; code: number }[] }).errors.map((e) => [
            e.field,
            e.code,
          ]),
          [[`requested_fields[${refused}]`, ERRORS.fieldNotResendable.code]],
        );
        const zh = await call(service, 'POST', `${ADMIN}/applications/${serial}/supplement`, {
          token: reviewer.token,
          headers: { 'accept-language': 'zh' },
          body: { reason_codes: ['document_unreadable'], requested_fields: requested },
        });
        assert.match(zh.body.msg, new RegExp(`${name} 不是合作方可以重新提交的字段`));
      }
      const view = (await as(partner, PATHS.query, { busi_water_no: serial })).body.data as StatusView;
      assert.equal(view.status, 'IN_REVIEW');
      const meta = (await (await fetch(`${service.baseUrl}/console/meta.json`)).json()) as {
        amendable_fields: string[];
      };
      for (const name of ['pay_pwd', 'card_no']) assert.ok(!meta.amendable_fields.includes(name), name);
      for (const name of ['id_card_img', 'cert_id', 'mob_no', 'mob_no_of', 'other_field'])
        assert.ok(meta.amendable_fields.includes(name), name);
    });

    test('amend exactly the asked fields: checked again, stored encrypted, back to IN_REVIEW, then approved', async () => {
      const reference = `SUP-${next}`;
      const { serial, applicant } = await awaiting({ external_id: reference });
      const waiting = (await as(partner, PATHS.query, { busi_water_no: serial })).body.data as StatusView;
      assert.equal(waiting.status, 'SUPPLEMENT_REQUIRED');
      assert.deepEqual(waiting.requested_fields, ['id_card_img', 'cert_id', 'birthday']);
      assert.deepEqual(waiting.reason_codes, ['document_unreadable']);
      assert.deepEqual(waiting.history.at(-1)?.requested_fields, ['id_card_img', 'cert_id', 'birthday']);

      const amend = (body: Record<string, unknown>) =>
        as(partner, PATHS.amend, { busi_water_no: serial, ...body });
      const asked = {
        id_card_img: 'https://img.example.com/b/front-sharp.jpg',
        cert_id: applicant.cert_id,
        birthday: applicant.birthday,
      };

      // Beyond the fields: refused, naming the field.
      const beyond = await amend({ ...asked, name_en: 'LI LEI' });
      assert.equal(beyond.status, 422, beyond.text);
      assert.equal(beyond.body.code, 42260);
      assert.match(beyond.body.msg, /^name_en: was not asked for/);
      const unknown = await amend({ ...asked, colour: 'blue' });
      assert.equal(unknown.status, 422, unknown.text);
      assert.equal(unknown.body.msg, 'colour: is not a known field');
      // Short of them: each missing one named.
      const short = await amend({ id_card_img: asked.id_card_img });
      assert.equal(short.status, 422, short.text);
      assert.deepEqual(
        (short.body.data as { errors: { field: string }[] }).errors.map((e) => e.field).sort(),
        ['birthday', 'cert_id'],
      );
      // The whole application is checked again, as the submit checks it.
      const insecure = await amend({ ...asked, id_card_img: 'http://img.example.com/b/front.jpg' });
      assert.equal(insecure.status, 422, insecure.text);
      assert.equal((insecure.body.data as { errors: { field: string }[] }).errors[0]?.field, 'id_card_img');
      // A document number that another active application already has is refused.
      const taken = await submitted();
      const duplicate = await amend({
        ...asked,
        cert_id: taken.applicant.cert_id,
        birthday: taken.applicant.birthday,
      });
      assert.equal(duplicate.status, 409, duplicate.text);
      assert.equal(duplicate.body.code, 40901);
      assert.deepEqual(duplicate.body.data, { busi_water_no: taken.serial });
      // Another app's application answers like an unknown one.
      const foreign = await as(other, PATHS.amend, { busi_water_no: serial, ...asked });
      assert.equal(foreign.status, 404, foreign.text);
      const stillWaiting = (await as(partner, PATHS.query, { busi_water_no: serial })).body
        .data as StatusView;
      assert.equal(stillWaiting.status, 'SUPPLEMENT_REQUIRED', 'a refused amend changes nothing');

      const done = await as(partner, PATHS.amend, { external_id: reference, ...asked });
      assert.equal(done.status, 200, done.text);
      const view = done.body.data as StatusView;
      assert.equal(view.status, 'IN_REVIEW');
      assert.deepEqual(view.requested_fields, []);
      assert.deepEqual(view.history.at(-1), {
        status: 'IN_REVIEW',
        at: view.history.at(-1)?.at,
        reason: null,
        reason_codes: [],
        amended_fields: ['id_card_img', 'cert_id', 'birthday'],
        changed_fields: ['id_card_img'],
      });
      // Stored encrypted: the new value is in the operators' (masked) view, not in the row's bytes.
      const row = await service.ctx.store.db
        .selectFrom('applications')
        .select(['payload_enc', 'version'])
        .where('busi_water_no', '=', serial)
        .executeTakeFirstOrThrow();
      assert.ok(!row.payload_enc.includes('front-sharp'));
      assert.equal(
        (JSON.parse(service.ctx.keyRing.decrypt(row.payload_enc, serial)) as { id_card_img: string })
          .id_card_img,
        asked.id_card_img,
      );
      const events = (await as(partner, PATHS.events, { busi_water_no: serial })).body.data as {
        items: EventView[];
      };
      assert.deepEqual(
        events.items.map((e) => e.type),
        [
          'application.submitted',
          'application.in_review',
          'application.supplement_required',
          'application.amended',
        ],
      );
      assert.deepEqual(events.items[2]?.data.requested_fields, ['id_card_img', 'cert_id', 'birthday']);
      assert.deepEqual(events.items[3]?.data.changed_fields, ['id_card_img']);

      // A second amend: refused with a message a partner can act on, under a code of its own.
      const again = await amend(asked);
      assert.equal(again.status, 423, again.text);
      assert.deepEqual([again.body.code, again.body.data], [42310, { status: 'IN_REVIEW' }]);
      assert.equal(
        again.body.msg,
        "status: the application is IN_REVIEW; an amend is accepted only while it is SUPPLEMENT_REQUIRED, once for each operator's request for information",
      );
      const inChinese = await post(
        service.baseUrl,
        PATHS.amend,
        { app_id: partner.appId, timestamp: nowSeconds(), busi_water_no: serial, ...asked },
        { token: partner.token, headers: { 'accept-language': 'zh' } },
      );
      assert.equal(
        inChinese.body.msg,
        'status: 申请当前为 IN_REVIEW；仅在审核员要求补充资料（SUPPLEMENT_REQUIRED）期间可提交补充，每次要求提交一次',
      );
      const approved = await admin(serial, 'approve', { version: row.version });
      assert.equal(approved.status, 200, approved.text);
      assert.equal((approved.body.data as { status: string }).status, 'APPROVED');
    });

    test('an operator may reject while the information is awaited', async () => {
      const { serial } = await awaiting();
      const rejected = await admin(serial, 'reject', { reason_codes: ['risk_policy'] });
      assert.equal(rejected.status, 200, rejected.text);
      const view = (await as(partner, PATHS.query, { busi_water_no: serial })).body.data as StatusView;
      assert.deepEqual(
        [view.status, view.reason_codes, view.requested_fields],
        ['REJECTED', ['risk_policy'], []],
      );
    });

    test('a request not answered within SUPPLEMENT_DAYS lapses by the job: EXPIRED, with its event', async () => {
      const { serial, applicant } = await awaiting();
      const at = (days: number) => ({ ...service.ctx, now: () => Date.now() + days * DAY });
      const early = await expireSupplements(at(13.9), { source: 'test' });
      assert.ok(!early.expired.includes(serial));
      const late = await expireSupplements(at(14.1), { source: 'test' });
      assert.ok(late.expired.includes(serial));
      const view = (await as(partner, PATHS.query, { busi_water_no: serial })).body.data as StatusView;
      assert.equal(view.status, 'EXPIRED');
      assert.equal(view.history.at(-1)?.status, 'EXPIRED');
      const events = (await as(partner, PATHS.events, { busi_water_no: serial })).body.data as {
        items: EventView[];
      };
      assert.equal(events.items.at(-1)?.type, 'application.expired');
      // Final: the document may be submitted again, and an amend is refused.
      const amend = await as(partner, PATHS.amend, {
        busi_water_no: serial,
        id_card_img: 'https://img.example.com/x.jpg',
      });
      assert.equal(amend.status, 423, amend.text);
      assert.deepEqual([amend.body.code, amend.body.data], [42310, { status: 'EXPIRED' }]);
      const resubmitted = await post(
        service.baseUrl,
        PATHS.apply,
        { ...applicant, timestamp: nowSeconds() },
        { token: partner.token },
      );
      assert.equal(resubmitted.status, 200, resubmitted.text);
      const audit = await service.ctx.store.db
        .selectFrom('audit_log')
        .select(['actor', 'source'])
        .where('target_id', '=', serial)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      assert.deepEqual({ ...audit }, { actor: 'system', source: 'test' });
    });
  });
}

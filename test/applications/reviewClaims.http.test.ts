import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listAudit } from '../../src/audit/auditTrail.ts';
import { ADMIN, Applications, call, newOperator, type TestOperator } from '../helpers/operators.ts';
import { newPartner, startService, type TestService } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * Review claims on every store: a reviewer claims an application in review (others are refused and
 * see who holds it), the holder opens its identity fields and images in one audited action with one
 * purpose (never the card number), the claim is released, reassigned by an admin, or lapses.
 */
for (const storeName of storeNames()) {
  describe(`review claims on ${storeName}`, () => {
    let service: TestService;
    let applications: Applications;
    let appId: string;
    let rita: TestOperator;
    let rob: TestOperator;
    let adam: TestOperator;
    before(async () => {
      service = await startService(storeName, { REVIEW_CLAIM_SECONDS: '60' });
      applications = new Applications(service);
      appId = (await newPartner(service)).appId;
      rita = await newOperator(service, 'reviewer');
      rob = await newOperator(service, 'reviewer');
      adam = await newOperator(service, 'admin');
    });
    after(() => service.close());

    const post = (who: TestOperator, serial: string, action: string, body: unknown = {}) =>
      call(service, 'POST', `${ADMIN}/applications/${serial}/${action}`, { token: who.token, body });
    const trail = async (serial: string) =>
      (await listAudit(service.ctx.store.db, { targetId: serial, limit: 20 })).items
        .map((e) => e.action)
        .reverse();

    test('claim, refused to another, open for review with one purpose, release', async () => {
      const serial = await applications.inState(appId, 'IN_REVIEW');
      const claimed = await post(rita, serial, 'claim');
      assert.equal(claimed.status, 200, claimed.text);
      const claim = claimed.body.data as { username: string; expires_at: number };
      assert.equal(claim.username, rita.username);
      assert.ok(claim.expires_at - Date.now() / 1000 > 55);

      const taken = await post(rob, serial, 'claim');
      assert.equal(taken.status, 409);
      assert.equal(taken.body.code, 40973);
      assert.equal((taken.body.data as { holder: string }).holder, rita.username);
      const list = await call(service, 'GET', `${ADMIN}/claims`, { token: rob.token });
      assert.ok(
        (list.body.data as { busi_water_no: string; username: string }[]).some(
          (c) => c.busi_water_no === serial && c.username === rita.username,
        ),
      );

      assert.equal(
        (await post(rob, serial, 'open-for-review', { purpose: 'identity_check' })).status,
        409,
        'not the holder',
      );
      const opened = await post(rita, serial, 'open-for-review', { purpose: 'document_comparison' });
      assert.equal(opened.status, 200, opened.text);
      const fields = (opened.body.data as { fields: Record<string, unknown> }).fields;
      assert.ok(typeof fields['cert_id'] === 'string' && !String(fields['cert_id']).includes('*'));
      assert.ok(String(fields['id_card_img']).startsWith('https://'));
      assert.ok(!('card_no' in fields), 'the card number stays a reveal of its own');
      const entry = (
        await listAudit(service.ctx.store.db, {
          targetId: serial,
          action: 'application.review_open',
          limit: 1,
        })
      ).items[0]!;
      assert.equal(entry.details?.['purpose'], 'document_comparison');
      assert.ok((entry.details?.['fields'] as string[]).includes('cert_id'));
      assert.ok(!JSON.stringify(entry).includes(String(fields['cert_id'])), 'never a value in the trail');

      assert.equal((await post(rob, serial, 'release')).status, 409, 'only the holder or an admin');
      assert.equal((await post(rita, serial, 'release')).status, 200);
      assert.equal(
        (await post(rita, serial, 'open-for-review', { purpose: 'identity_check' })).body.code,
        40974,
      );
      assert.deepEqual(await trail(serial), [
        'application.transition',
        'application.claim',
        'application.review_open',
        'application.release',
      ]);
    });

    test("starting a review claims it; a decision ends the claim, and is refused over another's", async () => {
      const claims = async () =>
        (
          (await call(service, 'GET', `${ADMIN}/claims`, { token: rob.token })).body.data as {
            busi_water_no: string;
            username: string;
          }[]
        ).filter((c) => c.busi_water_no === serial);
      const serial = await applications.inState(appId, 'SUBMITTED');
      assert.equal((await post(rita, serial, 'review')).status, 200);
      assert.deepEqual(
        (await claims()).map((c) => c.username),
        [rita.username],
        'the reviewer who started it holds it',
      );
      const refused = await post(rob, serial, 'approve');
      assert.equal(refused.status, 409, 'not over the holder');
      assert.equal(refused.body.code, 40973);
      assert.equal((refused.body.data as { holder: string }).holder, rita.username);
      const asked = await post(rita, serial, 'supplement', {
        requested_fields: ['id_card_img'],
        reason_codes: ['document_unreadable'],
      });
      assert.equal(asked.status, 200, asked.text);
      assert.deepEqual(await claims(), [], 'asking for information ends the claim');

      // Nobody holds an application in review again: anyone may decide, and the decision ends it.
      const other = await applications.inState(appId, 'IN_REVIEW');
      assert.equal((await post(rob, other, 'claim')).status, 200);
      assert.equal((await post(rob, other, 'approve')).status, 200);
      const rows = await service.ctx.store.db
        .selectFrom('review_claims')
        .select('username')
        .where('busi_water_no', '=', other)
        .execute();
      assert.deepEqual(rows, [], 'approving ends the claim: the queue no longer says "held by"');
    });

    test('only applications in review; an admin reassigns; a claim lapses', async () => {
      const submitted = await applications.inState(appId, 'SUBMITTED');
      const refused = await post(rita, submitted, 'claim');
      assert.equal(refused.status, 409);
      assert.equal(refused.body.code, 40972);

      const serial = await applications.inState(appId, 'IN_REVIEW');
      await post(rita, serial, 'claim');
      assert.equal(
        (await post(rob, serial, 'reassign', { username: rob.username })).status,
        403,
        'admins only',
      );
      const reassigned = await post(adam, serial, 'reassign', { username: rob.username });
      assert.equal(reassigned.status, 200, reassigned.text);
      assert.equal((reassigned.body.data as { username: string }).username, rob.username);
      assert.equal((await post(rita, serial, 'open-for-review', { purpose: 'identity_check' })).status, 409);
      const entry = (
        await listAudit(service.ctx.store.db, { targetId: serial, action: 'application.reassign', limit: 1 })
      ).items[0]!;
      assert.deepEqual(entry.details, { from: rita.username, to: rob.username });

      // Lapsed: anyone may claim it again.
      await service.ctx.store.db
        .updateTable('review_claims')
        .set({ expires_at: Date.now() - 1 })
        .where('busi_water_no', '=', serial)
        .execute();
      assert.equal((await post(rita, serial, 'claim')).status, 200);
    });

    test("the queue's rows carry the partner's name, the masked applicant name and the holder", async () => {
      const serial = await applications.inState(appId, 'IN_REVIEW');
      await post(rita, serial, 'claim');
      const reply = await call(service, 'GET', `${ADMIN}/applications?busi_water_no=${serial}`, {
        token: rob.token,
      });
      const item = (reply.body.data as { items: Record<string, unknown>[] }).items[0]!;
      assert.equal(item['app_name'], 'test partner');
      assert.equal(item['claimed_by'], rita.username);
      assert.match(String(item['name_masked']), /^.\*+$/u, 'a surname and stars');
    });
  });
}

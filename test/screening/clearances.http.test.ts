import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PATHS } from '../../src/http/paths.ts';
import { adminBench } from '../helpers/adminService.ts';
import { newPartner, post, type TestPartner } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';
import { screenPending, submitOver, unList, uploadList } from './screeningHelpers.ts';

/**
 * Clearances remembered (issue 53), over HTTP on every store: a hit cleared by two operators is not
 * raised again when the same list is imported again; it is when the entry's content changed, or
 * when the applicant amended a screened field.
 */
const ENTRY = { dataId: 5301, first: 'ZHUO', second: 'HANQIAO', reference: 'TSi.CLEAR', original: '卓汉桥' };

for (const storeName of storeNames()) {
  describe(`clearances remembered on ${storeName}`, () => {
    const bench = adminBench(storeName);
    let partner: TestPartner;
    let n = 531_000;

    const hits = async (serial: string) =>
      (
        (await bench.as(bench.operators.reviewer, 'GET', `/applications/${serial}`)).body.data as {
          screening_hits: { id: string; state: string; reference: string }[];
        }
      ).screening_hits.map((h) => ({ id: h.id, state: h.state }));
    const clearByTwo = async (serial: string, id: string) => {
      const { reviewer, admin } = bench.operators;
      const path = `/applications/${serial}/screening/${id}`;
      const cleared = await bench.as(reviewer, 'POST', `${path}/clear`, {
        note: 'another person, by date of birth',
      });
      assert.equal(cleared.status, 200, cleared.text);
      const confirmed = await bench.as(admin, 'POST', `${path}/confirm`, {});
      assert.equal(confirmed.status, 200, confirmed.text);
    };
    const importAgain = async (xml: string) => {
      await uploadList(bench.service, bench.operators.admin.token, xml);
      await screenPending(bench.service, 'the re-screen');
    };

    test('the same list again raises nothing; a changed entry raises the hit again', async () => {
      partner = await newPartner(bench.service, 'clearances partner');
      await uploadList(bench.service, bench.operators.admin.token, unList(ENTRY));
      const serial = await submitOver(bench.service, partner, n++, {
        name: '卓汉桥',
        name_en: 'ZHUO HANQIAO',
      });
      await screenPending(bench.service, 'the submission');
      const [first] = await hits(serial);
      assert.equal(first?.state, 'unresolved');
      await clearByTwo(serial, first!.id);

      await importAgain(unList(ENTRY));
      assert.deepEqual(await hits(serial), [{ id: first!.id, state: 'cleared' }], 'remembered');

      await importAgain(unList({ ...ENTRY, aliases: ['Cheuk Hon Kiu'] }));
      const after = await hits(serial);
      assert.equal(after.length, 2, JSON.stringify(after));
      assert.deepEqual(after.map((h) => h.state).sort(), ['cleared', 'unresolved'], 'the entry changed');
      const open = after.find((h) => h.state === 'unresolved')!;
      const held = await bench.as(bench.operators.reviewer, 'POST', `/applications/${serial}/review`, {});
      assert.equal(held.status, 200, held.text);
      const approve = await bench.as(bench.operators.reviewer, 'POST', `/applications/${serial}/approve`, {});
      assert.equal(approve.body.code, 40940, 'the hit raised again holds the application');

      // Cleared again, and the same changed list once more: remembered again.
      await clearByTwo(serial, open.id);
      await importAgain(unList({ ...ENTRY, aliases: ['Cheuk Hon Kiu'] }));
      assert.equal((await hits(serial)).filter((h) => h.state === 'unresolved').length, 0);
    });

    test("an amendment of the applicant's name raises a cleared hit again", async () => {
      const serial = await submitOver(bench.service, partner, n++, {
        name: '卓汉桥',
        name_en: 'ZHUO HANQIAO',
      });
      await screenPending(bench.service, 'the submission');
      const [hit] = (await hits(serial)).filter((h) => h.state === 'unresolved');
      await clearByTwo(serial, hit!.id);
      const { reviewer } = bench.operators;
      assert.equal((await bench.as(reviewer, 'POST', `/applications/${serial}/review`, {})).status, 200);
      const asked = await bench.as(reviewer, 'POST', `/applications/${serial}/supplement`, {
        reason_codes: ['document_unreadable'],
        requested_fields: ['name'],
      });
      assert.equal(asked.status, 200, asked.text);
      // 乔 reads qiao as 桥 does: name_en still agrees, and the name still matches the entry.
      const amended = await post(
        bench.service.baseUrl,
        PATHS.amend,
        {
          app_id: partner.appId,
          timestamp: Math.floor(Date.now() / 1000),
          busi_water_no: serial,
          name: '卓汉乔',
        },
        { token: partner.token },
      );
      assert.equal(amended.status, 200, amended.text);
      await screenPending(bench.service, 'the amendment');
      const after = await hits(serial);
      assert.deepEqual(after.map((h) => h.state).sort(), ['cleared', 'unresolved'], JSON.stringify(after));
    });
  });
}

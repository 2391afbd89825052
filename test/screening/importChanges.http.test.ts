import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { adminBench } from '../helpers/adminService.ts';
import { cardapply, cardapplyJson } from '../helpers/cli.ts';
import { newPartner } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';
import { screenPending, submitOver, unListOf, uploadList, type TestEntry } from './screeningHelpers.ts';

/**
 * Each import says what changed (issue 53), over HTTP on every store: a second import with one entry
 * added, one removed and one changed reports exactly those against the first; its re-screen raises
 * exactly the new matches (the added entry's, and the changed entry's new alias) and not the hit two
 * operators cleared on an entry that did not change, and names the application whose open hit's
 * entry left the list. The admin API's status and `cardapply screening status` (text and JSON) say so.
 */
const A: TestEntry = {
  dataId: 5311,
  first: 'ZHUO',
  second: 'HANQIAO',
  reference: 'TSi.A',
  original: '卓汉桥',
};
const B: TestEntry = {
  dataId: 5312,
  first: 'QIAN',
  second: 'ZHILIN',
  reference: 'TSi.B',
  original: '钱志林',
};
const C: TestEntry = {
  dataId: 5313,
  first: 'LUO',
  second: 'WEIDONG',
  reference: 'TSi.C',
  original: '罗卫东',
};
const D: TestEntry = {
  dataId: 5314,
  first: 'HE',
  second: 'JIANFENG',
  reference: 'TSi.D',
  original: '贺建峰',
};
const C_CHANGED: TestEntry = { ...C, aliases: ['SUN KAIYUAN'] };

interface Version {
  version_id: string;
  changes: {
    previous_version_id: string | null;
    added: number;
    removed: number;
    changed: number;
    added_references: string[];
    removed_references: string[];
    changed_references: string[];
  } | null;
  rescreen: {
    screened: number;
    newly_hit: number;
    newly_hit_applications: string[];
    no_longer_hit: number;
    no_longer_hit_applications: string[];
  } | null;
}

for (const storeName of storeNames()) {
  describe(`what an import changed on ${storeName}`, () => {
    const bench = adminBench(storeName);

    test('added, removed and changed entries, and the applications newly hit and no longer hit', async () => {
      const { admin, reviewer } = bench.operators;
      const partner = await newPartner(bench.service, 'import changes partner');
      const first = (await uploadList(bench.service, admin.token, unListOf([A, B, C]))) as unknown as Version;
      assert.deepEqual(first.changes, {
        previous_version_id: null,
        added: 3,
        removed: 0,
        changed: 0,
        added_references: ['TSi.A', 'TSi.B', 'TSi.C'],
        removed_references: [],
        changed_references: [],
      });
      assert.equal(first.rescreen, null, 'the re-screen has not run yet');
      await screenPending(bench.service, 'the first re-screen');

      let n = 531_100;
      const onA = await submitOver(bench.service, partner, n++, { name: '卓汉桥', name_en: 'ZHUO HANQIAO' });
      const onB = await submitOver(bench.service, partner, n++, { name: '钱志林', name_en: 'QIAN ZHILIN' });
      const onD = await submitOver(bench.service, partner, n++, { name: '贺建峰', name_en: 'HE JIANFENG' });
      const onNewAlias = await submitOver(bench.service, partner, n++, {
        name: '孙开元',
        name_en: 'SUN KAIYUAN',
      });
      const nobody = await submitOver(bench.service, partner, n);
      await screenPending(bench.service, 'the submissions');
      const hits = async (serial: string) =>
        (
          (await bench.as(reviewer, 'GET', `/applications/${serial}`)).body.data as {
            screening_hits: { id: string; state: string; reference: string }[];
          }
        ).screening_hits;
      assert.equal((await hits(onA)).length, 1);
      const [onBHit] = await hits(onB);
      assert.equal(onBHit?.reference, 'TSi.B');
      for (const serial of [onD, onNewAlias, nobody]) assert.deepEqual(await hits(serial), []);
      // The hit on B cleared by two operators: B does not change, so it must not come back.
      const path = `/applications/${onB}/screening/${onBHit!.id}`;
      assert.equal(
        (await bench.as(reviewer, 'POST', `${path}/clear`, { note: 'another person' })).status,
        200,
      );
      assert.equal((await bench.as(admin, 'POST', `${path}/confirm`, {})).status, 200);

      const second = (await uploadList(
        bench.service,
        admin.token,
        unListOf([B, C_CHANGED, D]),
      )) as unknown as Version;
      assert.deepEqual(second.changes, {
        previous_version_id: first.version_id,
        added: 1,
        removed: 1,
        changed: 1,
        added_references: ['TSi.D'],
        removed_references: ['TSi.A'],
        changed_references: ['TSi.C'],
      });
      await screenPending(bench.service, 'the second re-screen');

      const status = await bench.as(reviewer, 'GET', '/screening/status');
      assert.equal(status.status, 200, status.text);
      const { imports, in_force } = status.body.data as { imports: Version[]; in_force: Version[] };
      const latest = imports.find((v) => v.version_id === second.version_id)!;
      assert.deepEqual(latest.changes, second.changes);
      const expected = {
        screened: 5,
        newly_hit: 2,
        newly_hit_applications: [onD, onNewAlias].sort(),
        no_longer_hit: 1,
        no_longer_hit_applications: [onA],
      };
      assert.deepEqual(
        { ...latest.rescreen, finished_at: undefined },
        { ...expected, finished_at: undefined },
      );
      assert.deepEqual(in_force.find((v) => v.version_id === second.version_id)?.rescreen, latest.rescreen);
      assert.deepEqual(
        (await hits(onB)).map((h) => h.state),
        ['cleared'],
        'the cleared hit on an unchanged entry is not raised again',
      );
      assert.deepEqual(
        (await hits(onD)).map((h) => [h.reference, h.state]),
        [['TSi.D', 'unresolved']],
      );
      assert.deepEqual(
        (await hits(onNewAlias)).map((h) => [h.reference, h.state]),
        [['TSi.C', 'unresolved']],
      );
      assert.deepEqual(await hits(nobody), []);
      // The hit on A stays as it was: a reviewer clears it, knowing its entry left the list.
      assert.deepEqual(
        (await hits(onA)).map((h) => h.state),
        ['unresolved'],
      );

      const env = bench.service.target.env;
      const json = await cardapplyJson<{ in_force: Version[] }>(env, 'screening', 'status');
      assert.deepEqual(
        json.in_force.find((v) => v.version_id === second.version_id),
        in_force.find((v) => v.version_id === second.version_id),
      );
      const text = await cardapply(env, 'screening', 'status');
      assert.match(text, new RegExp(`changes against ${first.version_id}: 1 added, 1 removed, 1 changed`));
      assert.match(text, /\n {4}added: TSi\.D\n {4}removed: TSi\.A\n {4}changed: TSi\.C\n/);
      assert.match(text, /re-screen: 2 applications newly hit, 1 no longer hit/);
      assert.match(text, new RegExp(`no longer hit: ${onA}`));
    });
  });
}

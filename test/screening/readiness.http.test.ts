import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { adminBench } from '../helpers/adminService.ts';
import { parseMetrics, sample } from '../helpers/metrics.ts';
import { spawnService } from '../helpers/process.ts';
import { newPartner, startService, type TestPartner } from '../helpers/service.ts';
import { createStoreTarget, storeNames } from '../helpers/stores.ts';
import { submitOver, unList, uploadList } from './screeningHelpers.ts';

/**
 * Screening is never silently off (issue 53): with no list in force the instance is not ready and
 * names why, approval is refused with 40960, the console's readiness says so and the metric counts
 * no list; with a list it is ready; a list older than SCREENING_MAX_AGE_DAYS makes it not ready
 * again, naming the list. SCREENING_REQUIRED=false (the tests' default, stores.ts) keeps it ready
 * and is itself logged as a warning at start.
 */
const LIST = unList({
  dataId: 53,
  first: 'GENG',
  second: 'ZHIYUAN',
  reference: 'TSi.READY',
  original: '耿志远',
});

interface Readiness {
  required: boolean;
  max_age_days: number;
  lists: { list: string; entries: number; stale: boolean }[];
  problems: { reason: string; list?: string; age_days?: number }[];
}

for (const storeName of storeNames()) {
  describe(`screening readiness on ${storeName}`, () => {
    const bench = adminBench(storeName, { SCREENING_REQUIRED: 'true', SCREENING_MAX_AGE_DAYS: '2' });
    let partner: TestPartner;
    let serial: string;
    const readyz = async () => {
      const response = await fetch(`${bench.service.baseUrl}/readyz`);
      return {
        status: response.status,
        body: (await response.json()) as { code: number; data: { ready: boolean; reasons: string[] } },
      };
    };
    const readiness = async () =>
      (await bench.as(bench.operators.viewer, 'GET', '/screening/readiness')).body.data as Readiness;
    const metrics = async () => parseMetrics((await bench.service.ctx.metrics.exposition()).body);

    test('with no list: not ready naming why, approval refused with 40960, no list counted', async () => {
      partner = await newPartner(bench.service, 'readiness partner');
      serial = await submitOver(bench.service, partner, 530_001);
      const { reviewer } = bench.operators;
      assert.equal((await bench.as(reviewer, 'POST', `/applications/${serial}/review`, {})).status, 200);
      const refused = await bench.as(reviewer, 'POST', `/applications/${serial}/approve`, {});
      assert.equal(refused.status, 409, refused.text);
      assert.equal(refused.body.code, 40960);
      assert.match(refused.body.msg, /^status: cannot approve while no sanctions list is in force/);
      const zh = await bench.as(reviewer, 'GET', `/applications/${serial}`);
      assert.equal((zh.body.data as { status: string }).status, 'IN_REVIEW', 'the refusal changed nothing');

      const ready = await readyz();
      assert.equal(ready.status, 503);
      assert.equal(ready.body.data.ready, false);
      assert.ok(
        ready.body.data.reasons.some((r) => r.startsWith('screening: no sanctions list imported')),
        ready.body.data.reasons.join('; '),
      );
      assert.deepEqual((await readiness()).problems, [{ reason: 'no_list' }]);
      assert.equal(sample(await metrics(), 'cardapply_screening_lists_in_force'), 0);
    });

    test('a list imported: ready, approval goes through, the list has its gauges', async () => {
      const before = Math.floor(Date.now() / 1000);
      await uploadList(bench.service, bench.operators.admin.token, LIST);
      const ready = await readyz();
      assert.equal(ready.status, 200, JSON.stringify(ready.body));
      assert.deepEqual(ready.body.data.reasons, []);
      const state = await readiness();
      assert.deepEqual(state.problems, []);
      assert.deepEqual(
        state.lists.map((l) => [l.list, l.entries, l.stale]),
        [['un', 1, false]],
      );
      const approved = await bench.as(
        bench.operators.reviewer,
        'POST',
        `/applications/${serial}/approve`,
        {},
      );
      assert.equal(approved.status, 200, approved.text);
      // The gauges are read afresh: the last scrape was more than the cache's 5 s ago, or had no list.
      await new Promise((resolve) => setTimeout(resolve, 5_100));
      const samples = await metrics();
      assert.equal(sample(samples, 'cardapply_screening_lists_in_force'), 1);
      assert.equal(sample(samples, 'cardapply_screening_list_entries', { list: 'un' }), 1);
      const at = sample(samples, 'cardapply_screening_list_imported_timestamp_seconds', { list: 'un' });
      assert.ok(at >= before && at <= Math.floor(Date.now() / 1000), String(at));
      assert.ok(sample(samples, 'cardapply_screening_list_age_seconds', { list: 'un' }) < 60);
    });

    test('a list older than SCREENING_MAX_AGE_DAYS: not ready, naming the list; approval still allowed', async () => {
      const threeDays = 3 * 86_400_000;
      await bench.service.ctx.store.db
        .updateTable('screening_lists')
        .set((eb) => ({ imported_at: eb('imported_at', '-', threeDays) }))
        .execute();
      const ready = await readyz();
      assert.equal(ready.status, 503);
      assert.ok(
        ready.body.data.reasons.includes(
          'screening: list un last imported 3 days ago, over SCREENING_MAX_AGE_DAYS 2',
        ),
        ready.body.data.reasons.join('; '),
      );
      assert.deepEqual((await readiness()).problems, [{ reason: 'stale', list: 'un', age_days: 3 }]);
      // A stale list still screens: only readiness says so, the reviewers' work goes on.
      const other = await submitOver(bench.service, partner, 530_002);
      const { reviewer } = bench.operators;
      assert.equal((await bench.as(reviewer, 'POST', `/applications/${other}/review`, {})).status, 200);
      assert.equal((await bench.as(reviewer, 'POST', `/applications/${other}/approve`, {})).status, 200);
    });
  });

  test(`SCREENING_REQUIRED=false on ${storeName}: ready with no list, and the readiness says why`, async () => {
    const service = await startService(storeName, { SCREENING_REQUIRED: 'false' });
    try {
      const response = await fetch(`${service.baseUrl}/readyz`);
      assert.equal(response.status, 200);
      const status = await service.ctx.metrics.exposition();
      assert.equal(sample(parseMetrics(status.body), 'cardapply_screening_lists_in_force'), 0);
    } finally {
      await service.close();
    }
  });
}

test('the service warns at start while screening is off, and when it is not required', async () => {
  for (const [required, event] of [
    ['true', 'screening.not_in_force'],
    ['false', 'screening.not_required'],
  ] as const) {
    const target = createStoreTarget('sqlite');
    const service = await spawnService({ ...target.env, SCREENING_REQUIRED: required });
    try {
      const warnings = service.output
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: string; event?: string; msg: string })
        .filter((line) => line.level === 'warn' && line.event?.startsWith('screening.'));
      assert.ok(
        warnings.some((w) => w.event === event),
        `SCREENING_REQUIRED=${required}: ${JSON.stringify(warnings)}`,
      );
      if (required === 'true')
        assert.match(warnings[0]!.msg, /no sanctions list imported .*: not ready until it is$/);
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
      await target.cleanup();
    }
  }
});

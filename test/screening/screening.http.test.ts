import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PATHS } from '../../src/http/paths.ts';
import { fanOutEvents } from '../../src/webhooks/deliveryQueue.ts';
import { adminBench } from '../helpers/adminService.ts';
import { newPartner, post, type TestPartner } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';
import { screenPending, submitOver, unList } from './screeningHelpers.ts';

/**
 * Screening over HTTP on every store: an admin imports a list, a listed applicant submitted by a
 * partner is held (approve refused with a clear error), cleared only by two different operators,
 * or rejected; the partner sees `risk_policy`, never `sanctions_hit`, and nothing of the hit.
 */
const LIST = unList({
  dataId: 1,
  first: 'ZHUO',
  second: 'HANQIAO',
  reference: 'TSi.HTTP',
  original: '卓汉桥',
  aliases: ['Cheuk Hon Kiu'],
});

for (const storeName of storeNames()) {
  describe(`screening over HTTP on ${storeName}`, () => {
    const bench = adminBench(storeName);
    let partner: TestPartner;
    let n = 700_000;

    const submit = (listed: boolean) =>
      submitOver(bench.service, partner, n++, listed ? { name: '卓汉桥', name_en: 'ZHUO HANQIAO' } : {});
    const query = (serial: string) =>
      post(
        bench.service.baseUrl,
        PATHS.query,
        { app_id: partner.appId, timestamp: Math.floor(Date.now() / 1000), busi_water_no: serial },
        { token: partner.token },
      );
    const show = async (serial: string, operator = bench.operators.reviewer) =>
      (await bench.as(operator, 'GET', `/applications/${serial}`)).body.data as {
        status: string;
        risk_flags: { code: string; params: Record<string, number>; details?: Record<string, string> }[];
        screening_hits: {
          id: string;
          state: string;
          reference: string;
          fields: string[];
          matched_name: string;
          entry: { names: { text: string }[] };
        }[];
        application: Record<string, unknown>;
      };

    test('an admin imports a list; a viewer cannot; a file of another format is refused', async () => {
      partner = await newPartner(bench.service, 'screened partner');
      const upload = (token: string, body: string, list = 'un') =>
        post(bench.service.baseUrl, `/admin/v1/screening/lists/${list}`, undefined, {
          token,
          headers: { 'content-type': 'application/xml' },
          raw: body,
        });
      assert.equal((await upload(bench.operators.viewer.token, LIST)).status, 403);
      const bad = await upload(bench.operators.admin.token, LIST, 'ofac-sdn');
      assert.equal(bad.status, 422, bad.text);
      assert.equal(bad.body.code, 42293);
      assert.match(bad.body.msg, /not a ofac-sdn list file/);
      // A JSON body is no list file: a clear 415, never a 500 (found by the contract test).
      const json = await post(
        bench.service.baseUrl,
        '/admin/v1/screening/lists/un',
        { entries: [] },
        {
          token: bench.operators.admin.token,
        },
      );
      assert.equal(json.status, 415, json.text);
      assert.equal(json.body.code, 41502);
      const ok = await upload(bench.operators.admin.token, LIST);
      assert.equal(ok.status, 200, ok.text);
      assert.deepEqual(
        [(ok.body.data as { entries: number }).entries, (ok.body.data as { names: number }).names],
        [1, 3],
      );
      const status = await bench.as(bench.operators.viewer, 'GET', '/screening/status');
      assert.equal((status.body.data as { in_force: unknown[] }).in_force.length, 1);
    });

    test('a listed applicant is held until two different operators clear the hit; the partner learns nothing', async () => {
      const listed = await submit(true);
      const ordinary = await submit(false);
      const before = (await query(listed)).text;
      // One screening job for the relay's batch, naming both applications.
      const ctx = bench.service.ctx;
      await fanOutEvents(ctx.store, { now: ctx.now(), limit: 1000, maxAgeMs: 86_400_000 });
      const queued = await ctx.store.db
        .selectFrom('jobs')
        .select('payload')
        .where('kind', '=', 'screening.screen')
        .execute();
      assert.equal(queued.length, 1, 'one job for the batch');
      assert.deepEqual(
        (JSON.parse(queued[0]!.payload!) as { serials: string[] }).serials.sort(),
        [listed, ordinary].sort(),
      );
      await screenPending(bench.service);
      assert.deepEqual((await show(ordinary)).screening_hits, []);
      const view = await show(listed);
      assert.equal(view.screening_hits.length, 1);
      const hit = view.screening_hits[0]!;
      assert.equal(hit.reference, 'TSi.HTTP');
      assert.deepEqual(hit.fields, ['name', 'country']);
      assert.ok(
        hit.entry.names.some((name) => name.text === 'Cheuk Hon Kiu'),
        'the entry comes with its aliases',
      );
      const flag = view.risk_flags.find((f) => f.code === 'sanctions_hit');
      assert.deepEqual(flag?.details, {
        hit_id: hit.id,
        list: 'un',
        reference: 'TSi.HTTP',
        matched_name: '卓汉桥',
      });
      assert.equal(flag?.params['score'], 1);
      const queue = async () =>
        (
          (await bench.as(bench.operators.viewer, 'GET', '/applications?screening=open&limit=100')).body
            .data as {
            items: { busi_water_no: string }[];
          }
        ).items.map((item) => item.busi_water_no);
      assert.ok((await queue()).includes(listed), 'the queue filters on open hits');
      assert.ok(!(await queue()).includes(ordinary));
      // The partner's view is what it was: the same status, no word of screening.
      assert.equal((await query(listed)).text, before);

      const { reviewer, admin } = bench.operators;
      assert.equal((await bench.as(reviewer, 'POST', `/applications/${listed}/review`, {})).status, 200);
      const held = await bench.as(reviewer, 'POST', `/applications/${listed}/approve`, {});
      assert.equal(held.status, 409, held.text);
      assert.equal(held.body.code, 40940);
      assert.match(
        held.body.msg,
        /cannot move to APPROVED while 1 sanctions screening hit\(s\) are unresolved/,
      );

      const hitPath = `/applications/${listed}/screening/${hit.id}`;
      assert.equal(
        (await bench.as(bench.operators.viewer, 'POST', `${hitPath}/clear`, { note: 'x' })).status,
        403,
      );
      const cleared = await bench.as(reviewer, 'POST', `${hitPath}/clear`, {
        note: 'Different birthday and place of birth',
      });
      assert.equal(cleared.status, 200, cleared.text);
      assert.equal(
        (await bench.as(reviewer, 'POST', `/applications/${listed}/approve`, {})).body.code,
        40940,
        'one operator is not enough',
      );
      const self = await bench.as(reviewer, 'POST', `${hitPath}/confirm`, {});
      assert.equal(self.status, 403, self.text);
      assert.equal(self.body.code, 40340);
      const again = await bench.as(reviewer, 'POST', `${hitPath}/clear`, { note: 'again' });
      assert.equal(again.body.code, 40941);
      const confirmed = await bench.as(admin, 'POST', `${hitPath}/confirm`, {});
      assert.equal(confirmed.status, 200, confirmed.text);
      assert.deepEqual(confirmed.body.data, { id: hit.id, state: 'cleared' });
      assert.equal((await bench.as(reviewer, 'POST', `/applications/${listed}/approve`, {})).status, 200);
      assert.equal(
        (await show(listed)).risk_flags.some((f) => f.code === 'sanctions_hit'),
        false,
      );

      const audit = await bench.service.ctx.store.db
        .selectFrom('audit_log')
        .select(['action', 'actor'])
        .where('target_id', '=', listed)
        .where('action', 'like', 'screening.%')
        .orderBy('id')
        .execute();
      assert.deepEqual(
        audit.map((a) => a.action),
        ['screening.hit', 'screening.clear', 'screening.confirm_clear'],
      );
    });

    test("a viewer sees the listed names masked, as it sees the applicant's own", async () => {
      const listed = await submit(true);
      await screenPending(bench.service);
      const reviewer = await show(listed);
      const viewer = await show(listed, bench.operators.viewer);
      const [full, masked] = [reviewer.screening_hits[0]!, viewer.screening_hits[0]!];
      assert.equal(full.matched_name, '卓汉桥');
      assert.equal(masked.matched_name, '卓**');
      // The applicant's own name, as every operator sees it before a reveal.
      assert.equal(viewer.application['name'], masked.matched_name);
      assert.deepEqual(
        masked.entry.names.map((name) => name.text),
        ['Z*** H******', '卓**', 'C**** H** K**'],
      );
      assert.deepEqual(
        full.entry.names.map((name) => name.text),
        ['ZHUO HANQIAO', '卓汉桥', 'Cheuk Hon Kiu'],
      );
      const flag = (view: typeof viewer) =>
        view.risk_flags.find((f) => f.code === 'sanctions_hit')?.details?.['matched_name'];
      assert.equal(flag(viewer), '卓**');
      assert.equal(flag(reviewer), '卓汉桥');
      // Everything else of the hit is the same for both.
      assert.deepEqual(
        { ...masked, matched_name: null, entry: null },
        { ...full, matched_name: null, entry: null },
      );
      for (const name of ['卓汉桥', 'ZHUO', 'HANQIAO', 'Cheuk', 'Kiu'])
        assert.ok(!JSON.stringify(viewer).includes(name), `a viewer never sees ${name}`);
    });

    test('a viewer is not shown the clearing note, in the hit nor in the audit trail; a reviewer is', async () => {
      const listed = await submit(true);
      await screenPending(bench.service);
      const { viewer, reviewer } = bench.operators;
      const hit = (await show(listed)).screening_hits[0]!;
      // A note that quotes the listed person, whose name is near enough the applicant's.
      const note = 'Not ZHUO HANQIAO (卓汉桥): the listed one was born in 1957';
      const cleared = await bench.as(reviewer, 'POST', `/applications/${listed}/screening/${hit.id}/clear`, {
        note,
      });
      assert.equal(cleared.status, 200, cleared.text);

      const hitAs = async (operator: typeof viewer) => {
        const reply = await bench.as(operator, 'GET', `/applications/${listed}`);
        assert.equal(reply.status, 200, reply.text);
        return {
          text: reply.text,
          hit: (
            reply.body.data as {
              screening_hits: { resolution_note: string | null; state: string; resolved_by: string | null }[];
            }
          ).screening_hits[0]!,
        };
      };
      const auditAs = async (operator: typeof viewer) => {
        const reply = await bench.as(operator, 'GET', `/audit?target_id=${listed}&action=screening.clear`);
        assert.equal(reply.status, 200, reply.text);
        const items = (reply.body.data as { items: { details: Record<string, unknown> }[] }).items;
        assert.equal(items.length, 1);
        return { text: reply.text, details: items[0]!.details };
      };

      const seenByReviewer = await hitAs(reviewer);
      assert.equal(seenByReviewer.hit.resolution_note, note);
      assert.equal((await auditAs(reviewer)).details['note'], note);
      assert.equal((await hitAs(bench.operators.admin)).hit.resolution_note, note);

      const seenByViewer = await hitAs(viewer);
      assert.equal(seenByViewer.hit.resolution_note, null);
      // The rest of the resolution is the viewer's to see: who cleared it, and that it is clearing.
      assert.equal(seenByViewer.hit.state, 'clearing');
      assert.equal(seenByViewer.hit.resolved_by, reviewer.username);
      const viewerAudit = await auditAs(viewer);
      assert.deepEqual(viewerAudit.details, { hit_id: hit.id, list: 'un', reference: 'TSi.HTTP' });
      for (const text of [seenByViewer.text, viewerAudit.text])
        for (const quoted of ['1957', 'ZHUO', 'HANQIAO', '卓汉桥'])
          assert.ok(!text.includes(quoted), `a viewer never sees ${quoted}`);
    });

    test('a rejection on a hit reaches the partner as risk_policy, never sanctions_hit', async () => {
      const listed = await submit(true);
      await screenPending(bench.service);
      const hit = (await show(listed)).screening_hits[0]!;
      const rejected = await bench.as(
        bench.operators.reviewer,
        'POST',
        `/applications/${listed}/screening/${hit.id}/reject`,
        {},
      );
      assert.equal(rejected.status, 200, rejected.text);
      assert.equal((await show(listed)).screening_hits[0]!.state, 'confirmed');
      const seen = await query(listed);
      assert.equal((seen.body.data as { status: string }).status, 'REJECTED');
      assert.deepEqual((seen.body.data as { reason_codes: string[] }).reason_codes, ['risk_policy']);
      assert.ok(!seen.text.includes('sanctions'), seen.text);
      const events = await bench.service.ctx.store.db
        .selectFrom('events')
        .select('payload')
        .where('busi_water_no', '=', listed)
        .execute();
      assert.ok(events.length >= 2);
      for (const event of events) assert.ok(!event.payload.includes('sanctions'), event.payload);
      // The operator's history keeps the true code.
      const history = (await bench.as(bench.operators.viewer, 'GET', `/applications/${listed}`)).body
        .data as {
        history: { reason_codes: string[] }[];
      };
      assert.deepEqual(history.history.at(-1)!.reason_codes, ['sanctions_hit']);
    });
  });
}

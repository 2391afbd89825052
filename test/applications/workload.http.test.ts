import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ADMIN, Applications, call, newOperator } from '../helpers/operators.ts';
import { sample, scrape } from '../helpers/metrics.ts';
import { expectedWorkload, makeKnownWorkload } from '../helpers/knownWorkload.ts';
import { newPartner, startService, type TestService } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

const HOUR = 3_600_000;

/** GET /admin/v1/workload as a viewer. */
async function readWorkload(service: TestService) {
  const viewer = await newOperator(service, 'viewer');
  const reply = await call(service, 'GET', `${ADMIN}/workload`, { token: viewer.token });
  assert.equal(reply.status, 200, reply.text);
  return reply.body.data as {
    at: number;
    statuses: {
      status: string;
      count: number;
      oldest_seconds: number | null;
      median_seconds: number | null;
      past_sla: number;
    }[];
    backlog: { hour: number; arrivals: number; decisions: number }[];
  };
}

/**
 * The review workload with known data, on every store: counts, the oldest and the median time in
 * each status, what is past its SLA, the hourly backlog of arrivals and decisions, and the
 * oldest-waiting gauge of the metrics.
 */
for (const storeName of storeNames()) {
  describe(`review workload on ${storeName}`, () => {
    let service: TestService;
    before(async () => {
      service = await startService(storeName, { REVIEW_SLA_SECONDS: 'SUBMITTED:14400,IN_REVIEW:3600' });
    });
    after(() => service.close());

    test('per status count, oldest, median and past SLA; arrivals and decisions per hour', async () => {
      const applications = new Applications(service);
      const appId = (await newPartner(service)).appId;
      const now = Date.now();
      const db = service.ctx.store.db;
      const at = async (serial: string, enteredAgo: number, createdAgo = enteredAgo) =>
        db
          .updateTable('applications')
          .set({ updated_at: now - enteredAgo, created_at: now - createdAgo })
          .where('busi_water_no', '=', serial)
          .execute();
      for (const hours of [1, 2, 5]) await at(await applications.submit(appId), hours * HOUR);
      for (const minutes of [10, 30])
        await at(await applications.inState(appId, 'IN_REVIEW'), minutes * 60_000, 3 * HOUR);
      const approved = await applications.inState(appId, 'APPROVED');
      await at(approved, 2 * HOUR, 3 * HOUR);
      await db
        .updateTable('events')
        .set({ created_at: now - 2 * HOUR })
        .where('busi_water_no', '=', approved)
        .where('to_status', '=', 'APPROVED')
        .execute();

      const data = await readWorkload(service);
      const of = (status: string) => data.statuses.find((s) => s.status === status)!;
      const near = (actual: number | null, expected: number) =>
        assert.ok(actual !== null && Math.abs(actual - expected) <= 5, `${actual} vs ${expected}`);
      assert.equal(of('SUBMITTED').count, 3);
      near(of('SUBMITTED').oldest_seconds, 5 * 3600);
      near(of('SUBMITTED').median_seconds, 2 * 3600);
      assert.equal(of('SUBMITTED').past_sla, 1, 'five hours is past four');
      assert.equal(of('IN_REVIEW').count, 2);
      near(of('IN_REVIEW').median_seconds, 20 * 60);
      assert.equal(of('IN_REVIEW').past_sla, 0);
      assert.equal(of('APPROVED').count, 1);
      assert.equal(of('DELIVERED').median_seconds, null);

      assert.equal(data.backlog.length, 168);
      const hourOf = (ago: number) => Math.floor((now - ago) / HOUR) * 3600;
      const entry = (ago: number) => data.backlog.find((b) => b.hour === hourOf(ago))!;
      assert.equal(entry(3 * HOUR).arrivals, 3, 'the two in review and the approved one');
      assert.equal(entry(5 * HOUR).arrivals, 1);
      assert.equal(entry(2 * HOUR).decisions, 1);
      assert.equal(
        data.backlog.reduce((n, b) => n + b.arrivals, 0),
        6,
      );
      assert.equal(
        data.backlog.reduce((n, b) => n + b.decisions, 0),
        1,
      );

      const metrics = await scrape(`${service.baseUrl}/metrics`);
      const oldest = sample(metrics, 'cardapply_review_oldest_waiting_seconds', { status: 'SUBMITTED' });
      assert.ok(Math.abs(oldest - 5 * 3600) <= 10, String(oldest));
      assert.equal(sample(metrics, 'cardapply_review_oldest_waiting_seconds', { status: 'CARD_ISSUED' }), 0);
    });

    test('five submitted in one hour read 5 arrivals, three decided in the next read 3; every figure exact', async (t) => {
      // A service of its own: the clock and the history are this test's alone.
      const own = await startService(storeName, { REVIEW_SLA_SECONDS: 'SUBMITTED:14400,IN_REVIEW:3600' });
      t.after(() => own.close());
      const known = await makeKnownWorkload(own);
      const expected = expectedWorkload(known);
      const data = await readWorkload(own);
      assert.equal(data.at, known.readAt / 1000);
      for (const [status, figures] of Object.entries(expected.statuses)) {
        const { count, oldest_seconds, median_seconds, past_sla } = data.statuses.find(
          (s) => s.status === status,
        )!;
        assert.deepEqual({ count, oldest_seconds, median_seconds, past_sla }, figures, status);
      }
      assert.deepEqual(
        data.backlog.filter((b) => b.arrivals > 0 || b.decisions > 0),
        expected.backlog,
      );
    });
  });
}

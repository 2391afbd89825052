import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { keptCounts } from '../../src/applications/repositories/countRepository.ts';
import { ADMIN, Applications, call, move, newOperator } from '../helpers/operators.ts';
import { newPartner, startService, type TestService } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * The counts per app and status that the store keeps with every change (migration 0036) agree
 * with counting the applications themselves: after submissions stored together in one batch,
 * moves and a mass update, on every store. So do counts with a creation range, read from the
 * counts kept per day of creation (migration 0051) and the partial days at the range's ends.
 */
for (const storeName of storeNames()) {
  describe(`kept counts per status on ${storeName}`, () => {
    let service: TestService;
    before(async () => {
      service = await startService(storeName);
    });
    after(() => service.close());

    test('equal to counting the applications, through every kind of change', async () => {
      const db = service.ctx.store.db;
      const applications = new Applications(service, 500_000);
      const [first, second] = [(await newPartner(service)).appId, (await newPartner(service)).appId];
      // At once: on PostgreSQL they share batches (one statement, one trigger call for many rows).
      const serials = await Promise.all(
        Array.from({ length: 24 }, (_, i) => applications.submit(i % 3 === 0 ? second : first)),
      );
      for (const serial of serials.slice(0, 6)) await move(service, serial, 'IN_REVIEW', first);
      for (const serial of serials.slice(0, 2)) await move(service, serial, 'REJECTED', first);
      // An update that changes no status (a re-encryption, say) counts nothing.
      await db.updateTable('applications').set({ version: 7 }).execute();

      const actual = async (appId?: string) => {
        let query = db
          .selectFrom('applications')
          .select((eb) => ['status', eb.fn.countAll<number | string>().as('n')])
          .groupBy('status');
        if (appId !== undefined) query = query.where('app_id', '=', appId);
        return Object.fromEntries((await query.execute()).map((r) => [r.status, Number(r.n)]));
      };
      const kept = async (appId?: string) =>
        Object.fromEntries(
          (await keptCounts(db, appId)).filter((r) => Number(r.n) !== 0).map((r) => [r.status, Number(r.n)]),
        );
      assert.deepEqual(await kept(), await actual());
      assert.deepEqual(await kept(first), await actual(first));
      assert.deepEqual(await kept(second), await actual(second));
      assert.equal((await actual()).REJECTED, 2);

      const viewer = await newOperator(service, 'viewer');
      const reply = await call(service, 'GET', `${ADMIN}/applications/counts?app_id=${second}`, {
        token: viewer.token,
      });
      assert.equal(reply.status, 200, reply.text);
      const data = reply.body.data as { counts: Record<string, number>; total: number };
      assert.equal(data.total, 8);
      assert.deepEqual(
        Object.fromEntries(Object.entries(data.counts).filter(([, n]) => n !== 0)),
        await actual(second),
      );
    });

    test('with a creation range: equal to counting the range, whole days, partial days or none', async () => {
      const db = service.ctx.store.db;
      const applications = new Applications(service);
      const [first, second] = [(await newPartner(service)).appId, (await newPartner(service)).appId];
      const serials = await Promise.all(
        Array.from({ length: 30 }, (_, i) => applications.submit(i % 3 === 0 ? second : first)),
      );
      for (const serial of serials.slice(0, 8)) await move(service, serial, 'IN_REVIEW', first);
      for (const serial of serials.slice(0, 3)) await move(service, serial, 'REJECTED', first);
      // Spread over ten days, 7 h 50 min apart: a change of created_at moves the kept day too.
      const day = 86_400_000;
      const start = (Math.floor(Date.now() / day) - 10) * day;
      for (const [i, serial] of serials.entries()) {
        await db
          .updateTable('applications')
          .set({ created_at: start + i * 28_200_000 + 1234 })
          .where('busi_water_no', '=', serial)
          .execute();
      }
      const viewer = await newOperator(service, 'viewer');
      const seconds = (ms: number) => Math.floor(ms / 1000);
      const ranges: { from?: number; to?: number }[] = [
        { from: seconds(start), to: seconds(start + 10 * day) - 1 },
        { from: seconds(start + 3 * 3_600_000 + 17_000), to: seconds(start + 6 * day + 5 * 3_600_000) },
        { from: seconds(start + day + 3_600_000), to: seconds(start + day + 20 * 3_600_000) },
        { from: seconds(start + day + 20 * 3_600_000), to: seconds(start + 2 * day + 3_600_000) },
        { from: seconds(start + 4 * day + 1) },
        // Ending after now: open, today read from the kept days too.
        { from: seconds(start + 4 * day + 1), to: seconds(Date.now() + 2 * day) },
        { to: seconds(start + 3 * day + 7 * 3_600_000) },
        { from: seconds(start + 5 * day), to: seconds(start + 2 * day) },
      ];
      for (const range of ranges) {
        for (const appId of [undefined, first, second]) {
          let query = db
            .selectFrom('applications')
            .select((eb) => ['status', eb.fn.countAll<number | string>().as('n')])
            .groupBy('status');
          if (appId !== undefined) query = query.where('app_id', '=', appId);
          if (range.from !== undefined) query = query.where('created_at', '>=', range.from * 1000);
          if (range.to !== undefined) query = query.where('created_at', '<', (range.to + 1) * 1000);
          const expected = Object.fromEntries((await query.execute()).map((r) => [r.status, Number(r.n)]));
          const parameters = new URLSearchParams();
          if (appId !== undefined) parameters.set('app_id', appId);
          if (range.from !== undefined) parameters.set('created_from', String(range.from));
          if (range.to !== undefined) parameters.set('created_to', String(range.to));
          const reply = await call(service, 'GET', `${ADMIN}/applications/counts?${parameters}`, {
            token: viewer.token,
          });
          assert.equal(reply.status, 200, reply.text);
          const data = reply.body.data as { counts: Record<string, number>; total: number };
          const label = JSON.stringify({ ...range, appId });
          assert.deepEqual(
            Object.fromEntries(Object.entries(data.counts).filter(([, n]) => n !== 0)),
            expected,
            label,
          );
          assert.equal(
            data.total,
            Object.values(expected).reduce((a, b) => a + b, 0),
            label,
          );
        }
      }
    });
  });
}

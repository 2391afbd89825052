import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { keptCounts } from '../src/applications/countApplications.ts';
import { ADMIN, Applications, call, move, newOperator } from './helpers/operators.ts';
import { newCaller, startService, type TestService } from './helpers/service.ts';
import { storeNames } from './helpers/stores.ts';

/**
 * The counts per app and status that the store keeps with every change (migration 0036) agree
 * with counting the applications themselves: after submissions stored together in one batch,
 * moves and a mass update, on every store.
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
      const applications = new Applications(service);
      const [first, second] = [(await newCaller(service)).appId, (await newCaller(service)).appId];
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
  });
}

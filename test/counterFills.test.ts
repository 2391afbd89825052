import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { sql } from 'kysely';
import { SQLITE_FILE } from '../src/store/connect.ts';
import { fillPostgres, fillSqlite } from '../src/store/counterFills.ts';
import { openSqliteConnection } from '../src/store/sqliteConnection.ts';
import { Applications, move } from './helpers/operators.ts';
import { newCaller, startService, type TestService } from './helpers/service.ts';
import { storeNames } from './helpers/stores.ts';

/**
 * A counter filled in batches after its migration (counterFills.ts) ends equal to counting the
 * rows: the counts per day of creation (0051) emptied and set back to unfilled, changes made
 * meanwhile (which the triggers leave to the fill), then filled four rows at a time, on every store.
 */
for (const storeName of storeNames()) {
  describe(`counters filled in batches on ${storeName}`, () => {
    let service: TestService;
    before(async () => {
      service = await startService(storeName);
    });
    after(() => service.close());

    test('the counts per day of creation, filled four rows at a time, equal counting', async () => {
      const db = service.ctx.store.db;
      const applications = new Applications(service);
      const appId = (await newCaller(service)).appId;
      const serials: string[] = [];
      for (let i = 0; i < 14; i++) serials.push(await applications.submit(appId));
      // Days apart, two to a millisecond (a batch may end between rows of one key, or not).
      for (const [i, serial] of serials.entries()) {
        await db
          .updateTable('applications')
          .set({ created_at: Date.now() - Math.floor(i / 2) * 86_400_000 })
          .where('busi_water_no', '=', serial)
          .execute();
      }
      await db.deleteFrom('application_days').execute();
      await sql`UPDATE ${service.ctx.store.table('counter_fills')} SET below = 9223372036854775807`.execute(
        db,
      );
      for (const serial of serials.slice(0, 5)) await move(service, serial, 'IN_REVIEW', appId);
      for (const serial of serials.slice(0, 2)) await move(service, serial, 'REJECTED', appId);

      let batches: number;
      if (storeName === 'sqlite') {
        const database = openSqliteConnection(join(service.target.dataDir, SQLITE_FILE));
        try {
          batches = fillSqlite(database, 4);
          assert.equal(fillSqlite(database, 4), 0, 'a finished fill runs no batch');
        } finally {
          database.close();
        }
      } else {
        const pool = new pg.Pool({ connectionString: service.target.directUrl, max: 1 });
        const client = await pool.connect();
        try {
          batches = await fillPostgres(client, service.target.schema!, 4);
          assert.equal(
            await fillPostgres(client, service.target.schema!, 4),
            0,
            'a finished fill runs no batch',
          );
        } finally {
          client.release();
          await pool.end();
        }
      }
      assert.equal(batches, 4, '14 rows, four at a time');
      // After the fill, the triggers count: one more change.
      await move(service, serials[5]!, 'IN_REVIEW', appId);

      const kept = await db
        .selectFrom('application_days')
        .select((eb) => ['app_id', 'day', 'status', eb.fn.sum<number | string>('n').as('n')])
        .groupBy(['app_id', 'day', 'status'])
        .having((eb) => eb.fn.sum('n'), '<>', 0)
        .execute();
      const counted = await db
        .selectFrom('applications')
        .select((eb) => [
          'app_id',
          sql<number>`created_at / 86400000`.as('day'),
          'status',
          eb.fn.countAll<number | string>().as('n'),
        ])
        .groupBy(['app_id', sql`created_at / 86400000`, 'status'])
        .execute();
      const rows = (list: { app_id: string; day: number | string; status: string; n: number | string }[]) =>
        list.map((r) => `${r.app_id} ${Number(r.day)} ${r.status} ${Number(r.n)}`).sort();
      assert.deepEqual(rows(kept), rows(counted));
    });
  });
}

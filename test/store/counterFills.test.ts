import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { sql } from 'kysely';
import { SQLITE_FILE } from '../../src/store/connect.ts';
import { fillPostgres, fillSqlite } from '../../src/store/counterFills.ts';
import { migratePostgres, migrateSqlite } from '../../src/store/migrate.ts';
import { openSqliteConnection } from '../../src/store/sqliteConnection.ts';
import { Applications, move } from '../helpers/operators.ts';
import { newPartner, startService, type TestService } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * A counter filled in batches after its migration (counterFills.ts) ends equal to counting the
 * rows: the counts per day of creation (0051) emptied and set back to unfilled, changes made
 * meanwhile (which the triggers leave to the fill), then filled four rows at a time, on every store.
 * The counts per app and status (0036): a store set back to before 0036 with applications in it,
 * migrated; then filled again from where 0036 leaves them, three rows at a time, with inserts,
 * status changes, moves across `below` and deletes between the batches, cut short by a crash and
 * resumed; a second run of the migrations changes nothing.
 */
const HIGHEST = '9223372036854775807';
const LOWEST = '-9223372036854775807';

/** A connection of its own to the service's store, as the migration runner has one. */
interface RawStore {
  run(text: string): Promise<void>;
  rows(text: string): Promise<Record<string, unknown>[]>;
  migrate(): Promise<number[]>;
  /**
   * The unfinished fills, `batch` rows at a time, with `between`'s statements run after each batch
   * through another connection; after batch `crashAfter` and its writes, the fill dies (throws).
   */
  fill(
    batch: number,
    between: (name: string, below: string) => string[],
    crashAfter?: number,
  ): Promise<number>;
  close(): Promise<void>;
}

class Crash extends Error {}

async function rawStore(service: TestService): Promise<RawStore> {
  if (service.target.name === 'sqlite') {
    const file = join(service.target.dataDir, SQLITE_FILE);
    const database = openSqliteConnection(file);
    const writer = openSqliteConnection(file);
    return {
      run: async (text) => writer.exec(text),
      rows: async (text) => writer.prepare(text).all() as Record<string, unknown>[],
      migrate: async () => migrateSqlite(database),
      fill: async (batch, between, crashAfter) => {
        let batches = 0;
        return fillSqlite(database, batch, (name, below) => {
          for (const text of between(name, below)) writer.exec(text);
          if (++batches === crashAfter) throw new Crash();
        });
      },
      close: async () => {
        writer.close();
        database.close();
      },
    };
  }
  const schema = service.target.schema!;
  const pool = new pg.Pool({ connectionString: service.target.directUrl, max: 3 });
  const filler = await pool.connect();
  const writer = await pool.connect();
  await writer.query(`SET search_path TO "${schema}"`);
  return {
    run: async (text) => void (await writer.query(text)),
    rows: async (text) => (await writer.query<Record<string, unknown>>(text)).rows,
    migrate: () => migratePostgres(pool, schema),
    fill: (batch, between, crashAfter) => {
      let batches = 0;
      return fillPostgres(filler, schema, batch, async (name, below) => {
        for (const text of between(name, below)) await writer.query(text);
        if (++batches === crashAfter) throw new Crash();
      });
    },
    close: async () => {
      await writer.query('RESET search_path');
      writer.release();
      filler.release();
      await pool.end();
    },
  };
}

/** What 0036 made: its triggers, function and table, its fill and its record. */
const before0036 = (dialect: 'sqlite' | 'postgres') => `
  ${['insert', 'update', 'delete']
    .map((op) => `DROP TRIGGER application_counts_${op}${dialect === 'postgres' ? ' ON applications' : ''};`)
    .join(' ')}
  ${dialect === 'postgres' ? 'DROP FUNCTION application_counts_add;' : ''}
  DROP TABLE application_counts;
  DELETE FROM counter_fills WHERE name = 'application_counts';
  DELETE FROM schema_migrations WHERE version = 36;`;

/** An application written by another process: `k` makes it unique. */
const insertApplication = (k: string, appId: string, createdAt: number) =>
  `INSERT INTO applications (busi_water_no, app_id, status, cert_type, cert_hash, active_cert_hash,
     card_no_hash, card_no_masked, payload_enc, key_id, version, created_at, updated_at, cert_hash_version)
   VALUES ('FILL${k}', '${appId}', 'SUBMITTED', '00', 'fh${k}', 'fh${k}', 'fc${k}', '622202******1234',
     'fill-writer', 't1', 1, ${createdAt}, ${createdAt}, 2)`;

const COUNTS_KEPT = `SELECT app_id, status, sum(n) AS n FROM application_counts GROUP BY 1, 2 HAVING sum(n) <> 0`;
const COUNTS_COUNTED = `SELECT app_id, status, count(*) AS n FROM applications GROUP BY 1, 2`;
const lines = (rows: Record<string, unknown>[]) =>
  rows.map((row) => Object.values(row).map(String).join(' ')).sort();

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
      const appId = (await newPartner(service)).appId;
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
      await sql`UPDATE ${service.ctx.store.table('counter_fills')} SET below = 9223372036854775807
        WHERE name = 'application_days'`.execute(db);
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

    test('the counts per app and status of applications stored before 0036, filled between writes, equal counting', async () => {
      const raw = await rawStore(service);
      try {
        const applications = new Applications(service, 100);
        const appIds = [(await newPartner(service)).appId, (await newPartner(service)).appId];
        const serials: string[] = [];
        for (let i = 0; i < 10; i++) serials.push(await applications.submit(appIds[i % 2]!));
        for (const [i, serial] of serials.slice(0, 4).entries())
          await move(service, serial, 'IN_REVIEW', appIds[i % 2]!);
        // Hours apart, newest first, two to a millisecond (a batch may end between rows of one key).
        const now = Date.now();
        for (const [i, serial] of serials.entries()) {
          const createdAt = now - Math.floor(i / 2) * 3_600_000;
          await raw.run(
            `UPDATE applications SET created_at = ${createdAt} WHERE busi_water_no = '${serial}'`,
          );
        }

        // Set back to before 0036, changed meanwhile (no trigger counts), then migrated.
        await raw.run(before0036(storeName));
        await raw.run(`UPDATE applications SET status = 'APPROVED' WHERE busi_water_no = '${serials[0]}'`);
        await raw.run(insertApplication('0', appIds[1]!, now - 30 * 86_400_000));
        assert.deepEqual(await raw.migrate(), [36], 'only 0036 to apply');
        assert.deepEqual(lines(await raw.rows(COUNTS_KEPT)), lines(await raw.rows(COUNTS_COUNTED)));

        // As 0036 leaves them (empty, nothing filled), filled three rows at a time, with writes by
        // another connection after each batch.
        await raw.run('DELETE FROM application_counts');
        await raw.run(`UPDATE counter_fills SET below = ${HIGHEST} WHERE name = 'application_counts'`);
        let batch = 0;
        const between = (name: string): string[] => {
          assert.equal(name, 'application_counts', 'the only unfinished fill');
          batch += 1;
          const writes = [
            // Created now, above `below`: the triggers count it.
            insertApplication(String(batch), appIds[batch % 2]!, Date.now()),
            // One statement, most often one row already filled (newest first) and one not yet.
            `UPDATE applications SET status = CASE status WHEN 'IN_REVIEW' THEN 'APPROVED' ELSE 'IN_REVIEW' END
              WHERE busi_water_no IN ('${serials[batch - 1]}', '${serials[10 - batch]}')`,
          ];
          // Across `below`: the oldest up to now (the triggers count it), the newest down to
          // before any other (left to the fill), and a row the triggers counted deleted.
          if (batch === 1)
            writes.push(
              `UPDATE applications SET created_at = ${Date.now()} WHERE busi_water_no = '${serials[9]}'`,
            );
          if (batch === 2)
            writes.push(
              `UPDATE applications SET created_at = ${now - 40 * 86_400_000} WHERE busi_water_no = '${serials[0]}'`,
            );
          if (batch === 3) writes.push(`DELETE FROM applications WHERE busi_water_no = 'FILL1'`);
          return writes;
        };
        await assert.rejects(raw.fill(3, between, 2), Crash);
        const [cut] = await raw.rows(
          `SELECT CAST(below AS TEXT) AS below FROM counter_fills WHERE name = 'application_counts'`,
        );
        assert.ok(cut!['below'] !== HIGHEST && cut!['below'] !== LOWEST, 'cut short after two batches');
        await raw.run(`UPDATE applications SET status = 'REJECTED' WHERE busi_water_no = '${serials[5]}'`);
        const resumed = await raw.fill(3, between);
        assert.ok(resumed >= 3, `the rest of the rows, three at a time (${resumed} batches)`);
        assert.deepEqual(lines(await raw.rows(COUNTS_KEPT)), lines(await raw.rows(COUNTS_COUNTED)));

        // After the fill, the triggers count every change.
        await raw.run(`UPDATE applications SET status = 'CANCELLED' WHERE busi_water_no = '${serials[9]}'`);
        await raw.run(insertApplication('last', appIds[0]!, now - 50 * 86_400_000));
        const counted = lines(await raw.rows(COUNTS_COUNTED));
        assert.deepEqual(lines(await raw.rows(COUNTS_KEPT)), counted);

        // Again: nothing applied, nothing filled, nothing changed.
        const stored = async () => [
          ...lines(await raw.rows('SELECT * FROM application_counts')),
          ...lines(await raw.rows('SELECT name, CAST(below AS TEXT) FROM counter_fills')),
        ];
        const kept = await stored();
        assert.deepEqual(await raw.migrate(), []);
        assert.equal(await raw.fill(3, between), 0, 'a finished fill runs no batch');
        assert.deepEqual(await stored(), kept);
      } finally {
        await raw.close();
      }
    });
  });
}

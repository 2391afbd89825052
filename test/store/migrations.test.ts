import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, test } from 'node:test';
import pg from 'pg';
import { loadConfig } from '../../src/config.ts';
import { findApplicationEvents, listHistory } from '../../src/events/eventRepository.ts';
import { isConcurrent, withoutConcurrently } from '../../src/store/concurrentIndexes.ts';
import { openStore, SQLITE_FILE } from '../../src/store/connect.ts';
import type { MigrationStatus } from '../../src/store/migrate.ts';
import { loadMigrations } from '../../src/store/migrate.ts';
import { cardapplyJson } from '../helpers/cli.ts';
import { createStoreTarget, storeNames, type StoreTarget } from '../helpers/stores.ts';

/**
 * Forward-only migrations under a lock: processes started at once on a fresh store apply each
 * migration exactly once between them, and `cardapply migrate --status` shows them applied.
 */
const SCRIPT = fileURLToPath(new URL('../helpers/migrateOnce.ts', import.meta.url));
const exec = promisify(execFile);
const PROCESSES = 4;

/**
 * Runs SQL on the target as the service's migrations would, without the service: the migrations
 * before `version` (recorded, as the runner records them), then any fixture.
 */
async function earlierStore(target: StoreTarget, version: number) {
  const earlier = loadMigrations(target.name).filter((m) => m.version < version);
  const record = `CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL);`;
  const recorded = (m: { version: number; name: string }) =>
    `INSERT INTO schema_migrations (version, name, applied_at) VALUES (${m.version}, '${m.name}', 0);`;
  if (target.name === 'sqlite') {
    const database = new DatabaseSync(join(target.dataDir, SQLITE_FILE));
    database.exec(record);
    for (const m of earlier) database.exec(`BEGIN; ${m.sql}; ${recorded(m)} COMMIT;`);
    return {
      run: async (sql: string) => void database.exec(sql),
      close: async () => database.close(),
    };
  }
  const pool = new pg.Pool({ connectionString: target.directUrl, max: 1 });
  const schema = target.schema!;
  const run = async (sql: string) => {
    const client = await pool.connect();
    try {
      await client.query(
        `BEGIN; CREATE SCHEMA IF NOT EXISTS "${schema}"; SET LOCAL search_path TO "${schema}"`,
      );
      await client.query(sql);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  };
  await run(record);
  for (const m of earlier)
    await run(`${isConcurrent(m.sql) ? withoutConcurrently(m.sql) : m.sql}; ${recorded(m)}`);
  return { run, close: () => pool.end() };
}

/**
 * Two applications of an earlier version: OLD1 with five changes (an amendment among them) and a
 * document's event between them; OLD2 with a history row that has no event (none is known in a
 * real store; a repair by hand could leave one).
 */
const EARLIER_HISTORY = `
  INSERT INTO apps (app_id, name, status, created_at, updated_at) VALUES ('app_old', 'old', 'active', 0, 0);
  INSERT INTO applications (busi_water_no, app_id, status, cert_type, cert_hash, active_cert_hash,
      card_no_hash, card_no_masked, payload_enc, key_id, version, created_at, updated_at)
    VALUES ('OLD1', 'app_old', 'APPROVED', '00', 'h1', NULL, 'c1', '622202******0001', 'x', 'k1', 5, 1000, 5000),
      ('OLD2', 'app_old', 'IN_REVIEW', '00', 'h2', 'h2', 'c2', '622202******0002', 'x', 'k1', 2, 1000, 2000);
  INSERT INTO application_transitions (busi_water_no, from_status, to_status, actor, reason, reason_codes, details, at)
    VALUES ('OLD1', NULL, 'SUBMITTED', 'caller:app_old', NULL, NULL, NULL, 1000),
      ('OLD2', NULL, 'SUBMITTED', 'caller:app_old', NULL, NULL, NULL, 1000),
      ('OLD1', 'SUBMITTED', 'IN_REVIEW', 'operator:alice', NULL, NULL, NULL, 2000),
      ('OLD2', 'SUBMITTED', 'IN_REVIEW', 'operator:alice', NULL, NULL, NULL, 2000),
      ('OLD1', 'IN_REVIEW', 'SUPPLEMENT_REQUIRED', 'operator:alice', 'blurred', NULL,
        '{"requested_fields":["id_card_img"]}', 3000),
      ('OLD1', 'SUPPLEMENT_REQUIRED', 'IN_REVIEW', 'caller:app_old', NULL, NULL,
        '{"amended_fields":["id_card_img"]}', 4000),
      ('OLD1', 'IN_REVIEW', 'APPROVED', 'operator:bob', 'fine', '["other"]', NULL, 5000);
  INSERT INTO events (event_id, app_id, busi_water_no, type, payload, created_at, seq, fanned_out_at)
    VALUES ('evt_1', 'app_old', 'OLD1', 'application.submitted', '{}', 1000, 1, 1000),
      ('evt_2', 'app_old', 'OLD1', 'application.in_review', '{}', 2000, 2, 2000),
      ('evt_3', 'app_old', 'OLD1', 'application.supplement_required', '{}', 3000, 3, 3000),
      ('evt_4', 'app_old', 'OLD1', 'application.documents_kept', '{}', 3500, 4, 3500),
      ('evt_5', 'app_old', 'OLD1', 'application.amended', '{}', 4000, 5, 4000),
      ('evt_6', 'app_old', 'OLD1', 'application.approved', '{}', 5000, 6, NULL),
      ('evt_7', 'app_old', 'OLD2', 'application.submitted', '{}', 1000, 1, 1000);`;

for (const storeName of storeNames()) {
  describe(`migrations on ${storeName}`, () => {
    test(`${PROCESSES} processes migrating a fresh store at once apply each migration once`, async () => {
      const target = createStoreTarget(storeName);
      try {
        const env = { ...process.env, ...target.env };
        const outputs = await Promise.all(
          Array.from({ length: PROCESSES }, () => exec(process.execPath, [SCRIPT], { env })),
        );
        const applied = outputs.flatMap(({ stdout }) => JSON.parse(stdout) as number[]).sort((a, b) => a - b);
        const versions = loadMigrations(storeName).map((m) => m.version);
        assert.deepEqual(applied, versions, 'each version applied by exactly one process');

        const status = await cardapplyJson<MigrationStatus[]>(target.env, 'migrate', '--status');
        assert.deepEqual(
          status.map((m) => m.version),
          versions,
        );
        assert.ok(status.every((m) => m.appliedAt !== null));
        // Again: nothing left to apply.
        const again = await exec(process.execPath, [SCRIPT], { env });
        assert.deepEqual(JSON.parse(again.stdout), []);
      } finally {
        await target.cleanup();
      }
    });

    test('a store with history from before 0066 keeps its history and events, in order', async () => {
      const target = createStoreTarget(storeName);
      const earlier = await earlierStore(target, 66);
      const store = await openStore(loadConfig(target.env));
      try {
        await earlier.run(EARLIER_HISTORY);
        await store.migrate();
        const history = async (serial: string) =>
          (await listHistory(store.db, serial)).map((h) => [h.from_status, h.to_status, h.actor, h.at]);
        const events = async (serial: string) =>
          (await findApplicationEvents(store.db, serial)).map((e) => [e.event_id, e.type, e.seq]);

        assert.deepEqual(await history('OLD1'), [
          [null, 'SUBMITTED', 'caller:app_old', 1000],
          ['SUBMITTED', 'IN_REVIEW', 'operator:alice', 2000],
          ['IN_REVIEW', 'SUPPLEMENT_REQUIRED', 'operator:alice', 3000],
          ['SUPPLEMENT_REQUIRED', 'IN_REVIEW', 'caller:app_old', 4000],
          ['IN_REVIEW', 'APPROVED', 'operator:bob', 5000],
        ]);
        const [, , supplement, amended, approved] = await listHistory(store.db, 'OLD1');
        assert.deepEqual(
          [supplement!.reason, supplement!.details, amended!.details],
          ['blurred', '{"requested_fields":["id_card_img"]}', '{"amended_fields":["id_card_img"]}'],
        );
        assert.deepEqual([approved!.reason, approved!.reason_codes], ['fine', '["other"]']);
        assert.deepEqual(await events('OLD1'), [
          ['evt_1', 'application.submitted', 1],
          ['evt_2', 'application.in_review', 2],
          ['evt_3', 'application.supplement_required', 3],
          ['evt_4', 'application.documents_kept', 4],
          ['evt_5', 'application.amended', 5],
          ['evt_6', 'application.approved', 6],
        ]);

        // The history row without an event: an event after the others, with nothing to deliver.
        assert.deepEqual(await history('OLD2'), [
          [null, 'SUBMITTED', 'caller:app_old', 1000],
          ['SUBMITTED', 'IN_REVIEW', 'operator:alice', 2000],
        ]);
        const old2 = await findApplicationEvents(store.db, 'OLD2');
        assert.deepEqual(
          old2.map((e) => [e.type, e.seq, e.created_at]),
          [
            ['application.submitted', 1, 1000],
            ['application.in_review', 2, 2000],
          ],
        );
        assert.equal((JSON.parse(old2[1]!.payload) as { status: string }).status, 'IN_REVIEW');
        const pending = await store.db
          .selectFrom('events')
          .select('event_id')
          .where('fanned_out_at', 'is', null)
          .execute();
        assert.deepEqual(
          pending.map((e) => e.event_id),
          ['evt_6'],
          'only what was pending before',
        );

        // An instance of the earlier version, in a rolling deploy: its event takes its history row's.
        await earlier.run(`
          INSERT INTO application_transitions (busi_water_no, from_status, to_status, actor, reason, details, at)
            VALUES ('OLD2', 'IN_REVIEW', 'REJECTED', 'operator:bob', 'no', NULL, 6000);
          INSERT INTO events (event_id, app_id, busi_water_no, type, payload, created_at, seq, fanned_out_at)
            VALUES ('evt_8', 'app_old', 'OLD2', 'application.rejected', '{}', 6000, 3, NULL);`);
        assert.deepEqual((await history('OLD2')).at(-1), ['IN_REVIEW', 'REJECTED', 'operator:bob', 6000]);
        // Its submission: on PostgreSQL both rows in one statement, whose other rows are not seen.
        const transition = `INSERT INTO application_transitions (busi_water_no, from_status, to_status, actor, at)
          VALUES ('OLD3', NULL, 'SUBMITTED', 'caller:app_old', 7000)`;
        const event = `INSERT INTO events (event_id, app_id, busi_water_no, type, payload, created_at, seq, fanned_out_at)
          VALUES ('evt_9', 'app_old', 'OLD3', 'application.submitted', '{}', 7000, 1, NULL)`;
        await earlier.run(`
          INSERT INTO applications (busi_water_no, app_id, status, cert_type, cert_hash, active_cert_hash,
              card_no_hash, card_no_masked, payload_enc, key_id, version, created_at, updated_at)
            VALUES ('OLD3', 'app_old', 'SUBMITTED', '00', 'h3', 'h3', 'c3', '622202******0003', 'x', 'k1', 1, 7000, 7000);
          ${storeName === 'postgres' ? `WITH t AS (${transition}) ${event}` : `${transition}; ${event}`};`);
        assert.deepEqual(await history('OLD3'), [[null, 'SUBMITTED', 'caller:app_old', 7000]]);

        // The fan-out's list (0069): what was pending before the migration, and the events the
        // earlier version wrote after it, by the trigger; nothing of what was fanned out already.
        const listed = await store.db
          .selectFrom('events_pending')
          .select(['event_id', 'created_at'])
          .orderBy('created_at')
          .execute();
        assert.deepEqual(
          listed.map((e) => [e.event_id, Number(e.created_at)]),
          [
            ['evt_6', 5000],
            ['evt_8', 6000],
            ['evt_9', 7000],
          ],
        );
      } finally {
        await store.close();
        await earlier.close();
        await target.cleanup();
      }
    });
  });
}

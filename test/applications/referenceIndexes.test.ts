import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import { submitApplication } from '../../src/applications/commands/submitApplication.ts';
import { findSerialByExternalId } from '../../src/record/applicationRepository.ts';
import type { ServiceContext } from '../../src/context.ts';
import type { Database } from '../../src/store/tables.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { newAppId } from '../helpers/events.ts';
import { storeNames } from '../helpers/stores.ts';
import { suiteContext } from '../helpers/suiteContext.ts';
import { captureStatements } from '../size/queryPlans.ts';

/**
 * The partner's reference (external_id) is optional. The two indexes that find it, the unique one of
 * the active references and the one of every reference in creation order, hold only the
 * applications that carry one (migration 0068): a submission without a reference writes no entry
 * in them. The lookups by reference still go through them.
 */
const REFERENCE_INDEXES = ['applications_active_external_id_set', 'applications_external_id_created'];

/** How many entries each index of `applications` holds, counted by the store itself. */
async function indexEntries(ctx: ServiceContext, storeName: 'sqlite' | 'postgres') {
  const { db } = ctx.store;
  if (storeName === 'sqlite') {
    // ANALYZE counts every entry of every index: the first figure of its stat.
    await sql`analyze`.execute(db);
    const rows = await sql<{ idx: string; stat: string }>`
      select idx, stat from sqlite_stat1 where tbl = 'applications'`.execute(db);
    return new Map(rows.rows.map((row) => [row.idx, Number(row.stat.split(' ')[0])]));
  }
  // A rebuilt index's reltuples is the number of entries it was built with.
  await sql`reindex table ${ctx.store.table('applications')}`.execute(db);
  const rows = await sql<{ relname: string; reltuples: number }>`
    select c.relname, c.reltuples
      from pg_index i join pg_class c on c.oid = i.indexrelid join pg_class t on t.oid = i.indrelid
      join pg_namespace n on n.oid = t.relnamespace
     where t.relname = 'applications' and n.nspname = ${ctx.config.databaseSchema}`.execute(db);
  return new Map(rows.rows.map((row) => [row.relname, Number(row.reltuples)]));
}

/** The indexes the store's plan for a statement goes through (PostgreSQL: a plan without seq scans). */
async function indexesOfPlan(
  db: Kysely<Database>,
  storeName: 'sqlite' | 'postgres',
  statement: { sql: string; parameters: readonly unknown[] },
): Promise<string> {
  if (storeName === 'sqlite') {
    const plan = await db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${statement.sql}`, [...statement.parameters]),
    );
    return plan.rows.map((row) => row.detail).join('\n');
  }
  // The test's tables are small enough to scan: ask for the plan a large table gets.
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const plan = await trx.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`explain ${statement.sql}`, [...statement.parameters]),
    );
    return plan.rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

for (const storeName of storeNames()) {
  describe(`reference indexes on ${storeName}`, () => {
    const context = suiteContext(storeName);

    test('hold the applications with a reference, and nothing else', async () => {
      const ctx = context();
      const appId = await newAppId(ctx);
      const partner = { appId, rateLimitPerSecond: null, rateLimitBurst: null, concurrencyLimit: null };
      for (let i = 0; i < 5; i++) await submitApplication(ctx, partner, uniqueApplicant(7_100 + i, appId));
      for (const [i, reference] of ['ref-a', 'ref-b'].entries()) {
        await submitApplication(ctx, partner, {
          ...uniqueApplicant(7_200 + i, appId),
          external_id: reference,
        });
      }

      const entries = await indexEntries(ctx, storeName);
      assert.equal(entries.get('applications_app_created'), 7, 'every application is in an ordinary index');
      for (const name of REFERENCE_INDEXES) assert.equal(entries.get(name), 2, name);
      // The indexes they replace are gone: the reference is not indexed twice.
      assert.equal(entries.has('applications_active_external_id_key'), false);
      assert.equal(entries.has('applications_external_created'), false);
    });

    test('the lookups by reference use them', async () => {
      const ctx = context();
      const appId = await newAppId(ctx);
      const partner = { appId, rateLimitPerSecond: null, rateLimitBurst: null, concurrencyLimit: null };
      const held = await submitApplication(ctx, partner, {
        ...uniqueApplicant(7_300, appId),
        external_id: 'ref-c',
      });

      const capture = captureStatements(ctx.store.db as never, storeName);
      try {
        assert.equal(await findSerialByExternalId(ctx.store.db, appId, 'ref-c'), held.busi_water_no);
        assert.equal(await findSerialByExternalId(ctx.store.db, appId, 'ref-none'), undefined);
        // On PostgreSQL the skipped insert looks its holder up; SQLite's writer thread probes it.
        await assert.rejects(
          submitApplication(ctx, partner, { ...uniqueApplicant(7_301, appId), external_id: 'ref-c' }),
          (error: { error?: unknown }) => error.error === 'externalIdTaken',
        );
      } finally {
        capture.stop();
      }
      const lookups = capture.captured.filter(
        ({ sql: text }) => /^\s*(select|with)\b/i.test(text) && /external_id"? = /i.test(text),
      );
      assert.ok(lookups.length >= 2, `lookups by reference captured: ${lookups.length}`);
      for (const lookup of lookups) {
        const plan = await indexesOfPlan(ctx.store.db, storeName, lookup);
        assert.ok(
          REFERENCE_INDEXES.some((name) => plan.includes(name)),
          `${lookup.sql.replace(/\s+/g, ' ')}\n${plan}`,
        );
      }
    });
  });
}

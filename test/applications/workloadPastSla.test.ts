import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Insertable } from 'kysely';
import { MEDIAN_WINDOW, pastSla } from '../../src/applications/views/workload.ts';
import { createApp } from '../../src/partners/credentials.ts';
import { loadConfig } from '../../src/config.ts';
import type { ServiceContext } from '../../src/context.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';
import type { ApplicationsTable } from '../../src/store/tables.ts';
import { captureStatements } from '../size/queryPlans.ts';
import { createStoreTarget, storeNames, type StoreTarget } from '../helpers/stores.ts';

/**
 * The workload's past-SLA count (applications/views/workload.ts, pastSla) on each store, exact
 * wherever the cutoff falls, and reading about the smaller side's rows: 20,000 applications in
 * review, entered one second apart, with the SLA's cutoff moved across them. Each count is checked against
 * a plain count of the rows; the statements it ran are captured and the rows they read bounded, so
 * that a version reading the larger side (the whole backlog past its SLA) fails here, not only at
 * size.
 */
const COUNT = 20_000;
const FIRST = 1_700_000_000_000;

for (const storeName of storeNames()) {
  describe(`past the SLA, counted from the smaller side (${storeName})`, () => {
    let target: StoreTarget;
    let ctx: ServiceContext;
    before(async () => {
      target = createStoreTarget(storeName);
      ctx = await openContext(loadConfig(target.env), createLogger({ logLevel: 'silent' }));
      const { app_id: appId } = await createApp(ctx.store.db, 'sla partner', FIRST);
      const rows: Insertable<ApplicationsTable>[] = [];
      for (let i = 0; i < COUNT; i++) {
        const serial = `SLA${String(i).padStart(29, '0')}`;
        rows.push({
          busi_water_no: serial,
          app_id: appId,
          status: 'IN_REVIEW',
          status_reason: null,
          cert_type: '01',
          cert_hash: `sla${i}`,
          active_cert_hash: `sla${i}`,
          card_no_hash: `slacard${i}`,
          card_no_masked: '539966******0000',
          payload_enc: 'not read',
          key_id: 'k',
          version: 2,
          created_at: FIRST + i * 1000 - 60_000,
          updated_at: FIRST + i * 1000,
        });
      }
      for (let at = 0; at < COUNT; at += 500)
        await ctx.store.db
          .insertInto('applications')
          .values(rows.slice(at, at + 500))
          .execute();
    });
    after(async () => {
      await ctx.store.close();
      await target.cleanup();
    });

    const plainCount = async (cutoff: number) =>
      Number(
        (
          await ctx.store.db
            .selectFrom('applications')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where('status', '=', 'IN_REVIEW')
            .where('updated_at', '<', cutoff)
            .executeTakeFirstOrThrow()
        ).n,
      );

    // Entered before the cutoff, of COUNT: each side small, and the balance.
    const cases = [0, 1, 999, 1_000, 1_001, 2_500, 10_000, 17_500, 18_000, 19_000, 19_999, 20_000];
    for (const pastCount of cases) {
      test(`${pastCount} of ${COUNT} past the SLA`, async () => {
        const cutoff = FIRST + pastCount * 1000;
        assert.equal(await plainCount(cutoff), pastCount, 'the fixture');
        const capture = captureStatements(ctx.store.db as never, storeName);
        let counted: number;
        try {
          counted = await pastSla(ctx.store, 'IN_REVIEW', COUNT, cutoff);
        } finally {
          capture.stop();
        }
        assert.equal(counted, pastCount);
        // The rows the counts read: each side's rows, up to the statement's cap (its LIMIT, the
        // last parameter). About the smaller side's, whichever it is: counting the past side
        // whenever more than MEDIAN_WINDOW were within read 19,001 rows for 18,000 past.
        const counts = capture.captured.filter((statement) => /count/i.test(statement.sql));
        const read = counts.reduce((sum, statement) => {
          const cap = Number(statement.parameters.at(-1));
          const rows = />=/.test(statement.sql) ? COUNT - pastCount : pastCount;
          return sum + Math.min(cap, rows);
        }, 0);
        const smaller = Math.min(pastCount, COUNT - pastCount);
        assert.ok(
          read <= 2 * (MEDIAN_WINDOW + 1) + 5 * smaller,
          `${read} rows read, the smaller side ${smaller}`,
        );
      });
    }
  });
}

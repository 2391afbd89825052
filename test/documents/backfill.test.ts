import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { submitApplication } from '../../src/applications/commands/submitApplication.ts';
import { transitionApplication } from '../../src/applications/commands/transitionApplication.ts';
import { createApp } from '../../src/partners/credentials.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { partnerOf } from '../helpers/operators.ts';
import { createStoreTarget, storeNames } from '../helpers/stores.ts';

/**
 * Migration 0041 on a store that held applications before documents were fetched: every active
 * application gets its documents.fetch job (so no view shows its images pending for ever), a final
 * one none, and running the migration again queues nothing twice.
 */
for (const storeName of storeNames()) {
  describe(`documents backfill (${storeName})`, () => {
    test('active applications of before the feature get their fetch job, once', async () => {
      const target = createStoreTarget(storeName);
      const ctx = await openContext(loadConfig(target.env), createLogger({ logLevel: 'silent' }));
      try {
        const app = await createApp(ctx.store.db, 'old partner', Date.now());
        // Submitted in process, with no relay running: as before 0040, no job exists for them.
        const active = (await submitApplication(ctx, partnerOf(app.app_id), uniqueApplicant(1, app.app_id)))
          .busi_water_no;
        const cancelled = (
          await submitApplication(ctx, partnerOf(app.app_id), uniqueApplicant(2, app.app_id))
        ).busi_water_no;
        await transitionApplication(ctx, {
          busiWaterNo: cancelled,
          to: 'CANCELLED',
          actor: { kind: 'caller', id: app.app_id },
          reason: null,
          reasonCodes: null,
          requestedFields: null,
          details: null,
          source: 'test',
        });
        const migrations =
          target.schema === undefined
            ? sql.table('schema_migrations')
            : sql.table(`${target.schema}.schema_migrations`);
        for (let run = 0; run < 2; run++) {
          await sql`delete from ${migrations} where version = 41`.execute(ctx.store.db);
          assert.deepEqual(await ctx.store.migrate(), [41]);
        }
        const jobs = await ctx.store.db
          .selectFrom('jobs')
          .select(['kind', 'busi_water_no', 'payload', 'status'])
          .where('kind', '=', 'documents.fetch')
          .execute();
        assert.deepEqual(
          jobs.map((j) => ({ ...j })),
          [
            {
              kind: 'documents.fetch',
              busi_water_no: active,
              payload:
                '{"fields":["id_card_img","id_card_back_img","passport_img","sign_applicant","pay_voucher"]}',
              status: 'pending',
            },
          ],
        );
      } finally {
        await ctx.store.close();
        await target.cleanup();
      }
    });
  });
}

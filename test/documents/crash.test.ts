import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { submitApplication } from '../../src/applications/commands/submitApplication.ts';
import { createApp } from '../../src/partners/credentials.ts';
import { loadConfig } from '../../src/config.ts';
import type { ServiceContext } from '../../src/context.ts';
import { readBlob } from '../../src/documents/documentStore.ts';
import { documentRows } from '../../src/documents/documentRepository.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { pngImage, sha256 } from '../helpers/documentImages.ts';
import { startDocumentServer } from '../helpers/documentServer.ts';
import { partnerOf } from '../helpers/operators.ts';
import { spawnService, type ServiceProcess } from '../helpers/process.ts';
import { createStoreTarget, storeNames } from '../helpers/stores.ts';

/**
 * A service process killed with SIGKILL while 50 applications' documents are being fetched (a slow
 * partner: every image trickles in): after a restart every document ends kept, none lost or stuck
 * pending, each the bytes served, and no chunk of an interrupted fetch is left behind. The jobs of
 * the dead process are claimed again when their lease runs out: one and a half times
 * DOCUMENT_TIMEOUT_MS, here 12 s (each image takes under a second to trickle in).
 */
const APPLICATIONS = 50;
const FIELDS = ['id_card_img', 'id_card_back_img', 'passport_img', 'sign_applicant', 'pay_voucher'] as const;

async function counts(ctx: ServiceContext) {
  const rows = await ctx.store.db.selectFrom('documents').select('state').execute();
  return {
    kept: rows.filter((r) => r.state === 'kept').length,
    pending: rows.filter((r) => r.state === 'pending').length,
    failed: rows.filter((r) => r.state === 'failed').length,
  };
}

async function until(what: string, ms: number, condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

for (const storeName of storeNames()) {
  describe(`documents through a crash (${storeName})`, () => {
    test('SIGKILL mid-fetch: after a restart every document is kept, none pending, none left half-written', async () => {
      const target = createStoreTarget(storeName);
      const ctx = await openContext(
        loadConfig({ ...target.env, DOCUMENT_ALLOW_PRIVATE: 'true' }),
        createLogger({ logLevel: 'silent' }),
      );
      const images = await startDocumentServer();
      const env = {
        ...target.env,
        DOCUMENT_ALLOW_PRIVATE: 'true',
        DOCUMENT_FETCH_HOURS: '1',
        DOCUMENT_CONNECT_TIMEOUT_MS: '2000',
        DOCUMENT_TIMEOUT_MS: '8000',
        WEBHOOK_POLL_INTERVAL_MS: '50',
      };
      let service: ServiceProcess | undefined;
      try {
        const app = await createApp(ctx.store.db, 'crash partner', Date.now());
        const served = new Map<string, Buffer>();
        const serials: string[] = [];
        for (let n = 0; n < APPLICATIONS; n++) {
          const urls: Record<string, string> = {};
          for (const field of FIELDS) {
            const body = pngImage(320, 300);
            const path = `/${n}/${field}.png`;
            urls[field] = images.route(path, { kind: 'bytes', body, paceMs: 40 });
            served.set(`${n}/${field}`, body);
          }
          const applicant = { ...uniqueApplicant(n, app.app_id), ...urls };
          serials.push((await submitApplication(ctx, partnerOf(app.app_id), applicant)).busi_water_no);
        }

        service = await spawnService(env);
        await until('some documents kept', 60_000, async () => (await counts(ctx)).kept >= 30);
        service.child.kill('SIGKILL');
        await service.exited;
        const atKill = await counts(ctx);
        // Killed mid-work: documents were left to fetch (rows appear as each job starts).
        assert.ok(
          atKill.kept < APPLICATIONS * FIELDS.length,
          `documents left to fetch at the kill: ${JSON.stringify(atKill)}`,
        );

        service = await spawnService(env);
        await until('every document settled', 240_000, async () => {
          const now = await counts(ctx);
          return now.kept + now.failed === APPLICATIONS * FIELDS.length;
        });
        assert.deepEqual(await counts(ctx), { kept: APPLICATIONS * FIELDS.length, pending: 0, failed: 0 });

        const rows = await documentRows(ctx.store.db, serials);
        for (const row of rows.filter((_, i) => i % 25 === 0)) {
          const n = serials.indexOf(row.busi_water_no);
          const parts: Buffer[] = [];
          for await (const part of readBlob(ctx, row)) parts.push(part);
          assert.equal(sha256(Buffer.concat(parts)), sha256(served.get(`${n}/${row.field}`)!));
        }
        // Each kept copy's blob and its preview's (preview.ts); nothing else.
        const blobs = new Set(rows.flatMap((r) => [r.blob_id, r.preview_blob_id]));
        const chunks = await ctx.store.db
          .selectFrom('document_chunks')
          .select('blob_id')
          .distinct()
          .execute();
        const stray = chunks.filter((c) => !blobs.has(c.blob_id));
        assert.deepEqual(stray, [], 'no chunk of an interrupted fetch is left');
      } finally {
        if (service !== undefined && service.child.exitCode === null) {
          service.child.kill('SIGTERM');
          await service.exited;
        }
        await images.close();
        await ctx.store.close();
        await target.cleanup();
      }
    });
  });
}

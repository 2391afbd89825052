import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { describe, test } from 'node:test';
import { submitApplication } from '../../src/applications/commands/submitApplication.ts';
import { createApp } from '../../src/partners/credentials.ts';
import { loadConfig } from '../../src/config.ts';
import type { ServiceContext } from '../../src/context.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { pngImage } from '../helpers/documentImages.ts';
import { encode } from '../helpers/encodedDocuments.ts';
import { startDocumentServer, type DocumentServer } from '../helpers/documentServer.ts';
import { partnerOf } from '../helpers/operators.ts';
import { spawnService } from '../helpers/process.ts';
import { createStoreTarget, storeNames } from '../helpers/stores.ts';

/**
 * Bounded memory: twenty 10 MiB documents fetched at once (four applications, five images each:
 * one runner's four jobs with their fields in parallel), each a real photo-sized JPEG (4000 × 3000,
 * noise, by ImageMagick, padded after its end to 10 MiB) of which the service draws a preview
 * (libvips decodes all twelve megapixels of each: documents/preview.ts), add less than 80 MB to the
 * service process's peak resident memory (issue 54), read from /proc while they stream and are
 * drawn, with the machine's other core busy. Not a timed test: it measures memory, whatever the
 * machine's speed.
 */
const TEN_MIB = 10 * 1024 * 1024;
const FIELDS = ['id_card_img', 'id_card_back_img', 'passport_img', 'sign_applicant', 'pay_voucher'] as const;
/**
 * The target, on both stores. On PostgreSQL the chunks go by COPY both ways, handed to the socket
 * as they are and read back each straight into a buffer of its own (store/postgresCopy.ts): an
 * INSERT's driver (pg) copied each into a message of its own, and a SELECT's came as a hex string
 * twice its size, all left to the garbage collector: 200 MiB written added 41 to 82 MB here, and
 * the originals read back for their previews took PostgreSQL to 90 MB at a load average of 12
 * (67 MB on a quiet machine); by COPY both ways, 44 MB (quiet), as SQLite's 55 to 59 MB.
 */
const LIMIT_MB = { sqlite: 80, postgres: 80 } as const;

/** A 12-megapixel photo of noise (nothing compresses away), padded after its end to 10 MiB. */
function photo(): Buffer {
  const jpeg = encode('jpeg', 4000, 3000, 21, false, 95);
  if (jpeg.length > TEN_MIB) throw new Error(`the photo is ${jpeg.length} bytes, over 10 MiB`);
  return Buffer.concat([jpeg, Buffer.alloc(TEN_MIB - jpeg.length)]);
}

const rssMb = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB$/m);
  return Number(line?.[1] ?? 0) / 1024;
};

async function keptCount(ctx: ServiceContext): Promise<number> {
  return (await ctx.store.db.selectFrom('documents').select('state').where('state', '=', 'kept').execute())
    .length;
}

async function submitAll(
  ctx: ServiceContext,
  appId: string,
  images: DocumentServer,
  from: number,
  big: Buffer | null,
) {
  for (let n = from; n < from + 4; n++) {
    const urls = Object.fromEntries(
      FIELDS.map((field) => [
        field,
        images.route(
          `/${n}/${field}`,
          big !== null ? { kind: 'bytes', body: big } : { kind: 'bytes', body: pngImage(400, 300) },
        ),
      ]),
    );
    await submitApplication(ctx, partnerOf(appId), { ...uniqueApplicant(n, appId), ...urls });
  }
}

/**
 * One measurement in a fresh service process: how many MB the twenty fetches add to its peak RSS.
 * Each run starts from a new process, so an earlier run's grown heap cannot hide a later one's.
 */
async function measureOnce(storeName: 'sqlite' | 'postgres'): Promise<number> {
  const target = createStoreTarget(storeName);
  const ctx = await openContext(
    loadConfig({ ...target.env, DOCUMENT_ALLOW_PRIVATE: 'true' }),
    createLogger({ logLevel: 'silent' }),
  );
  const big = photo();
  const images = await startDocumentServer();
  const service = await spawnService({
    ...target.env,
    DOCUMENT_ALLOW_PRIVATE: 'true',
    WEBHOOK_POLL_INTERVAL_MS: '20',
  });
  const pid = service.child.pid!;
  try {
    const app = await createApp(ctx.store.db, 'memory partner', Date.now());
    // Warm up: the document code loaded and run once, on small images.
    await submitAll(ctx, app.app_id, images, 0, null);
    while ((await keptCount(ctx)) < 20) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 1000));
    const samples = [rssMb(pid)];
    for (let i = 0; i < 9; i++) {
      await new Promise((r) => setTimeout(r, 100));
      samples.push(rssMb(pid));
    }
    const before = Math.max(...samples);

    await submitAll(ctx, app.app_id, images, 4, big);
    let peak = before;
    while ((await keptCount(ctx)) < 40) {
      peak = Math.max(peak, rssMb(pid));
      await new Promise((r) => setTimeout(r, 10));
    }
    const drawn = await ctx.store.db
      .selectFrom('documents')
      .select('preview_byte_size')
      .where('preview_blob_id', 'is not', null)
      .execute();
    assert.equal(drawn.length, 40, 'every kept image has its preview');
    const added = peak - before;
    console.log(
      `${storeName}: RSS before ${before.toFixed(1)} MB, peak ${peak.toFixed(1)} MB, added ${added.toFixed(1)} MB for 20 × 10 MiB`,
    );
    return added;
  } finally {
    service.child.kill('SIGTERM');
    await service.exited;
    await images.close();
    await ctx.store.close();
    await target.cleanup();
  }
}

/**
 * One measurement per store, in a fresh process, asserted against the target. The machine is kept
 * loaded while it runs (a busy process on every core but one, as beside the rest of the suite),
 * since that is when a garbage collector falls behind and dead buffers pile up: the fetch path
 * frees its buffers itself (documentStore.ts) instead of leaving them to the collector.
 */
for (const storeName of storeNames()) {
  describe(`memory of document fetches (${storeName})`, () => {
    test(`twenty concurrent 10 MiB fetches add less than ${LIMIT_MB[storeName]} MB, on a loaded machine`, async () => {
      const load = loadOtherCores();
      try {
        const added = await measureOnce(storeName);
        const limit = LIMIT_MB[storeName];
        assert.ok(added < limit, `peak RSS grew by ${added.toFixed(1)} MB (limit ${limit} MB)`);
      } finally {
        for (const child of load) child.kill('SIGKILL');
      }
    });
  });
}

/** A busy loop on every core but one (at least one), for as long as the measurement runs. */
function loadOtherCores(): ChildProcess[] {
  const count = Math.max(1, availableParallelism() - 1);
  return Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'for (;;);'], { stdio: 'ignore' }),
  );
}

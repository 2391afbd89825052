import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';
import type { ServiceContext } from '../../src/context.ts';
import { CHUNK_BYTES, readBlob, writeBlob } from '../../src/documents/documentStore.ts';
import { HEAD_BYTES } from '../../src/documents/sniff.ts';
import { sha256 } from '../helpers/documentImages.ts';
import { encode } from '../helpers/encodedDocuments.ts';
import { createStoreTarget, storeNames, type StoreTarget } from '../helpers/stores.ts';

/**
 * The chunked write of documentStore.ts, byte for byte, whatever the pieces the body comes in: a
 * first piece longer than the head the type is read from (HEAD_BYTES, 512 KiB) is the case an
 * earlier attempt broke (libvips hands its whole output over at once; a fast server's first read
 * can be as long), its bytes past the head never reaching the structure walk. Files by ImageMagick
 * of over 512 KiB and over 1 MiB, on each store, in one piece, in a few bytes then the rest, and in
 * pieces that straddle chunk boundaries.
 */
for (const storeName of storeNames()) {
  describe(`the document store's chunked write (${storeName})`, () => {
    let target: StoreTarget;
    let ctx: ServiceContext;
    before(async () => {
      target = createStoreTarget(storeName);
      ctx = await openContext(loadConfig(target.env), createLogger({ logLevel: 'silent' }));
    });
    after(async () => {
      await ctx.store.close();
      await target.cleanup();
    });

    async function* pieces(bytes: Buffer, cuts: readonly number[]): AsyncGenerator<Buffer> {
      let at = 0;
      for (const cut of [...cuts, bytes.length]) {
        if (cut <= at) continue;
        // A copy of its own: the store may free what it was given.
        yield Buffer.from(bytes.subarray(at, Math.min(cut, bytes.length)));
        at = Math.min(cut, bytes.length);
      }
    }

    async function roundTrip(bytes: Buffer, cuts: readonly number[], n: number) {
      const place = { busiWaterNo: `S-blob-${storeName}-${n}`, field: 'id_card_img' };
      const blob = await writeBlob(ctx, place, pieces(bytes, cuts), { maxPixels: 50_000_000 });
      assert.equal(blob.byteSize, bytes.length);
      assert.equal(blob.sha256, sha256(bytes));
      assert.equal(blob.chunkCount, Math.ceil(bytes.length / CHUNK_BYTES));
      const parts: Buffer[] = [];
      const row = { busi_water_no: place.busiWaterNo, blob_id: blob.blobId, chunk_count: blob.chunkCount };
      for await (const part of readBlob(ctx, row)) parts.push(part);
      const back = Buffer.concat(parts);
      assert.equal(back.length, bytes.length);
      assert.ok(back.equals(bytes), 'read back byte for byte');
      return blob;
    }

    const files = {
      // Sizes checked below: over 512 KiB, and over 1 MiB.
      'JPEG over 512 KiB': encode('jpeg', 1000, 800, 3),
      'PNG over 1 MiB': encode('png', 1000, 800, 4),
      'JPEG over 1 MiB': encode('jpeg', 1600, 1200, 5),
    };

    let n = 0;
    for (const [name, bytes] of Object.entries(files)) {
      test(`${name}: in one piece, in a few bytes and the rest, across chunk edges`, async () => {
        assert.ok(bytes.length > HEAD_BYTES, `${name}: ${bytes.length} bytes`);
        if (name.includes('1 MiB')) assert.ok(bytes.length > 1024 * 1024, `${name}: ${bytes.length} bytes`);
        await roundTrip(bytes, [], n++);
        await roundTrip(bytes, [10], n++);
        await roundTrip(bytes, [20, HEAD_BYTES + 5], n++);
        await roundTrip(bytes, [CHUNK_BYTES - 1, CHUNK_BYTES * 9 + 7, HEAD_BYTES * 2 + 3], n++);
      });
    }
  });
}

import { Readable } from 'node:stream';
import type { Logger } from 'pino';
import sharp from 'sharp';
import type { ServiceContext } from '../context.ts';
import { describe } from '../errors/describe.ts';
import { readBlob, writeBlob, type WrittenBlob } from './documentStore.ts';

/**
 * The preview of a kept image: what the console shows inline instead of the partner's bytes. The
 * original is evidence and stays byte-exact (its SHA-256), but its bytes are the partner's: HTML
 * after a JPEG's end, a polyglot, EXIF with the place a photo was taken, a decoder's bug waiting in
 * a crafted header. The preview is made by libvips (sharp, a maintained library): decoded, turned
 * upright by its orientation tag, scaled down to at most PREVIEW_SIDE pixels on its longer side,
 * and encoded again as a baseline JPEG without any metadata (sharp keeps none unless asked), so no
 * byte of it is the partner's. It is stored encrypted beside the original (documentStore.ts).
 *
 * Bounded: PREVIEWS_AT_ONCE in a process, libvips on one thread each with its cache off, the
 * original streamed in from the store a few chunks at a time (libvips reads sequentially and a
 * JPEG is decoded already shrunk), and at most DOCUMENT_MAX_PIXELS (limitInputPixels) whatever a
 * header slipped past the sniffer says. A PDF, or an image libvips cannot decode (HEIC: the
 * prebuilt libvips has no HEVC decoder), has none; the console offers its download.
 */

export const PREVIEW_SIDE = 1600;
export const PREVIEW_TYPE = 'image/jpeg';
const PREVIEWS_AT_ONCE = 1;
const DRAWN = new Set(['image/jpeg', 'image/png', 'image/webp']);

sharp.concurrency(1);
sharp.cache(false);

let running = 0;
const waiting: (() => void)[] = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= PREVIEWS_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next !== undefined) next();
    else running--;
  }
}

/** The preview of `original` written as a blob of its own, or null (not an image it can draw). */
export async function makePreview(
  ctx: Pick<ServiceContext, 'store' | 'keyRing' | 'config'>,
  place: { busiWaterNo: string; field: string },
  original: WrittenBlob,
  log: Logger,
): Promise<WrittenBlob | null> {
  if (!DRAWN.has(original.sniffed.type)) return null;
  return inTurn(async () => {
    const row = {
      busi_water_no: place.busiWaterNo,
      blob_id: original.blobId,
      chunk_count: original.chunkCount,
    };
    const encoder = sharp({
      limitInputPixels: ctx.config.documents.maxPixels,
      sequentialRead: true,
      failOn: 'error',
    })
      .rotate()
      .resize(PREVIEW_SIDE, PREVIEW_SIDE, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 82, progressive: false });
    const input = Readable.from(readBlob(ctx, row));
    input.on('error', (error) => encoder.destroy(error));
    input.pipe(encoder);
    try {
      return await writeBlob(ctx, place, encoder, { maxPixels: ctx.config.documents.maxPixels });
    } catch (error) {
      input.destroy();
      encoder.destroy();
      log.warn({ busi_water_no: place.busiWaterNo, field: place.field, err: describe(error) }, 'no preview');
      return null;
    }
  });
}

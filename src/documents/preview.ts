import type { Logger } from 'pino';
import type sharpModule from 'sharp';
import type { ServiceContext } from '../context.ts';
import { releaseBuffer } from '../crypto/releaseBuffer.ts';
import { describe } from '../errors/describe.ts';
import type { DocumentType } from '../events/documentOutcomes.ts';
import { readBlob, writeBlob, type WrittenBlob } from './documentStore.ts';

/**
 * The preview of a kept image: what the console shows inline instead of the partner's bytes. The
 * original is the evidence and stays byte-exact (its SHA-256), but its bytes are the partner's:
 * HTML after a JPEG's end, a polyglot, EXIF with the place a photo was taken, a header crafted for
 * a browser decoder's bug. The preview is drawn by libvips (sharp, a maintained library): decoded
 * with at most DOCUMENT_MAX_PIXELS (`limitInputPixels`, whatever a header slipped past the sniffer
 * says), turned upright by its orientation tag, scaled down to at most PREVIEW_SIDE pixels on its
 * longer side, and encoded again as a baseline JPEG with no metadata (sharp writes none unless
 * asked: no EXIF, XMP, IPTC or ICC), so no byte of it is the partner's. It is stored encrypted
 * beside the original, as the original is (documentStore.ts).
 *
 * Off the event loop (libvips decodes and encodes on its own thread) and bounded: PREVIEWS_AT_ONCE
 * in a process, libvips on one thread with its operation cache off (sharp keeps recent images for
 * reuse otherwise), the original read from the store only once its turn has come. A PDF, or an
 * image libvips cannot decode (HEIC: the prebuilt libvips has no HEVC decoder), has no preview; the
 * console offers its download.
 */

export const PREVIEW_SIDE = 1600;
export const PREVIEW_TYPE = 'image/jpeg';
/** One at a time: a decoded photo is tens of MB; twenty at once would be hundreds. */
const PREVIEWS_AT_ONCE = 1;
const DRAWN: ReadonlySet<DocumentType> = new Set(['image/jpeg', 'image/png', 'image/webp']);

/** Whether the service draws a preview of a document of this type. */
export function hasPreview(type: string | null): boolean {
  return type !== null && DRAWN.has(type as DocumentType);
}

type Sharp = typeof sharpModule;
let loaded: Promise<Sharp> | undefined;

/** sharp, loaded on the first preview (the CLI and a process that keeps no image never load libvips). */
function loadSharp(): Promise<Sharp> {
  loaded ??= import('sharp').then(({ default: sharp }) => {
    sharp.concurrency(1);
    sharp.cache(false);
    return sharp;
  });
  return loaded;
}

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

/**
 * Draws the preview of `original` (just written, checked whole) and writes it as a blob of its own;
 * null for a type it does not draw or an image libvips cannot decode (logged, no byte of it).
 */
export async function makePreview(
  ctx: Pick<ServiceContext, 'store' | 'keyRing' | 'config'>,
  place: { busiWaterNo: string; field: string },
  original: WrittenBlob,
  log: Logger,
): Promise<WrittenBlob | null> {
  if (!DRAWN.has(original.sniffed.type)) return null;
  const sharp = await loadSharp();
  return inTurn(async () => {
    let input: Buffer | null = null;
    try {
      // libvips reads an input whole whatever it is given (sharp gathers a stream into one buffer):
      // one buffer of the known size, each decrypted chunk copied in and freed.
      input = Buffer.allocUnsafeSlow(original.byteSize);
      let at = 0;
      const row = {
        busi_water_no: place.busiWaterNo,
        blob_id: original.blobId,
        chunk_count: original.chunkCount,
      };
      for await (const part of readBlob(ctx, row)) {
        at += part.copy(input, at);
        releaseBuffer(part);
      }
      if (at !== original.byteSize) throw new Error('preview: the original is not its recorded size');
      const preview = await sharp(input, {
        limitInputPixels: ctx.config.documents.maxPixels,
        sequentialRead: true,
        failOn: 'error',
      })
        .autoOrient()
        .resize(PREVIEW_SIDE, PREVIEW_SIDE, { fit: 'inside', withoutEnlargement: true })
        .jpeg({ quality: 82, progressive: false })
        .toBuffer();
      return await writeBlob(
        ctx,
        place,
        (async function* () {
          yield preview;
        })(),
        { maxPixels: ctx.config.documents.maxPixels },
      );
    } catch (error) {
      log.warn({ busi_water_no: place.busiWaterNo, field: place.field, err: describe(error) }, 'no preview');
      return null;
    } finally {
      // The decrypted original, freed now (the preview, a few hundred KB, is libvips's own buffer).
      if (input !== null) releaseBuffer(input);
    }
  });
}

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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
 * a decoder's bug. The preview is drawn by libvips (sharp, a maintained library): decoded with at
 * most DOCUMENT_MAX_PIXELS (`limitInputPixels`, whatever a header slipped past the sniffer says),
 * turned upright by its orientation tag, scaled down to at most PREVIEW_SIDE pixels on its longer
 * side, and encoded again as a baseline JPEG with no metadata (sharp writes none unless asked: no
 * EXIF, XMP, IPTC or ICC), so no byte of it is the partner's. It is stored encrypted beside the
 * original, as the original is (documentStore.ts).
 *
 * Drawn in a process of its own (previewProcess.ts), one preview at a time, the original streamed
 * to it from the store chunk by chunk: the decoder meets hostile bytes where there is no key, no
 * connection and no environment to take, a crash or a loop (killed after PREVIEW_TIMEOUT_MS) costs
 * only the preview, and the memory a decode grows (libvips's buffers and glibc's per-thread arenas,
 * which it keeps: some 80 MB after a few 12-megapixel photos in the service's own process) goes
 * back to the system when the process exits. A PDF, or an image libvips cannot decode (HEIC: the
 * prebuilt libvips has no HEVC decoder), has no preview; the console offers its download.
 */

export const PREVIEW_SIDE = 1600;
export const PREVIEW_TYPE = 'image/jpeg';
/** One at a time: a decode of a phone's photo takes tens of MB; twenty at once would be hundreds. */
const PREVIEWS_AT_ONCE = 1;
/** A decode that has not ended by then is stuck (a crafted file): the process is killed. */
const PREVIEW_TIMEOUT_MS = 30_000;
/** A preview is a JPEG of at most 1600 × 1600 px: far less than this, whatever the image. */
const PREVIEW_MAX_BYTES = 8 * 1024 * 1024;
const DRAWN: ReadonlySet<string> = new Set<DocumentType>(['image/jpeg', 'image/png', 'image/webp']);
/** Up to this many pixels an image is drawn in the service's own process (drawHere). */
const IN_PROCESS_PIXELS = 2_000_000;
const PROCESS = fileURLToPath(new URL('./previewProcess.ts', import.meta.url));

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
  return inTurn(async () => {
    try {
      const row = {
        busi_water_no: place.busiWaterNo,
        blob_id: original.blobId,
        chunk_count: original.chunkCount,
      };
      const pixels = (original.sniffed.width ?? 0) * (original.sniffed.height ?? 0);
      const preview =
        pixels <= IN_PROCESS_PIXELS
          ? await drawHere(readBlob(ctx, row), original.byteSize, ctx.config.documents.maxPixels)
          : await draw(readBlob(ctx, row), ctx.config.documents.maxPixels);
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
    }
  });
}

type Sharp = typeof sharpModule;
let loaded: Promise<Sharp> | undefined;

/**
 * A small image (at most IN_PROCESS_PIXELS) drawn in the service's process: its decode is a few
 * MB, less than starting a process costs, and a process per preview made a burst of small images
 * (250 in the crash test) wait minutes on a loaded machine.
 */
async function drawHere(image: AsyncIterable<Buffer>, byteSize: number, maxPixels: number): Promise<Buffer> {
  loaded ??= import('sharp').then(({ default: sharp }) => {
    sharp.concurrency(1);
    sharp.cache(false);
    return sharp;
  });
  const sharp = await loaded;
  const input = Buffer.allocUnsafeSlow(byteSize);
  try {
    let at = 0;
    for await (const part of image) {
      at += part.copy(input, at);
      releaseBuffer(part);
    }
    return await sharp(input, { limitInputPixels: maxPixels, sequentialRead: true, failOn: 'error' })
      .autoOrient()
      .resize(PREVIEW_SIDE, PREVIEW_SIDE, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 82, progressive: false })
      .toBuffer();
  } finally {
    releaseBuffer(input);
  }
}

/** The preview drawn by previewProcess.ts from `image`'s pieces, each freed once the pipe has it. */
async function draw(image: AsyncIterable<Buffer>, maxPixels: number): Promise<Buffer> {
  const child = spawn(process.execPath, [PROCESS, String(maxPixels), String(PREVIEW_SIDE)], {
    env: {},
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), PREVIEW_TIMEOUT_MS);
  const output: Buffer[] = [];
  let outputBytes = 0;
  let said = '';
  child.stdout.on('data', (piece: Buffer) => {
    outputBytes += piece.length;
    if (outputBytes > PREVIEW_MAX_BYTES) child.kill('SIGKILL');
    else output.push(piece);
  });
  child.stderr.on('data', (piece: Buffer) => (said = (said + piece.toString('utf8')).slice(0, 200)));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  });
  // The child may end early (a file it refuses): its closed stdin is not this write's failure.
  child.stdin.on('error', () => undefined);
  try {
    for await (const part of image) {
      const flushed = new Promise<void>((resolve) => child.stdin.write(part, () => resolve()));
      await flushed;
      releaseBuffer(part);
      if (child.exitCode !== null || child.signalCode !== null) break;
    }
    child.stdin.end();
    const code = await exited;
    if (code !== 0) throw new Error(`preview: ${said.trim() || `the process ended (${code ?? 'killed'})`}`);
    return Buffer.concat(output);
  } finally {
    clearTimeout(timer);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

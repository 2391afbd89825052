import { createHash } from 'node:crypto';
import type { ServiceContext } from '../context.ts';
import { pooledRandomBytes } from '../crypto/randomPool.ts';
import { releaseBuffer } from '../crypto/releaseBuffer.ts';
import type { Database, DocumentsTable } from '../store/tables.ts';
import { chunksOf, deleteBlob, insertChunks } from './documentRepository.ts';
import { DocumentFailure } from './outcome.ts';
import { HEAD_BYTES, sniffDocument, sniffType, type Sniffed } from './sniff.ts';
import { structureWalk, type StructureWalk } from './structure.ts';

/**
 * The kept copies: a document's bytes are hashed, encrypted and written chunk by chunk as they
 * arrive, and read back the same way, so memory stays bounded whatever the size (a chunk, a batch
 * of them, and the head the type is read from). Every buffer on the way is freed as soon as it has
 * been passed on (the socket's reads, the body's pieces, the cipher's output, the sealed chunks once
 * stored): twenty documents at once leave no trail of dead buffers for the garbage collector, which
 * on a loaded machine runs late and let them pile up to some 60 MB. Each chunk is sealed with AES-256-GCM under the
 * key ring's current key, its aad naming the application and its place in the blob, so that a
 * chunk moved or reordered fails to decrypt. A blob belongs to a documents row only once the row
 * names it (in the outcome's transaction); a blob left by a crash is removed by the next attempt.
 * The rows and chunks themselves are written and read by documentRepository.ts.
 */

export const CHUNK_BYTES = 64 * 1024;
/** Chunks written per transaction: a quarter MiB each, few commits per document. */
const CHUNKS_PER_WRITE = 4;
/** Chunks read per query when serving a copy. */
const CHUNKS_PER_READ = 8;

export function chunkAad(busiWaterNo: string, chunkId: string): string {
  return `document:${busiWaterNo}:${chunkId}`;
}

const chunkIdOf = (blobId: string, seq: number) => `${blobId}.${String(seq).padStart(6, '0')}`;

export interface WrittenBlob {
  blobId: string;
  byteSize: number;
  sha256: string;
  chunkCount: number;
  sniffed: Sniffed;
}

/**
 * Streams `body` into a new blob of the application. Refuses (`not_a_document`) as soon as the
 * first bytes show no known type, (`too_large`) as soon as an image's header declares more than
 * `maxPixels`, and at the end when an image's size cannot be read or its structure did not reach
 * its end (`truncated`, structure.ts); whatever was written of a refused or broken body is removed
 * before the error passes on.
 */
export async function writeBlob(
  ctx: Pick<ServiceContext, 'store' | 'keyRing'>,
  place: { busiWaterNo: string; field: string },
  body: AsyncIterable<Buffer>,
  limits: { maxPixels: number },
): Promise<WrittenBlob> {
  const { busiWaterNo, field } = place;
  const blobId = `blob_${pooledRandomBytes(12).toString('hex')}`;
  const hash = createHash('sha256');
  // One staging buffer per document, reused for every chunk: the bytes are copied in, not
  // concatenated into a new buffer each time (garbage is what a burst of fetches costs in memory).
  const staging = Buffer.allocUnsafe(CHUNK_BYTES);
  let staged = 0;
  let head: Buffer | null = Buffer.alloc(0);
  let sniffed: Sniffed | null = null;
  let walk: StructureWalk | null = null;
  let byteSize = 0;
  let seq = 0;
  let batch: Database['document_chunks'][] = [];

  const seal = (plaintext: Buffer) => {
    const chunkId = chunkIdOf(blobId, seq);
    const { keyId, sealed } = ctx.keyRing.encryptBytes(plaintext, chunkAad(busiWaterNo, chunkId));
    batch.push({
      chunk_id: chunkId,
      blob_id: blobId,
      busi_water_no: busiWaterNo,
      field,
      seq,
      key_id: keyId,
      chunk_enc: sealed,
    });
    seq++;
  };
  const flush = async () => {
    if (batch.length === 0) return;
    const rows = batch;
    batch = [];
    await insertChunks(ctx.store, rows);
    for (const row of rows) releaseBuffer(row.chunk_enc);
  };

  try {
    for await (const piece of body) {
      hash.update(piece);
      byteSize += piece.length;
      if (walk !== null) walk.update(piece);
      if (head !== null) {
        const before = head;
        head = Buffer.concat([head, piece.subarray(0, Math.max(0, HEAD_BYTES - head.length))]);
        if (walk === null && head.length >= 16) {
          const type = sniffType(head);
          if (type === null)
            throw new DocumentFailure('not_a_document', 'no known document type in the first bytes');
          // Every byte so far: the few before this piece (under 16), then the whole piece. Not the
          // head, which holds only a piece's first HEAD_BYTES: a first piece longer than that (a
          // fast server's read, libvips's whole output) lost its rest to the walk (`truncated`).
          walk = structureWalk(type);
          walk.update(before);
          walk.update(piece);
        }
        sniffed = sniffDocument(head);
        if (sniffed !== null) checkPixels(sniffed, limits.maxPixels);
        // Once the size is known the head is no longer needed.
        if (sniffed !== null || head.length >= HEAD_BYTES) head = null;
      }
      for (let at = 0; at < piece.length;) {
        const copied = piece.copy(staging, staged, at);
        staged += copied;
        at += copied;
        if (staged === CHUNK_BYTES) {
          seal(staging);
          staged = 0;
        }
      }
      if (batch.length >= CHUNKS_PER_WRITE) await flush();
    }
    if (staged > 0) seal(staging.subarray(0, staged));
    if (head !== null) sniffed = sniffDocument(head);
    if (sniffed === null || walk === null)
      throw new DocumentFailure('not_a_document', 'not a readable image or PDF');
    walk.finish();
    await flush();
    return { blobId, byteSize, sha256: hash.digest('hex'), chunkCount: seq, sniffed };
  } catch (error) {
    await deleteBlob(ctx.store.db, blobId).catch(() => undefined);
    throw error;
  }
}

/**
 * An image whose header declares more pixels than `maxPixels` is refused before a byte of it is
 * decoded: a few hundred bytes can announce gigabytes of pixels (a decompression bomb).
 */
function checkPixels(sniffed: Sniffed, maxPixels: number): void {
  if (sniffed.width === null || sniffed.height === null) return;
  if (sniffed.width * sniffed.height > maxPixels)
    throw new DocumentFailure(
      'too_large',
      `${sniffed.width}x${sniffed.height} px, over DOCUMENT_MAX_PIXELS (${maxPixels})`,
    );
}

/** The kept copy's bytes in order, decrypted a few chunks at a time; throws if one is missing or altered. */
export async function* readBlob(
  ctx: Pick<ServiceContext, 'store' | 'keyRing'>,
  row: Pick<DocumentsTable, 'busi_water_no' | 'blob_id' | 'chunk_count'>,
): AsyncGenerator<Buffer> {
  if (row.blob_id === null || row.chunk_count === null) return;
  for (let from = 0; from < row.chunk_count; from += CHUNKS_PER_READ) {
    const chunks = await chunksOf(ctx.store, row.blob_id, from, CHUNKS_PER_READ);
    const expected = Math.min(CHUNKS_PER_READ, row.chunk_count - from);
    if (chunks.length !== expected) throw new Error('document: chunks are missing');
    for (const [i, chunk] of chunks.entries()) {
      if (chunk.seq !== from + i) throw new Error('document: chunks are missing');
      const plain = ctx.keyRing.decryptBytes(
        chunk.key_id,
        chunk.chunk_enc,
        chunkAad(row.busi_water_no, chunk.chunk_id),
      );
      releaseBuffer(chunk.chunk_enc);
      yield plain;
    }
  }
}

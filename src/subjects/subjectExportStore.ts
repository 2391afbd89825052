import { createHash } from 'node:crypto';
import type { ServiceContext } from '../context.ts';
import { releaseBuffer } from '../crypto/releaseBuffer.ts';
import type { SubjectExportChunksTable } from '../store/tables.ts';
import { exportChunks, insertExportChunks } from './subjectExportRepository.ts';

/**
 * The sealed copy of an export: its bytes hashed, cut into chunks and each sealed with AES-256-GCM
 * under the key ring's current key as they are produced, so that building an export holds a chunk
 * at a time however many documents it carries (the documents' own store does the same,
 * documents/documentStore.ts). A chunk's aad names the request and its place: a chunk moved to
 * another export or reordered fails to decrypt.
 */

const CHUNK_BYTES = 64 * 1024;
const CHUNKS_PER_WRITE = 4;
const CHUNKS_PER_READ = 16;

export function exportChunkAad(chunkId: string): string {
  return `subject_export:${chunkId}`;
}

const chunkIdOf = (requestId: string, seq: number) => `${requestId}.${String(seq).padStart(6, '0')}`;

export interface SealedExport {
  byteSize: number;
  sha256: string;
  chunkCount: number;
}

/** Writes an export's bytes as they come; `finish` seals the last chunk and says what was written. */
export class ExportWriter {
  readonly #ctx: Pick<ServiceContext, 'store' | 'keyRing'>;
  readonly #requestId: string;
  readonly #hash = createHash('sha256');
  readonly #staging = Buffer.allocUnsafe(CHUNK_BYTES);
  #staged = 0;
  #seq = 0;
  #byteSize = 0;
  #batch: SubjectExportChunksTable[] = [];

  constructor(ctx: Pick<ServiceContext, 'store' | 'keyRing'>, requestId: string) {
    this.#ctx = ctx;
    this.#requestId = requestId;
  }

  async write(piece: string | Buffer): Promise<void> {
    const bytes = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
    this.#hash.update(bytes);
    this.#byteSize += bytes.length;
    for (let at = 0; at < bytes.length;) {
      const copied = bytes.copy(this.#staging, this.#staged, at);
      this.#staged += copied;
      at += copied;
      if (this.#staged === CHUNK_BYTES) this.#seal();
    }
    if (this.#batch.length >= CHUNKS_PER_WRITE) await this.#flush();
  }

  async finish(): Promise<SealedExport> {
    if (this.#staged > 0) this.#seal();
    await this.#flush();
    return { byteSize: this.#byteSize, sha256: this.#hash.digest('hex'), chunkCount: this.#seq };
  }

  #seal(): void {
    const chunkId = chunkIdOf(this.#requestId, this.#seq);
    const plaintext = this.#staging.subarray(0, this.#staged);
    const { keyId, sealed } = this.#ctx.keyRing.encryptBytes(plaintext, exportChunkAad(chunkId));
    this.#batch.push({
      chunk_id: chunkId,
      request_id: this.#requestId,
      seq: this.#seq,
      key_id: keyId,
      chunk_enc: sealed,
    });
    this.#seq++;
    this.#staged = 0;
  }

  async #flush(): Promise<void> {
    const rows = this.#batch;
    this.#batch = [];
    await insertExportChunks(this.#ctx.store, rows);
    for (const row of rows) releaseBuffer(row.chunk_enc);
  }
}

/**
 * The whole export, decrypted, checked against the size and SHA-256 recorded when it was written;
 * throws if a chunk is missing, altered or out of place.
 */
export async function readExport(
  ctx: Pick<ServiceContext, 'store' | 'keyRing'>,
  requestId: string,
  sealed: SealedExport,
): Promise<Buffer> {
  const hash = createHash('sha256');
  const pieces: Buffer[] = [];
  for (let from = 0; from < sealed.chunkCount; from += CHUNKS_PER_READ) {
    const chunks = await exportChunks(ctx.store.db, requestId, from, CHUNKS_PER_READ);
    if (chunks.length !== Math.min(CHUNKS_PER_READ, sealed.chunkCount - from))
      throw new Error('subject export: chunks are missing');
    for (const [i, chunk] of chunks.entries()) {
      if (chunk.seq !== from + i) throw new Error('subject export: chunks are missing');
      const plain = ctx.keyRing.decryptBytes(chunk.key_id, chunk.chunk_enc, exportChunkAad(chunk.chunk_id));
      hash.update(plain);
      pieces.push(plain);
    }
  }
  const whole = Buffer.concat(pieces);
  if (whole.length !== sealed.byteSize || hash.digest('hex') !== sealed.sha256)
    throw new Error('subject export: the bytes read back are not those written');
  return whole;
}

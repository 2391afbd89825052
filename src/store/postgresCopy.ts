import type pg from 'pg';
import type { DocumentChunksTable, ReadChunk } from './tables.ts';

/**
 * Document chunks written with `COPY ... FROM STDIN (FORMAT binary)`, each chunk's bytes handed to
 * the socket as they are. A parameter of an INSERT is copied by the driver (pg) into the statement's
 * bind message, a buffer of its own that only the garbage collector frees: for twenty 10 MiB
 * documents at once, 200 MiB of them, which pile up on a loaded machine. Here the only buffers per
 * chunk are a few dozen bytes of framing; the chunk itself is the caller's to free once written.
 *
 * The binary format: a signature, flags and header extension (19 bytes), then per row the number
 * of fields (int16) and each field as its length (int32) and bytes (text as UTF-8, integer as int32,
 * bytea as is), then -1 (int16). It travels in CopyData messages ('d', int32 length), one per row,
 * and ends with CopyDone ('c'). One statement: the rows are written all or none.
 */

const SIGNATURE = Buffer.from([0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00]);
const COLUMNS = ['chunk_id', 'blob_id', 'busi_water_no', 'field', 'seq', 'key_id', 'chunk_enc'] as const;
const COPY_DONE = Buffer.from([0x63, 0, 0, 0, 4]);

/** A row's CopyData message up to (not including) the chunk's bytes; the trailer after them. */
function framing(row: DocumentChunksTable, first: boolean, last: boolean): { head: Buffer; tail: Buffer } {
  const texts = [row.chunk_id, row.blob_id, row.busi_water_no, row.field].map((s) => Buffer.from(s, 'utf8'));
  const keyId = Buffer.from(row.key_id, 'utf8');
  const header = first ? SIGNATURE.length + 8 : 0;
  const fields = texts.reduce((n, b) => n + 4 + b.length, 0) + (4 + 4) + (4 + keyId.length) + 4;
  const tail = last ? Buffer.from([0xff, 0xff]) : Buffer.alloc(0);
  const head = Buffer.allocUnsafe(5 + header + 2 + fields);
  let at = head.writeUInt8(0x64, 0);
  at = head.writeInt32BE(4 + header + 2 + fields + row.chunk_enc.length + tail.length, at);
  if (first) {
    at += SIGNATURE.copy(head, at);
    at = head.writeInt32BE(0, at); // flags
    at = head.writeInt32BE(0, at); // header extension length
  }
  at = head.writeInt16BE(COLUMNS.length, at);
  for (const text of texts) {
    at = head.writeInt32BE(text.length, at);
    at += text.copy(head, at);
  }
  at = head.writeInt32BE(4, at);
  at = head.writeInt32BE(row.seq, at);
  at = head.writeInt32BE(keyId.length, at);
  at += keyId.copy(head, at);
  head.writeInt32BE(row.chunk_enc.length, at);
  return { head, tail };
}

/** The COPY as a query pg runs on one connection: it answers CopyInResponse with the rows. */
class CopyChunks implements pg.Submittable {
  readonly #text: string;
  readonly #rows: readonly DocumentChunksTable[];
  readonly #written: Promise<void>[] = [];
  readonly done: Promise<void>;
  #settle!: (error: Error | null) => void;

  constructor(table: string, rows: readonly DocumentChunksTable[]) {
    this.#text = `COPY ${table} (${COLUMNS.join(', ')}) FROM STDIN (FORMAT binary)`;
    this.#rows = rows;
    this.done = new Promise<void>((resolve, reject) => {
      this.#settle = (error) => (error === null ? resolve() : reject(error));
    });
  }

  submit(connection: pg.Connection): void {
    connection.query(this.#text);
  }

  handleCopyInResponse(connection: pg.Connection): void {
    const socket = connection.stream;
    this.#rows.forEach((row, i) => {
      const { head, tail } = framing(row, i === 0, i === this.#rows.length - 1);
      socket.write(head);
      // A write that fails (the socket gone) still calls back; the query then fails too.
      this.#written.push(new Promise((resolve) => socket.write(row.chunk_enc, () => resolve())));
      if (tail.length > 0) socket.write(tail);
    });
    socket.write(COPY_DONE);
  }

  handleReadyForQuery(): void {
    // Every chunk has reached the server; its write is over once the socket says so.
    void Promise.all(this.#written).then(() => this.#settle(null));
  }

  handleError(error: Error): void {
    // The chunks are the caller's to free once this settles: not while a write still reads them.
    void Promise.all(this.#written).then(() => this.#settle(error));
  }

  handleCommandComplete(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
}

/** Writes `rows` into `table` (schema-qualified) by one binary COPY on a connection of `pool`. */
export async function copyDocumentChunks(
  pool: pg.Pool,
  table: string,
  rows: readonly DocumentChunksTable[],
): Promise<void> {
  if (rows.length === 0) return;
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query(new CopyChunks(table, rows)).done;
  } catch (error) {
    broken = error as Error;
    throw error;
  } finally {
    client.release(broken);
  }
}

/**
 * Chunks read with `COPY (SELECT ...) TO STDOUT (FORMAT binary)`: each chunk's bytes copied once,
 * straight from the socket's buffer into a buffer of its own that the reader frees once decrypted.
 * A SELECT's bytea comes through pg as a hex string twice its size and is then decoded into a
 * buffer: for the twenty 10 MiB originals read back for their previews, 400 MiB of strings and
 * 200 MiB of buffers for the garbage collector, which on a loaded machine collects them late.
 *
 * The rows arrive in CopyData messages, one per row as PostgreSQL sends them, the header with the
 * first; the parser does not rely on that and reads the bytes as one stream: the signature, flags
 * and extension (19 bytes), then per row the field count (int16, -1 ends) and each field as its
 * length (int32) and bytes.
 */
export class CopyOutChunks implements pg.Submittable {
  readonly #text: string;
  readonly rows: ReadChunk[] = [];
  readonly done: Promise<ReadChunk[]>;
  #settle!: (error: Error | null) => void;
  #failed: Error | null = null;
  /** Bytes of the fixed-size item being read (header, counts, lengths), until it is whole. */
  #small = Buffer.alloc(SIGNATURE.length + 8);
  #smallNeed = SIGNATURE.length + 8;
  #smallHave = 0;
  #state: 'header' | 'count' | 'length' | 'value' | 'end' = 'header';
  #fields: Buffer[] = [];
  #fieldCount = 0;
  #value: Buffer | null = null;
  #valueHave = 0;

  constructor(table: string, blobId: string, from: number, count: number) {
    if (!/^[A-Za-z0-9_.-]+$/.test(blobId)) throw new Error('document: not a blob id');
    if (!Number.isInteger(from) || !Number.isInteger(count)) throw new Error('document: not a range');
    this.#text =
      `COPY (SELECT seq, chunk_id, key_id, chunk_enc FROM ${table} WHERE blob_id = '${blobId}'` +
      ` AND seq >= ${from} AND seq < ${from + count} ORDER BY seq) TO STDOUT (FORMAT binary)`;
    this.done = new Promise<ReadChunk[]>((resolve, reject) => {
      this.#settle = (error) => (error === null ? resolve(this.rows) : reject(error));
    });
  }

  submit(connection: pg.Connection): void {
    connection.query(this.#text);
  }

  handleCopyData(message: { chunk: Buffer }): void {
    if (this.#failed !== null) return;
    try {
      this.#read(message.chunk);
    } catch (error) {
      this.#failed = error as Error;
    }
  }

  #expect(state: 'count' | 'length', bytes: number): void {
    this.#state = state;
    this.#smallNeed = bytes;
    this.#smallHave = 0;
  }

  #read(data: Buffer): void {
    let at = 0;
    while (at < data.length) {
      if (this.#state === 'end') throw new Error('document: bytes after the end of a COPY');
      if (this.#state === 'value') {
        const value = this.#value!;
        const copied = data.copy(value, this.#valueHave, at, at + value.length - this.#valueHave);
        this.#valueHave += copied;
        at += copied;
        if (this.#valueHave === value.length) this.#fieldDone(value);
        continue;
      }
      const copied = data.copy(this.#small, this.#smallHave, at, at + this.#smallNeed - this.#smallHave);
      this.#smallHave += copied;
      at += copied;
      if (this.#smallHave < this.#smallNeed) continue;
      if (this.#state === 'header') {
        if (!this.#small.subarray(0, SIGNATURE.length).equals(SIGNATURE))
          throw new Error('document: not a binary COPY');
        if (this.#small.readInt32BE(SIGNATURE.length + 4) !== 0)
          throw new Error('document: a binary COPY header extension');
        this.#expect('count', 2);
      } else if (this.#state === 'count') {
        const fields = this.#small.readInt16BE(0);
        if (fields === -1) this.#state = 'end';
        else if (fields !== 4) throw new Error(`document: a COPY row of ${fields} fields`);
        else {
          this.#fieldCount = fields;
          this.#fields = [];
          this.#expect('length', 4);
        }
      } else {
        const length = this.#small.readInt32BE(0);
        if (length < 0) throw new Error('document: a chunk with a null field');
        // The chunk's bytes in a buffer of its own (releaseBuffer can free it); the rest small.
        this.#value = this.#fields.length === 3 ? Buffer.allocUnsafeSlow(length) : Buffer.alloc(length);
        this.#valueHave = 0;
        this.#state = 'value';
        if (length === 0) this.#fieldDone(this.#value);
      }
    }
  }

  #fieldDone(value: Buffer): void {
    this.#fields.push(value);
    this.#value = null;
    if (this.#fields.length < this.#fieldCount) {
      this.#expect('length', 4);
      return;
    }
    const [seq, chunkId, keyId, sealed] = this.#fields as [Buffer, Buffer, Buffer, Buffer];
    this.rows.push({
      seq: seq.readInt32BE(0),
      chunk_id: chunkId.toString('utf8'),
      key_id: keyId.toString('utf8'),
      chunk_enc: sealed,
    });
    this.#expect('count', 2);
  }

  handleReadyForQuery(): void {
    if (this.#failed === null && this.#state !== 'end')
      this.#failed = new Error('document: a binary COPY that did not end');
    this.#settle(this.#failed);
  }

  handleError(error: Error): void {
    // pg leaves the query on an error: ReadyForQuery does not reach it.
    this.#settle(error);
  }

  handleCommandComplete(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
}

/** Up to `count` chunks of a blob from `seq` on, in order, by one binary COPY on a connection of `pool`. */
export async function copyChunksOut(
  pool: pg.Pool,
  table: string,
  place: { blobId: string; from: number; count: number },
): Promise<ReadChunk[]> {
  const copy = new CopyOutChunks(table, place.blobId, place.from, place.count);
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    return await client.query(copy).done;
  } catch (error) {
    broken = error as Error;
    throw error;
  } finally {
    client.release(broken);
  }
}

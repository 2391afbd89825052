import type pg from 'pg';
import type { DocumentChunksTable } from './tables.ts';

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

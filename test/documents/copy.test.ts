import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';
import type { ServiceContext } from '../../src/context.ts';
import { copyChunksOut, CopyOutChunks } from '../../src/store/postgresCopy.ts';
import type { DocumentChunksTable } from '../../src/store/tables.ts';
import { skipWithout } from '../helpers/components.ts';
import { createStoreTarget, type StoreTarget } from '../helpers/stores.ts';

/**
 * PostgreSQL's chunks written by one binary COPY (store/postgresCopy.ts): the bytes and every
 * column read back as written, across CopyData messages larger than a socket write; a COPY the
 * server refuses (a chunk already there) writes none of its rows and leaves the connection usable.
 */
describe('document chunks by COPY (postgres)', { skip: skipWithout('postgres') }, () => {
  let target: StoreTarget;
  let ctx: ServiceContext;
  before(async () => {
    target = createStoreTarget('postgres');
    ctx = await openContext(loadConfig(target.env), createLogger({ logLevel: 'silent' }));
  });
  after(async () => {
    await ctx.store.close();
    await target.cleanup();
  });

  const rows = (blob: string, count: number): DocumentChunksTable[] =>
    Array.from({ length: count }, (_, seq) => ({
      chunk_id: `${blob}.${String(seq).padStart(6, '0')}`,
      blob_id: blob,
      busi_water_no: 'S-é-1',
      field: 'id_card_img',
      seq,
      key_id: 'k1',
      chunk_enc: Buffer.alloc(65_536 + 28 + seq, seq + 1),
    }));
  const stored = (blob: string) =>
    ctx.store.db
      .selectFrom('document_chunks')
      .selectAll()
      .where('blob_id', '=', blob)
      .orderBy('seq')
      .execute();

  test('every column and byte read back as written', async () => {
    assert.ok(ctx.store.copyDocumentChunks, 'PostgreSQL writes chunks by COPY');
    const written = rows('blob_a', 5);
    await ctx.store.copyDocumentChunks(written);
    const back = await stored('blob_a');
    assert.equal(back.length, 5);
    for (const [i, row] of back.entries()) {
      const { chunk_enc, ...columns } = row;
      const { chunk_enc: sent, ...expected } = written[i]!;
      assert.deepEqual(columns, expected);
      assert.ok(Buffer.from(chunk_enc).equals(sent), `chunk ${i}`);
    }
  });

  test('a COPY refused writes none of its rows; the pool goes on', async () => {
    assert.ok(ctx.store.copyDocumentChunks);
    const again = [...rows('blob_b', 2), rows('blob_a', 1)[0]!];
    await assert.rejects(ctx.store.copyDocumentChunks(again), /duplicate key/);
    assert.deepEqual(await stored('blob_b'), []);
    await ctx.store.copyDocumentChunks(rows('blob_b', 2));
    assert.equal((await stored('blob_b')).length, 2);
  });
});

/**
 * Chunks read back by one binary COPY (store/postgresCopy.ts, copyChunksOut): written by plain
 * INSERTs, so that neither side of the COPY vouches for the other; every byte value, ranges, a
 * chunk of no bytes, and the server's own output fed to the parser one byte and seven bytes at a
 * time (PostgreSQL sends a row per message; the parser must not rely on it).
 */
describe('document chunks read by COPY (postgres)', { skip: skipWithout('postgres') }, () => {
  let target: StoreTarget;
  let ctx: ServiceContext;
  const blob = 'blob_out';
  const sizes = [65_536 + 28, 0, 1, 200_000, 65_536 + 28, 3];
  const written = sizes.map((size, seq) => ({
    chunk_id: `${blob}.${String(seq).padStart(6, '0')}`,
    blob_id: blob,
    busi_water_no: 'S-é-2',
    field: 'passport_img',
    seq,
    key_id: `k-ü-${seq}`,
    chunk_enc: randomBytes(size),
  }));
  before(async () => {
    target = createStoreTarget('postgres');
    ctx = await openContext(loadConfig(target.env), createLogger({ logLevel: 'silent' }));
    for (const row of written) await ctx.store.db.insertInto('document_chunks').values(row).execute();
  });
  after(async () => {
    await ctx.store.close();
    await target.cleanup();
  });

  const expected = (from: number, to: number) =>
    written
      .slice(from, to)
      .map(({ chunk_id, seq, key_id, chunk_enc }) => ({ chunk_id, seq, key_id, chunk_enc }));

  test('every column and byte read as written, by range', async () => {
    assert.ok(ctx.store.copyChunksOut, 'PostgreSQL reads chunks by COPY');
    assert.deepEqual(await ctx.store.copyChunksOut({ blobId: blob, from: 0, count: 8 }), expected(0, 6));
    assert.deepEqual(await ctx.store.copyChunksOut({ blobId: blob, from: 2, count: 3 }), expected(2, 5));
    assert.deepEqual(await ctx.store.copyChunksOut({ blobId: blob, from: 6, count: 8 }), []);
    assert.deepEqual(await ctx.store.copyChunksOut({ blobId: 'blob_none', from: 0, count: 8 }), []);
    const [first] = await ctx.store.copyChunksOut({ blobId: blob, from: 0, count: 1 });
    const own = first!.chunk_enc;
    assert.equal(own.byteOffset, 0, 'a chunk is a buffer of its own, which releaseBuffer can free');
    assert.equal(own.buffer.byteLength, own.byteLength);
  });

  test('a blob id that is not one is refused before any SQL; a failed COPY leaves the pool usable', async () => {
    assert.ok(ctx.store.copyChunksOut);
    await assert.rejects(
      ctx.store.copyChunksOut({ blobId: "x' OR '1'='1", from: 0, count: 1 }),
      /not a blob id/,
    );
    const pool = new pg.Pool({ connectionString: target.env.DATABASE_URL, max: 1 });
    try {
      await assert.rejects(
        copyChunksOut(pool, 'no_such_table', { blobId: blob, from: 0, count: 1 }),
        /no_such_table/,
      );
      assert.equal((await pool.query('select 1 as one')).rows[0].one, 1);
    } finally {
      await pool.end();
    }
    assert.equal((await ctx.store.copyChunksOut({ blobId: blob, from: 0, count: 8 })).length, 6);
  });

  test("the server's own bytes, split anywhere, parse to the same rows", async () => {
    const table = `"${target.schema}"."document_chunks"`;
    const pool = new pg.Pool({ connectionString: target.env.DATABASE_URL, max: 1 });
    const recorded: Buffer[] = [];
    try {
      const client = await pool.connect();
      try {
        const copy = new CopyOutChunks(table, blob, 0, 8);
        const handle = copy.handleCopyData.bind(copy);
        copy.handleCopyData = (message) => {
          recorded.push(Buffer.from(message.chunk));
          handle(message);
        };
        assert.deepEqual(await client.query(copy).done, expected(0, 6));
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }
    assert.ok(recorded.length >= 6, `one message per row at least (${recorded.length})`);
    const stream = Buffer.concat(recorded);
    for (const step of [1, 7, 65_537]) {
      const copy = new CopyOutChunks(table, blob, 0, 8);
      for (let at = 0; at < stream.length; at += step)
        copy.handleCopyData({ chunk: stream.subarray(at, at + step) });
      copy.handleReadyForQuery();
      assert.deepEqual(await copy.done, expected(0, 6), `split every ${step} bytes`);
    }
    const cut = new CopyOutChunks(table, blob, 0, 8);
    cut.handleCopyData({ chunk: stream.subarray(0, stream.length - 2) });
    cut.handleReadyForQuery();
    await assert.rejects(cut.done, /did not end/);
  });
});

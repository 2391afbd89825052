import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';
import type { ServiceContext } from '../../src/context.ts';
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

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DocumentFailure } from '../../src/documents/outcome.ts';
import { checkPdf } from '../../src/documents/pdfCheck.ts';
import { sniffType } from '../../src/documents/sniff.ts';
import { structureWalk } from '../../src/documents/structure.ts';
import { encode, pdfDocument, type Encoded } from '../helpers/encodedDocuments.ts';

/**
 * Issue 54, whole files only: files made by ImageMagick and pdf-lib pass the structure walk however
 * their bytes are split; cut short anywhere they are `truncated`; padded, corrupted or disguised
 * they are `not_a_document`, except a JPEG's bytes after its end, which are allowed.
 */

/** Walks `bytes` in pieces of 1 to `most` bytes (a fixed pseudo-random split); the failure's reason, or 'whole'. */
function walked(bytes: Buffer, most = 70_000, seed = 7): string {
  const type = sniffType(bytes);
  if (type === null) return 'no type';
  const walk = structureWalk(type);
  let state = seed;
  try {
    for (let at = 0; at < bytes.length;) {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      const size = 1 + (state % most);
      walk.update(bytes.subarray(at, at + size));
      at += size;
    }
    walk.finish();
  } catch (error) {
    if (error instanceof DocumentFailure) return error.reason;
    throw error;
  }
  return 'whole';
}

const IMAGES: Encoded[] = ['png', 'jpeg', 'progressive-jpeg', 'webp', 'lossless-webp', 'heic'];

describe('the structure walk', () => {
  for (const kind of IMAGES) {
    test(`${kind} by ImageMagick: whole in any split, truncated when cut anywhere`, () => {
      const file = encode(kind, 640, 420);
      for (const most of [1 + (file.length % 13), 977, 65_536, file.length])
        assert.equal(walked(file, most), 'whole', `${most}`);
      for (const cut of [file.length - 1, file.length - 2, Math.floor(file.length / 2), 1000, 40]) {
        assert.equal(walked(file.subarray(0, cut)), 'truncated', `${kind} cut at ${cut} of ${file.length}`);
      }
    });
  }

  test('bytes past the end: refused for PNG, WebP and HEIF (or cut short, as they read), kept for JPEG', () => {
    const html = Buffer.from('<html><script>alert(document.domain)</script></html>');
    assert.equal(walked(Buffer.concat([encode('png', 400, 300), html])), 'not_a_document');
    assert.equal(walked(Buffer.concat([encode('webp', 400, 300), html])), 'not_a_document');
    assert.equal(walked(Buffer.concat([encode('heic', 400, 300), Buffer.alloc(16)])), 'not_a_document');
    assert.equal(walked(Buffer.concat([encode('heic', 400, 300), html])), 'truncated');
    assert.equal(walked(Buffer.concat([encode('jpeg', 400, 300), html])), 'whole');
  });

  test('a corrupted PNG chunk fails its CRC; a WebP whose RIFF size lies is refused', () => {
    const png = encode('png', 400, 300);
    const flipped = Buffer.from(png);
    flipped[png.length - 100] = flipped[png.length - 100]! ^ 0x01;
    assert.equal(walked(flipped), 'not_a_document');
    const webp = encode('webp', 400, 300);
    const longer = Buffer.from(webp);
    longer.writeUInt32LE(webp.readUInt32LE(4) + 1000, 4);
    assert.equal(walked(longer), 'truncated');
    const shorter = Buffer.from(webp);
    shorter.writeUInt32LE(webp.readUInt32LE(4) - 1000, 4);
    assert.equal(walked(shorter), 'not_a_document');
  });

  test('a JPEG whose end marker is gone, or that scans before its frame, is refused', () => {
    const jpeg = encode('jpeg', 400, 300);
    assert.equal(walked(jpeg.subarray(0, jpeg.length - 2)), 'truncated');
    // SOI then straight to a scan: no frame.
    const noFrame = Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x02, 0x12, 0x34, 0xff, 0xd9]);
    assert.equal(walked(noFrame), 'not_a_document');
  });

  for (const table of [false, true]) {
    test(`a PDF by pdf-lib (${table ? 'xref table' : 'xref stream'}): whole, parsed, one page; truncated when cut`, async () => {
      const pdf = await pdfDocument(table);
      assert.equal(walked(pdf, 333), 'whole');
      assert.deepEqual(await checkPdf(pdf), { pages: 1 });
      for (const cut of [pdf.length - 3, pdf.length - 7, Math.floor(pdf.length / 2), 20])
        assert.equal(walked(pdf.subarray(0, cut)), 'truncated', `cut at ${cut}`);
    });
  }

  test('anything beginning %PDF- is not a PDF: HTML behind the header, a forged end, no page', async () => {
    // The finding: 86 bytes of %PDF- followed by HTML and script.
    const html = Buffer.from(
      '%PDF-1.7\n<html><body><script>fetch("/admin").then(r=>r.text())</script></body></html>\n',
    );
    assert.equal(walked(html), 'truncated');
    const forged = Buffer.concat([html, Buffer.from('startxref\n9\n%%EOF\n')]);
    assert.equal(walked(forged), 'not_a_document');
    const withTrailer = Buffer.concat([
      html,
      Buffer.from('xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size 1 >>\nstartxref\n'),
    ]);
    const offset = withTrailer.indexOf('xref\n0 1');
    const forgedTable = Buffer.concat([withTrailer, Buffer.from(`${offset}\n%%EOF\n`)]);
    assert.equal(walked(forgedTable), 'whole', 'the end is in place: the parser decides');
    await assert.rejects(
      checkPdf(forgedTable),
      (error: DocumentFailure) => error.reason === 'not_a_document',
    );
    assert.equal(walked(Buffer.from('%PDF-9.9\n')), 'not_a_document');
  });
});

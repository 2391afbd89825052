import assert from 'node:assert/strict';
import { test } from 'node:test';
import { heicHeader, jpegHeader, pngImage, webpHeader } from '../../test/helpers/documentImages.ts';
import { sniffDocument, sniffType } from './sniff.ts';

const cases: [string, Buffer, string | null, number | null, number | null][] = [
  ['PNG (zlib-encoded)', pngImage(640, 480), 'image/png', 640, 480],
  ['JPEG baseline', jpegHeader(1024, 768), 'image/jpeg', 1024, 768],
  ['JPEG behind a 60 KiB EXIF segment', jpegHeader(3000, 4000, 60_000), 'image/jpeg', 3000, 4000],
  ['WebP lossy', webpHeader('VP8 ', 800, 600), 'image/webp', 800, 600],
  ['WebP lossless', webpHeader('VP8L', 1200, 900), 'image/webp', 1200, 900],
  ['WebP extended', webpHeader('VP8X', 4032, 3024), 'image/webp', 4032, 3024],
  ['HEIC: the primary image, not the thumbnail', heicHeader(4032, 3024), 'image/heic', 4032, 3024],
  ['PDF', Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1'), 'application/pdf', null, null],
];

for (const [name, bytes, type, width, height] of cases) {
  test(`sniffDocument reads ${name}`, () => {
    assert.deepEqual(sniffDocument(bytes), { type, width, height });
    assert.equal(sniffType(bytes.subarray(0, 16)), type);
  });
}

test('sniffDocument refuses what is not a document, whatever it claims', () => {
  for (const bytes of [
    Buffer.from('<!doctype html><html><body>an image</body></html>'),
    Buffer.from('GIF89a\x01\x00\x01\x00'),
    Buffer.alloc(64),
    pngImage(10, 10).subarray(0, 20), // cut before the size
    jpegHeader(100, 100).subarray(0, 30),
  ]) {
    assert.equal(sniffDocument(bytes), null);
  }
  assert.equal(sniffType(Buffer.from('<!doctype html>\n<ht')), null);
});

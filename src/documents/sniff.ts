import type { DocumentType } from '../events/documentOutcomes.ts';

/**
 * A document's type decided from its bytes, never from the Content-Type header or the URL, and an
 * image's dimensions read from its header: JPEG (the SOF segment), PNG (IHDR), WebP (VP8, VP8L,
 * VP8X), HEIC/HEIF (the largest `ispe` property, the primary image rather than a thumbnail) and
 * PDF. Only the head of the body is needed (`HEAD_BYTES`); an image whose size is not in it is not
 * taken for one.
 */

export interface Sniffed {
  type: DocumentType;
  /** Pixels; null for a PDF. */
  width: number | null;
  height: number | null;
}

/** How much of the body the sniffer may look at: a JPEG's EXIF and ICC segments come first. */
export const HEAD_BYTES = 512 * 1024;

export function sniffDocument(head: Buffer): Sniffed | null {
  if (head.subarray(0, 5).toString('latin1') === '%PDF-')
    return { type: 'application/pdf', width: null, height: null };
  const image = pngSize(head) ?? jpegSize(head) ?? webpSize(head) ?? heifSize(head);
  return image ?? null;
}

/**
 * The type its first 16 bytes announce, before the rest has arrived: a body that announces none is
 * refused at once, not read to the end.
 */
export function sniffType(head: Buffer): DocumentType | null {
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (head.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp';
  if (head.toString('latin1', 4, 8) === 'ftyp' && HEIF_BRANDS.has(head.toString('latin1', 8, 12)))
    return 'image/heic';
  return null;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngSize(b: Buffer): Sniffed | null {
  if (b.length < 24 || !b.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  if (b.toString('latin1', 12, 16) !== 'IHDR') return null;
  return image('image/png', b.readUInt32BE(16), b.readUInt32BE(20));
}

/** Start-of-frame markers: baseline, progressive, lossless, arithmetic (not DHT C4, JPG C8, DAC CC). */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpegSize(b: Buffer): Sniffed | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8 || b[2] !== 0xff) return null;
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image, or scan data before any frame
    const length = b.readUInt16BE(at + 2);
    if (length < 2) return null;
    if (SOF.has(marker)) {
      if (at + 9 > b.length) return null;
      return image('image/jpeg', b.readUInt16BE(at + 7), b.readUInt16BE(at + 5));
    }
    at += 2 + length;
  }
  return null;
}

function webpSize(b: Buffer): Sniffed | null {
  if (b.length < 16 || b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WEBP')
    return null;
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') {
    if (b.length < 30) return null;
    // The key frame's start code, then 14-bit width and height (the top 2 bits are scaling).
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
    return image('image/webp', b.readUInt16LE(26) & 0x3fff, b.readUInt16LE(28) & 0x3fff);
  }
  if (chunk === 'VP8L') {
    if (b.length < 25 || b[20] !== 0x2f) return null;
    const bits = b.readUInt32LE(21);
    return image('image/webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X' && b.length >= 30)
    return image('image/webp', b.readUIntLE(24, 3) + 1, b.readUIntLE(27, 3) + 1);
  return null;
}

const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);

function heifSize(b: Buffer): Sniffed | null {
  if (b.length < 16 || b.toString('latin1', 4, 8) !== 'ftyp') return null;
  const ftypEnd = b.readUInt32BE(0);
  const brands: string[] = [b.toString('latin1', 8, 12)];
  for (let at = 16; at + 4 <= Math.min(ftypEnd, b.length); at += 4)
    brands.push(b.toString('latin1', at, at + 4));
  if (!brands.some((brand) => HEIF_BRANDS.has(brand))) return null;
  const meta = findBox(b, ftypEnd, b.length, 'meta');
  // meta is a full box: 4 bytes of version and flags before its children.
  const iprp = meta && findBox(b, meta.start + 4, meta.end, 'iprp');
  const ipco = iprp && findBox(b, iprp.start, iprp.end, 'ipco');
  if (!ipco) return null;
  let best: { width: number; height: number } | null = null;
  for (let at = ipco.start; at + 8 <= ipco.end;) {
    const size = b.readUInt32BE(at);
    if (size < 8) break;
    if (b.toString('latin1', at + 4, at + 8) === 'ispe' && at + 20 <= b.length) {
      const width = b.readUInt32BE(at + 12);
      const height = b.readUInt32BE(at + 16);
      if (best === null || width * height > best.width * best.height) best = { width, height };
    }
    at += size;
  }
  return best === null ? null : image('image/heic', best.width, best.height);
}

/** The payload of the first box of `type` between `from` and `to` (sizes of 0 or 1 not followed). */
function findBox(b: Buffer, from: number, to: number, type: string): { start: number; end: number } | null {
  for (let at = from; at + 8 <= Math.min(to, b.length);) {
    const size = b.readUInt32BE(at);
    if (size < 8) return null;
    if (b.toString('latin1', at + 4, at + 8) === type) return { start: at + 8, end: Math.min(at + size, to) };
    at += size;
  }
  return null;
}

function image(type: DocumentType, width: number, height: number): Sniffed | null {
  return width > 0 && height > 0 ? { type, width, height } : null;
}

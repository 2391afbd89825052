import { execFileSync } from 'node:child_process';
import { crc32, deflateSync } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/**
 * Documents made by real encoders at test time: Debian's ImageMagick (`apt-get install
 * imagemagick`, installed by .ci/run) for JPEG, PNG, WebP and HEIC, called by its own path (a
 * stand-in named `convert` may come first on PATH); pdf-lib for PDF (Debian's ImageMagick policy
 * refuses to write PDF). Pixels are noise, so every file differs and none compresses away.
 */
const CONVERT = '/usr/bin/convert';

export type Encoded = 'png' | 'jpeg' | 'progressive-jpeg' | 'webp' | 'lossless-webp' | 'heic';

/** `plain`: one grey, no noise (a file of a few KB, whatever its size in pixels). */
export function encode(kind: Encoded, width: number, height: number, seed = 1, plain = false): Buffer {
  const format = {
    png: 'png',
    jpeg: 'jpg',
    'progressive-jpeg': 'jpg',
    webp: 'webp',
    'lossless-webp': 'webp',
    heic: 'heic',
  }[kind];
  const extra =
    kind === 'progressive-jpeg'
      ? ['-interlace', 'JPEG']
      : kind === 'lossless-webp'
        ? ['-define', 'webp:lossless=true']
        : [];
  return execFileSync(
    CONVERT,
    [
      '-seed',
      String(seed),
      '-size',
      `${width}x${height}`,
      'xc:gray',
      ...(plain ? [] : ['+noise', 'Random']),
      ...extra,
      `${format}:-`,
    ],
    { maxBuffer: 256 * 1024 * 1024 },
  );
}

/** A one-page PDF by pdf-lib; `table`: a classic xref table and trailer rather than an xref stream. */
export async function pdfDocument(table = false, text = 'Payment voucher'): Promise<Buffer> {
  const document = await PDFDocument.create();
  const page = document.addPage([595, 842]);
  page.drawText(text, { x: 72, y: 760, size: 18, font: await document.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await document.save({ useObjectStreams: !table }));
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A valid PNG of `width` × `height` one-bit grey pixels, all white, compressed by node:zlib row by
 * row into one stream: 20000 × 20000 is some 50 KB on the wire and 400 MB decoded as RGBA.
 */
export function whitePng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // grey
  const row = Buffer.alloc(1 + Math.ceil(width / 8), 0xff);
  row[0] = 0; // filter: none
  const raw = Buffer.alloc(row.length * height);
  for (let y = 0; y < height; y++) row.copy(raw, y * row.length);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real PNG whose IHDR (CRC fixed) claims another size: a header that lies. */
export function pngClaiming(png: Buffer, width: number, height: number): Buffer {
  const copy = Buffer.from(png);
  copy.writeUInt32BE(width, 16);
  copy.writeUInt32BE(height, 20);
  copy.writeUInt32BE(crc32(copy.subarray(12, 29)), 29);
  return copy;
}

/** A real JPEG whose frame header (SOF) claims another size. */
export function jpegClaiming(jpeg: Buffer, width: number, height: number): Buffer {
  const copy = Buffer.from(jpeg);
  for (let at = 2; at + 9 < copy.length;) {
    const marker = copy[at + 1]!;
    const length = copy.readUInt16BE(at + 2);
    if (marker === 0xc0 || marker === 0xc2) {
      copy.writeUInt16BE(height, at + 5);
      copy.writeUInt16BE(width, at + 7);
      return copy;
    }
    at += 2 + length;
  }
  throw new Error('no frame header');
}

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

/**
 * `plain`: one grey, no noise (a file of a few KB, whatever its size in pixels). `quality`: a lossy
 * encoder's (ImageMagick's default otherwise).
 */
export function encode(
  kind: Encoded,
  width: number,
  height: number,
  seed = 1,
  plain = false,
  quality?: number,
): Buffer {
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
      ...(quality === undefined ? [] : ['-quality', String(quality)]),
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

/**
 * `jpeg` with an EXIF segment (APP1) written here after its SOI, as a camera writes it: IFD0 with
 * the camera's make and an orientation, and a GPS IFD with a latitude and longitude (the place a
 * photo was taken, what a preview must not carry). Big-endian TIFF; `make` is searchable as bytes.
 */
export function withExif(jpeg: Buffer, exif: { make: string; orientation: number }): Buffer {
  const entry = (tag: number, type: number, count: number, value: Buffer) => {
    const bytes = Buffer.alloc(12);
    bytes.writeUInt16BE(tag, 0);
    bytes.writeUInt16BE(type, 2);
    bytes.writeUInt32BE(count, 4);
    value.copy(bytes, 8);
    return bytes;
  };
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };
  const rationals = (pairs: [number, number][]) => Buffer.concat(pairs.flatMap(([a, b]) => [u32(a), u32(b)]));
  const ASCII = 2;
  const SHORT = 3;
  const LONG = 4;
  const RATIONAL = 5;
  const make = Buffer.from(`${exif.make}\0`, 'latin1');
  // The TIFF header (8), IFD0 (2 + 3 × 12 + 4), its make, then the GPS IFD (2 + 4 × 12 + 4) and its rationals.
  const ifd0At = 8;
  const makeAt = ifd0At + 2 + 3 * 12 + 4;
  const gpsAt = makeAt + make.length;
  const latitudeAt = gpsAt + 2 + 4 * 12 + 4;
  const longitudeAt = latitudeAt + 24;
  const orientation = Buffer.alloc(4);
  orientation.writeUInt16BE(exif.orientation);
  const tiff = Buffer.concat([
    Buffer.from('MM\0*', 'latin1'),
    u32(ifd0At),
    Buffer.from([0, 3]),
    entry(0x010f, ASCII, make.length, u32(makeAt)),
    entry(0x0112, SHORT, 1, orientation),
    entry(0x8825, LONG, 1, u32(gpsAt)),
    u32(0),
    make,
    Buffer.from([0, 4]),
    entry(0x0001, ASCII, 2, Buffer.from('N\0\0\0', 'latin1')),
    entry(0x0002, RATIONAL, 3, u32(latitudeAt)),
    entry(0x0003, ASCII, 2, Buffer.from('E\0\0\0', 'latin1')),
    entry(0x0004, RATIONAL, 3, u32(longitudeAt)),
    u32(0),
    rationals([
      [31, 1],
      [13, 1],
      [4512, 100],
    ]),
    rationals([
      [121, 1],
      [28, 1],
      [1234, 100],
    ]),
  ]);
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xffe1, 0);
  segment.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, body, jpeg.subarray(2)]);
}

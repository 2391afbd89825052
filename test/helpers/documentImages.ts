import { createHash, randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

/**
 * Test documents made by real encoders where one runs here (PNG: zlib and CRC-32 from node:zlib,
 * RGB pixels of noise, so that every image is different and does not compress away), and byte-exact
 * headers from the specifications otherwise (JPEG: ITU T.81 markers; WebP: RFC 9649 VP8/VP8L/VP8X;
 * HEIF: ISO/IEC 23008-12 boxes): what the sniffer reads. Files from real encoders, walked to
 * their end by the structure check, are encodedDocuments.ts's.
 */

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid PNG of `width` × `height` RGB pixels of random noise. */
export function pngImage(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) rows.push(Buffer.from([0]), randomBytes(width * 3)); // filter: none
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows), { level: 1 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const segment = (marker: number, body: Buffer) => {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
};

/** A JPEG's header: SOI, APP0 (JFIF), an APP1 of `exifBytes`, DQT, SOF0 with the size, SOS, EOI. */
export function jpegHeader(width: number, height: number, exifBytes = 0): Buffer {
  const sof = Buffer.from([8, 0, 0, 0, 0, 1, 1, 0x11, 0]);
  sof.writeUInt16BE(height, 1);
  sof.writeUInt16BE(width, 3);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1')),
    ...(exifBytes > 0
      ? [segment(0xe1, Buffer.concat([Buffer.from('Exif\0\0'), Buffer.alloc(exifBytes)]))]
      : []),
    segment(0xdb, Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 1)])),
    segment(0xc0, sof),
    segment(0xda, Buffer.from([1, 1, 0, 0, 0x3f, 0])),
    Buffer.from([0x00, 0xff, 0xd9]),
  ]);
}

function riff(chunk: string, payload: Buffer): Buffer {
  const head = Buffer.alloc(20);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(12 + payload.length, 4);
  head.write('WEBP', 8, 'latin1');
  head.write(chunk, 12, 'latin1');
  head.writeUInt32LE(payload.length, 16);
  return Buffer.concat([head, payload]);
}

/** WebP, lossy (VP8 key frame header), lossless (VP8L) or extended (VP8X). */
export function webpHeader(kind: 'VP8 ' | 'VP8L' | 'VP8X', width: number, height: number): Buffer {
  if (kind === 'VP8 ') {
    const frame = Buffer.alloc(10);
    frame.set([0x9d, 0x01, 0x2a], 3);
    frame.writeUInt16LE(width, 6);
    frame.writeUInt16LE(height, 8);
    return riff(kind, frame);
  }
  if (kind === 'VP8L') {
    const frame = Buffer.alloc(5);
    frame[0] = 0x2f;
    frame.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 1);
    return riff(kind, frame);
  }
  const frame = Buffer.alloc(10);
  frame.writeUIntLE(width - 1, 4, 3);
  frame.writeUIntLE(height - 1, 7, 3);
  return riff(kind, frame);
}

function box(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length + 8);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}

/** A HEIC's boxes: ftyp, then meta/iprp/ipco with a thumbnail's and the primary image's ispe. */
export function heicHeader(width: number, height: number): Buffer {
  const ispe = (w: number, h: number) => {
    const body = Buffer.alloc(12);
    body.writeUInt32BE(w, 4);
    body.writeUInt32BE(h, 8);
    return box('ispe', body);
  };
  return Buffer.concat([
    box('ftyp', Buffer.from('heic\0\0\0\0mif1heic', 'latin1')),
    box(
      'meta',
      Buffer.alloc(4),
      box('hdlr', Buffer.alloc(24)),
      box('iprp', box('ipco', ispe(160, 120), ispe(width, height))),
    ),
    box('mdat', Buffer.alloc(64)),
  ]);
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

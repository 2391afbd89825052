import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { PATHS } from '../../src/http/paths.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { sha256 } from '../helpers/documentImages.ts';
import { encode, pdfDocument } from '../helpers/encodedDocuments.ts';
import { startDocumentServer, type DocumentServer } from '../helpers/documentServer.ts';
import { settledDocuments, startDocumentService, type DocumentService } from '../helpers/documentService.ts';
import { ADMIN, call, newOperator, type TestOperator } from '../helpers/operators.ts';
import { newPartner, nowSeconds, post, type TestPartner } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * Safe to look at (issue 54): the console shows a preview the service drew from each kept image
 * with libvips (re-encoded, at most 1600 px, no metadata), never the partner's bytes; the original
 * stays byte-exact, with its SHA-256, and comes only as an attachment. Files by real encoders:
 * ImageMagick's JPEG and PNG, a JPEG whose EXIF carries GPS written by libvips, pdf-lib's PDF.
 */

/** What a partner's hostile host appends after a JPEG's end: a page that runs script. */
const HTML = Buffer.from(
  '<!doctype html><html><body><script>fetch("/admin/v1/me").then(r=>r.text()).then(alert)</script>PWNED-BY-POLYGLOT</body></html>',
);

function assertDocumentHeaders(response: Response): void {
  assert.equal(response.headers.get('content-security-policy'), "default-src 'none'; sandbox");
  assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(response.headers.get('cache-control'), 'no-store');
}

/** A JPEG by ImageMagick with EXIF (camera, GPS position) written by libvips. */
async function jpegWithGps(): Promise<Buffer> {
  return sharp(encode('jpeg', 900, 700, 11))
    .withExif({
      IFD0: { Make: 'SecretCam', Model: 'Model-X', Artist: 'Li Lei' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '22/1 32/1 0/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '113/1 56/1 0/1',
      },
    })
    .jpeg()
    .toBuffer();
}

for (const storeName of storeNames()) {
  describe(`previews of kept documents (${storeName})`, () => {
    let service: DocumentService;
    let images: DocumentServer;
    let partner: TestPartner;
    let reviewer: TestOperator;
    let serial: string;
    let served: Record<string, Buffer>;

    before(async () => {
      // Made first: the encoders block the event loop, which would let the service's keep-alive
      // connections time out under the client's feet.
      served = {
        id_card_img: Buffer.concat([encode('jpeg', 640, 480, 3), HTML]),
        id_card_back_img: await jpegWithGps(),
        passport_img: encode('jpeg', 2400, 1800, 4),
        sign_applicant: encode('png', 500, 400, 5),
        pay_voucher: await pdfDocument(),
      };
      images = await startDocumentServer();
      service = await startDocumentService(storeName);
      partner = await newPartner(service);
      reviewer = await newOperator(service, 'reviewer');
      const urls = Object.fromEntries(
        Object.entries(served).map(([field, body]) => [
          field,
          images.route(`/${storeName}/preview/${field}`, { kind: 'bytes', body }),
        ]),
      );
      const reply = await post(
        service.baseUrl,
        PATHS.apply,
        { ...uniqueApplicant(8_100, partner.appId), ...urls, timestamp: nowSeconds() },
        { token: partner.token },
      );
      assert.equal(reply.status, 200, reply.text);
      serial = (reply.body.data as { busi_water_no: string }).busi_water_no;
      const documents = await settledDocuments(service, partner, serial);
      for (const field of Object.keys(served))
        assert.equal(documents[field as 'id_card_img']?.state, 'kept', field);
      for (const action of ['review', 'claim']) {
        const moved = await call(service, 'POST', `${ADMIN}/applications/${serial}/${action}`, {
          token: reviewer.token,
          body: {},
        });
        assert.equal(moved.status, 200, moved.text);
      }
      const opened = await call(service, 'POST', `${ADMIN}/applications/${serial}/open-for-review`, {
        token: reviewer.token,
        body: { purpose: 'identity_check' },
      });
      assert.equal(opened.status, 200, opened.text);
    });
    after(async () => {
      await service.close();
      await images.close();
    });

    const get = async (path: string) => {
      const response = await fetch(`${service.baseUrl}${ADMIN}/applications/${serial}/documents/${path}`, {
        headers: { authorization: `Bearer ${reviewer.token}` },
      });
      assertDocumentHeaders(response);
      return { response, bytes: Buffer.from(await response.arrayBuffer()) };
    };

    test('a JPEG with HTML appended keeps its original byte-exact; its preview holds no byte of the HTML', async () => {
      const original = await get('id_card_img');
      assert.equal(original.response.status, 200);
      assert.equal(sha256(original.bytes), sha256(served['id_card_img']!), 'the evidence, byte-exact');
      assert.ok(original.bytes.includes(HTML), 'the original keeps what the partner sent');
      assert.match(
        original.response.headers.get('content-disposition') ?? '',
        /^attachment; filename="[^"]+\.jpg"$/,
      );

      const preview = await get('id_card_img/preview');
      assert.equal(preview.response.status, 200);
      assert.equal(preview.response.headers.get('content-type'), 'image/jpeg');
      assert.match(preview.response.headers.get('content-disposition') ?? '', /^inline; /);
      for (const piece of ['<script', '<html', 'PWNED-BY-POLYGLOT', '</body>'])
        assert.equal(preview.bytes.includes(Buffer.from(piece)), false, piece);
      // Whatever the search, no run of 8 bytes of the HTML appears in the preview.
      for (let at = 0; at + 8 <= HTML.length; at++)
        assert.equal(preview.bytes.includes(HTML.subarray(at, at + 8)), false, `HTML bytes ${at}`);
      const drawn = await sharp(preview.bytes).metadata();
      assert.deepEqual([drawn.format, drawn.width, drawn.height], ['jpeg', 640, 480]);
      assert.equal(preview.bytes.at(-2), 0xff);
      assert.equal(preview.bytes.at(-1), 0xd9, 'the preview ends at its EOI');
    });

    test('a preview has no metadata: the EXIF with GPS of the original is gone', async () => {
      const original = await get('id_card_back_img');
      const before = await sharp(original.bytes).metadata();
      assert.ok(before.exif !== undefined, 'the original carries EXIF');
      assert.ok(original.bytes.includes(Buffer.from('SecretCam')));
      const preview = await get('id_card_back_img/preview');
      const after = await sharp(preview.bytes).metadata();
      assert.equal(after.exif, undefined, 'no EXIF');
      assert.equal(after.icc, undefined, 'no ICC profile');
      assert.equal(after.xmp, undefined, 'no XMP');
      assert.equal(preview.bytes.includes(Buffer.from('SecretCam')), false);
      assert.equal(preview.bytes.includes(Buffer.from('Exif\0\0')), false);
    });

    test('a large image is scaled to 1600 px; a PNG is drawn as a JPEG; a PDF is a download only', async () => {
      const big = await get('passport_img/preview');
      const large = await sharp(big.bytes).metadata();
      assert.deepEqual([large.width, large.height], [1600, 1200]);
      const png = await get('sign_applicant/preview');
      assert.equal(png.response.headers.get('content-type'), 'image/jpeg');
      assert.deepEqual([(await sharp(png.bytes).metadata()).width], [500]);
      const pdf = await get('pay_voucher/preview');
      assert.equal(pdf.response.status, 404);
      assert.equal((JSON.parse(pdf.bytes.toString()) as { code: number }).code, 40420);
      const original = await get('pay_voucher');
      assert.equal(original.response.status, 200);
      assert.equal(original.response.headers.get('content-type'), 'application/pdf');
      assert.match(original.response.headers.get('content-disposition') ?? '', /^attachment; /);
      assert.equal(sha256(original.bytes), sha256(served['pay_voucher']!));
    });

    test('the preview is stored encrypted beside the original, and goes with it', async () => {
      const [row] = await service.ctx.store.db
        .selectFrom('documents')
        .select(['blob_id', 'preview_blob_id', 'preview_chunk_count'])
        .where('busi_water_no', '=', serial)
        .where('field', '=', 'id_card_img')
        .execute();
      assert.ok(row?.preview_blob_id !== null && row?.preview_blob_id !== row?.blob_id);
      const chunks = await service.ctx.store.db
        .selectFrom('document_chunks')
        .select(['blob_id', 'chunk_enc'])
        .where('busi_water_no', '=', serial)
        .where('field', '=', 'id_card_img')
        .execute();
      assert.deepEqual(new Set(chunks.map((c) => c.blob_id)), new Set([row!.blob_id, row!.preview_blob_id]));
      const preview = await get('id_card_img/preview');
      for (const chunk of chunks)
        assert.equal(
          Buffer.from(chunk.chunk_enc).includes(preview.bytes.subarray(0, 64)),
          false,
          'not in the clear',
        );
    });
  });
}

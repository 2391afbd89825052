import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PATHS } from '../../src/http/paths.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { sha256 } from '../helpers/documentImages.ts';
import { startDocumentServer, type DocumentServer } from '../helpers/documentServer.ts';
import { settledDocuments, startDocumentService, type DocumentService } from '../helpers/documentService.ts';
import { encode, jpegClaiming, pdfDocument, pngClaiming, whitePng } from '../helpers/encodedDocuments.ts';
import { newPartner, nowSeconds, post, type TestPartner } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * Issue 54 over HTTP on every store, with files from ImageMagick and pdf-lib: whole files are kept
 * byte for byte; a file cut short (the issue's `Content-Length: 1000` of a 14 KB PNG) is
 * `truncated`; a PDF that is HTML behind `%PDF-` is refused; and the three pixel floods of the
 * issue end `too_large` from their headers, the service's memory meanwhile far under what decoding
 * any of them would take (400 MB and more).
 */

const FIELDS = ['id_card_img', 'id_card_back_img', 'passport_img', 'sign_applicant', 'pay_voucher'] as const;
type Field = (typeof FIELDS)[number];

for (const storeName of storeNames()) {
  describe(`whole documents only (${storeName})`, () => {
    let service: DocumentService;
    let images: DocumentServer;
    let partner: TestPartner;
    let n = 0;

    before(async () => {
      images = await startDocumentServer();
      service = await startDocumentService(storeName);
      partner = await newPartner(service);
    });
    after(async () => {
      await service.close();
      await images.close();
    });

    async function outcomes(bodies: Record<Field, Buffer>) {
      const urls = Object.fromEntries(
        FIELDS.map((field) => [
          field,
          images.route(`/${storeName}/${n}/${field}`, { kind: 'bytes', body: bodies[field] }),
        ]),
      );
      const body = { ...uniqueApplicant(n++, partner.appId), ...urls, timestamp: nowSeconds() };
      // The encoders just held the event loop (seconds for the floods): a turn lets the service's
      // keep-alive timers close the connections they ran out, before the client reuses one (reset).
      await new Promise((resolve) => setTimeout(resolve, 100));
      const reply = await post(service.baseUrl, PATHS.apply, body, { token: partner.token });
      assert.equal(reply.status, 200, reply.text);
      return settledDocuments(service, partner, (reply.body.data as { busi_water_no: string }).busi_water_no);
    }

    test('whole files by real encoders are kept byte for byte', async () => {
      const bodies: Record<Field, Buffer> = {
        id_card_img: encode('jpeg', 640, 420),
        id_card_back_img: encode('progressive-jpeg', 640, 420),
        passport_img: encode('webp', 640, 420),
        sign_applicant: encode('png', 640, 420),
        pay_voucher: await pdfDocument(true),
      };
      const documents = await outcomes(bodies);
      for (const field of FIELDS) {
        assert.equal(documents[field]?.state, 'kept', `${field}: ${JSON.stringify(documents[field])}`);
        assert.equal(documents[field]?.sha256, sha256(bodies[field]), field);
      }
    });

    test('truncated PNG, JPEG, WebP and PDF are refused truncated; HTML behind %PDF- is refused', async () => {
      const png = encode('png', 640, 420);
      const pdf = await pdfDocument();
      const documents = await outcomes({
        // The finding: Content-Length 1000 of a PNG of some hundred KB (the server says 200).
        id_card_img: png.subarray(0, 1000),
        id_card_back_img: encode('jpeg', 640, 420).subarray(0, 20_000),
        passport_img: encode('webp', 640, 420).subarray(0, 30_000),
        sign_applicant: Buffer.from(
          '%PDF-1.7\n<html><body><script>fetch("/admin/v1/applications")</script></body></html>\n',
        ),
        pay_voucher: pdf.subarray(0, pdf.length - 10),
      });
      assert.deepEqual(
        Object.fromEntries(FIELDS.map((f) => [f, documents[f]?.reason ?? documents[f]?.state])),
        {
          id_card_img: 'truncated',
          id_card_back_img: 'truncated',
          passport_img: 'truncated',
          sign_applicant: 'truncated',
          pay_voucher: 'truncated',
        },
      );
    });

    test('padded and disguised files are not documents', async () => {
      const html = Buffer.from('<html><script>alert(1)</script></html>');
      const pdfEnd = Buffer.from(
        '%PDF-1.4\n<html></html>\nxref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size 1 >>\nstartxref\n',
      );
      const documents = await outcomes({
        id_card_img: Buffer.concat([encode('png', 640, 420), html]),
        id_card_back_img: Buffer.concat([encode('webp', 640, 420), html]),
        passport_img: encode('jpeg', 640, 420),
        sign_applicant: Buffer.concat([pdfEnd, Buffer.from(`${pdfEnd.indexOf('xref\n')}\n%%EOF\n`)]),
        pay_voucher: encode('png', 640, 420),
      });
      assert.equal(documents.id_card_img?.reason, 'not_a_document');
      assert.equal(documents.id_card_back_img?.reason, 'not_a_document');
      assert.equal(documents.sign_applicant?.reason, 'not_a_document');
      assert.equal(documents.passport_img?.state, 'kept');
    });

    test('the three pixel floods end too_large from their headers, never decoded', async () => {
      const floods = {
        id_card_img: pngClaiming(encode('png', 640, 420), 100_000, 100_000),
        id_card_back_img: jpegClaiming(encode('jpeg', 640, 420), 65_500, 65_500),
        passport_img: whitePng(20_000, 20_000),
        sign_applicant: encode('png', 640, 420),
        pay_voucher: encode('jpeg', 640, 420),
      };
      assert.ok(floods.passport_img.length < 400_000, `${floods.passport_img.length} bytes on the wire`);
      global.gc?.();
      const idle = process.memoryUsage().rss;
      let peak = idle;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
      let documents;
      try {
        documents = await outcomes(floods);
      } finally {
        clearInterval(sampler);
      }
      assert.equal(documents.id_card_img?.reason, 'too_large');
      assert.equal(documents.id_card_back_img?.reason, 'too_large');
      assert.equal(documents.passport_img?.reason, 'too_large');
      assert.equal(documents.sign_applicant?.state, 'kept');
      const grewMb = (peak - idle) / 1e6;
      // Decoding the smallest of them would take 400 MB (20000 × 20000 × 1 byte, grey) and more.
      assert.ok(grewMb < 64, `the service grew by ${grewMb.toFixed(1)} MB meanwhile`);
    });
  });
}

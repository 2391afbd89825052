import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PATHS } from '../../src/http/paths.ts';
import { pngImage, sha256 } from '../helpers/documentImages.ts';
import { encode } from '../helpers/encodedDocuments.ts';
import { startDocumentServer, type DocumentServer } from '../helpers/documentServer.ts';
import {
  queryStatus,
  settledDocuments,
  startDocumentService,
  type DocumentService,
} from '../helpers/documentService.ts';
import { ADMIN, call, newOperator, type TestOperator } from '../helpers/operators.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { newPartner, nowSeconds, post, type TestPartner } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * Issue 23 over HTTP on every store, against a real HTTP server the test starts: the five images
 * fetched after the acknowledgement, checked by their bytes and kept; each failure ends in its
 * reason; the same photo under two applicants is flagged; an amend brings a new fetch.
 */

const FIELDS = ['id_card_img', 'id_card_back_img', 'passport_img', 'sign_applicant', 'pay_voucher'] as const;

for (const storeName of storeNames()) {
  describe(`documents over HTTP (${storeName})`, () => {
    let service: DocumentService;
    let images: DocumentServer;
    let partner: TestPartner;
    let reviewer: TestOperator;
    let n = 0;

    before(async () => {
      images = await startDocumentServer();
      service = await startDocumentService(storeName);
      partner = await newPartner(service);
      reviewer = await newOperator(service, 'reviewer');
    });
    after(async () => {
      await service.close();
      await images.close();
    });

    async function submit(urls: Record<string, string>): Promise<string> {
      const body = { ...uniqueApplicant(n++, partner.appId), ...urls, timestamp: nowSeconds() };
      const reply = await post(service.baseUrl, PATHS.apply, body, { token: partner.token });
      assert.equal(reply.status, 200, reply.text);
      return (reply.body.data as { busi_water_no: string }).busi_water_no;
    }

    const adminView = async (serial: string) => {
      const reply = await call(service, 'GET', `${ADMIN}/applications/${serial}`, { token: reviewer.token });
      assert.equal(reply.status, 200, reply.text);
      return reply.body.data as {
        documents: Record<string, { state: string; sha256?: string; reason?: string }>;
        risk_flags: { code: string; fields: string[]; params: Record<string, unknown> }[];
      };
    };

    test('five images are kept within seconds of the submit, each SHA-256 what was served', async () => {
      const served = Object.fromEntries(FIELDS.map((field, i) => [field, pngImage(320 + i * 40, 400)]));
      const urls = Object.fromEntries(
        FIELDS.map((field) => [
          field,
          images.route(`/${storeName}/ok/${field}.png`, { kind: 'bytes', body: served[field]! }),
        ]),
      );
      const submittedAt = Date.now();
      const serial = await submit(urls);
      const first = await queryStatus(service, partner, serial);
      assert.ok(
        Object.values(first.documents).every((d) => d.state === 'pending' || d.state === 'kept'),
        'pending right after the acknowledgement',
      );
      const documents = await settledDocuments(service, partner, serial, 10_000);
      assert.ok(Date.now() - submittedAt < 10_000);
      for (const field of FIELDS) {
        assert.equal(documents[field]?.state, 'kept', field);
        assert.equal(documents[field]?.type, 'image/png');
        assert.equal(documents[field]?.size, served[field]!.length);
        assert.equal(documents[field]?.sha256, sha256(served[field]!), field);
      }
      const metrics = await service.ctx.metrics.registry.metrics();
      assert.match(metrics, /cardapply_documents_total\{outcome="kept"\} [1-9]/);
      const view = await adminView(serial);
      assert.equal(view.documents['id_card_img']?.sha256, sha256(served['id_card_img']!));
      assert.deepEqual(
        view.risk_flags.filter((f) => f.code.startsWith('document_')),
        [],
      );
      // One documents_kept event through the outbox, with the outcomes and no URL.
      const events = await post(
        service.baseUrl,
        PATHS.events,
        { app_id: partner.appId, timestamp: nowSeconds(), busi_water_no: serial },
        { token: partner.token },
      );
      const items = (events.body.data as { items: { type: string; data: { documents?: unknown } }[] }).items;
      const kept = items.filter((e) => e.type === 'application.documents_kept');
      assert.equal(kept.length, 1);
      assert.equal(Object.keys(kept[0]!.data.documents as object).length, 5);
      assert.ok(!events.text.includes(images.origin), 'no URL in an event');
    });

    test('an HTML page, an oversized file, a tiny image and an unreachable host each fail with their reason', async () => {
      const closed = await startDocumentServer();
      const unreachable = `${closed.origin}/gone.png`;
      await closed.close();
      const hugePath = `/${storeName}/huge.png`;
      const serial = await submit({
        id_card_img: images.route(`/${storeName}/page.html`, {
          kind: 'bytes',
          body: Buffer.from('<!doctype html><html><body><img src="x.png"></body></html>'),
          contentType: 'image/png',
        }),
        id_card_back_img: images.route(hugePath, {
          kind: 'stream',
          total: 64 * 1024 * 1024,
          // A whole JPEG, then more of it: bytes after its end are allowed, so only the size stops it.
          fill: encode('jpeg', 400, 400, 1, true),
        }),
        passport_img: images.route(`/${storeName}/tiny.png`, { kind: 'bytes', body: pngImage(200, 120) }),
        sign_applicant: unreachable,
        pay_voucher: images.route(`/${storeName}/voucher.png`, { kind: 'bytes', body: pngImage(600, 400) }),
      });
      const documents = await settledDocuments(service, partner, serial);
      assert.deepEqual(
        Object.fromEntries(FIELDS.map((f) => [f, documents[f]?.reason ?? documents[f]?.state])),
        {
          id_card_img: 'not_a_document',
          id_card_back_img: 'too_large',
          passport_img: 'too_small',
          sign_applicant: 'unreachable',
          pay_voucher: 'kept',
        },
      );
      const huge = images.requests.find((r) => r.path === hugePath)!;
      await huge.done;
      assert.ok(huge.cutOff, 'the oversized body was cut off');
      assert.ok(huge.bytesWritten < 32 * 1024 * 1024, `${huge.bytesWritten} bytes written of 64 MiB`);
      const view = await adminView(serial);
      const missing = view.risk_flags.find((f) => f.code === 'document_missing');
      assert.deepEqual(missing?.fields.sort(), ['id_card_img', 'passport_img', 'sign_applicant']);

      // The reviewer asks for the passport image again; the amend brings a new fetch.
      const admin = (action: string, body: Record<string, unknown> = {}) =>
        call(service, 'POST', `${ADMIN}/applications/${serial}/${action}`, { token: reviewer.token, body });
      assert.equal((await admin('review')).status, 200);
      const ask = await admin('supplement', {
        reason_codes: ['image_missing'],
        requested_fields: ['passport_img'],
        reason: 'The passport image is too small to read.',
      });
      assert.equal(ask.status, 200, ask.text);
      const better = pngImage(800, 600);
      const amend = await post(
        service.baseUrl,
        PATHS.amend,
        {
          app_id: partner.appId,
          timestamp: nowSeconds(),
          busi_water_no: serial,
          passport_img: images.route(`/${storeName}/passport-retaken.png`, { kind: 'bytes', body: better }),
        },
        { token: partner.token },
      );
      assert.equal(amend.status, 200, amend.text);
      const amended = amend.body.data as { documents: Record<string, { state: string }> };
      assert.equal(amended.documents['passport_img']?.state, 'pending', 'pending from the amend on');
      const after = await settledDocuments(service, partner, serial);
      assert.equal(after['passport_img']?.sha256, sha256(better));
    });

    test('a redirect to a loopback address is refused when private addresses are not allowed', async () => {
      const outside = await startDocumentServer('127.0.0.2');
      const documents = service.ctx.config.documents;
      // 127.0.0.2 stands in for a public host; 127.0.0.1 is the service's own network.
      documents.addressAllowed = (address) => address === '127.0.0.2';
      try {
        const secret = images.route(`/${storeName}/internal`, { kind: 'bytes', body: pngImage(400, 400) });
        const reached = images.requests.length;
        const ok = FIELDS.filter((f) => f !== 'id_card_img').map((f) => [
          f,
          outside.route(`/${f}.png`, { kind: 'bytes', body: pngImage(400, 400) }),
        ]);
        const serial = await submit({
          ...Object.fromEntries(ok),
          id_card_img: outside.route('/to-loopback', { kind: 'redirect', location: secret }),
        });
        const outcomes = await settledDocuments(service, partner, serial);
        assert.equal(outcomes['id_card_img']?.reason, 'refused_address');
        assert.equal(outcomes['passport_img']?.state, 'kept');
        assert.equal(images.requests.length, reached, 'the loopback server was never asked');
      } finally {
        documents.addressAllowed = undefined;
        await outside.close();
      }
    });

    test('the same photo under two applicants flags document_reused, naming the other serial', async () => {
      const photo = pngImage(500, 500);
      const urls = (tag: string) =>
        Object.fromEntries(
          FIELDS.map((field) => [
            field,
            images.route(`/${storeName}/${tag}/${field}.png`, {
              kind: 'bytes',
              body: field === 'id_card_img' ? photo : pngImage(400, 400),
            }),
          ]),
        );
      const first = await submit(urls('first'));
      const second = await submit(urls('second'));
      await settledDocuments(service, partner, first);
      await settledDocuments(service, partner, second);
      const flag = (await adminView(second)).risk_flags.find((f) => f.code === 'document_reused');
      assert.deepEqual(flag?.fields, ['id_card_img']);
      assert.equal(flag?.params['serial'], first);
      const back = (await adminView(first)).risk_flags.find((f) => f.code === 'document_reused');
      assert.equal(back?.params['serial'], second);
    });
  });
}

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { parseEncryptionKeys } from '../../src/crypto/keyRing.ts';
import { readBlob } from '../../src/documents/documentStore.ts';
import { documentRows } from '../../src/documents/documentRepository.ts';
import { StatusView } from '../../src/applications/views/queryApplication.ts';
import { PATHS } from '../../src/http/paths.ts';
import { reencryptAll } from '../../src/keys/reencrypt.ts';
import { runRetention } from '../../src/retention/retention.ts';
import { compileValidator } from '../../src/validation/schemaValidator.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { pngImage, sha256 } from '../helpers/documentImages.ts';
import { startDocumentServer, type DocumentServer } from '../helpers/documentServer.ts';
import {
  queryStatus,
  settledDocuments,
  startDocumentService,
  type DocumentService,
} from '../helpers/documentService.ts';
import { ADMIN, call, newOperator, type TestOperator } from '../helpers/operators.ts';
import { newPartner, nowSeconds, post, type TestPartner } from '../helpers/service.ts';
import { storeNames, TEST_ENCRYPTION_KEYS } from '../helpers/stores.ts';

/**
 * The kept copies shown from the service: once the partner's server is gone, the admin API still
 * serves every image, only inside an audited opening for review (one audit row for the viewing),
 * with its own type and no caching. The chunks follow a key rotation, and retention erases them.
 */

/** What every document response carries, a refusal too (issue 54). */
function assertDocumentHeaders(response: Response): void {
  assert.equal(response.headers.get('content-security-policy'), "default-src 'none'; sandbox");
  assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(response.headers.get('cache-control'), 'no-store');
}

const FIELDS = ['id_card_img', 'id_card_back_img', 'passport_img', 'sign_applicant', 'pay_voucher'] as const;

for (const storeName of storeNames()) {
  describe(`kept documents in the admin API (${storeName})`, () => {
    let service: DocumentService;
    let images: DocumentServer;
    let partner: TestPartner;
    let reviewer: TestOperator;
    let viewer: TestOperator;
    let serial: string;
    const served = Object.fromEntries(FIELDS.map((field, i) => [field, pngImage(400 + i, 300 + i)]));

    before(async () => {
      images = await startDocumentServer();
      service = await startDocumentService(storeName, { ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS });
      partner = await newPartner(service);
      reviewer = await newOperator(service, 'reviewer');
      viewer = await newOperator(service, 'viewer');
      const urls = Object.fromEntries(
        FIELDS.map((field) => [
          field,
          images.route(`/${field}.png`, { kind: 'bytes', body: served[field]! }),
        ]),
      );
      const reply = await post(
        service.baseUrl,
        PATHS.apply,
        { ...uniqueApplicant(7_000, partner.appId), ...urls, timestamp: nowSeconds() },
        { token: partner.token },
      );
      assert.equal(reply.status, 200, reply.text);
      serial = (reply.body.data as { busi_water_no: string }).busi_water_no;
      await settledDocuments(service, partner, serial);
      // The partner's server is gone: from now on only the kept copies exist.
      await images.close();
    });
    after(() => service.close());

    const documentOf = (operator: TestOperator, field: string) =>
      fetch(`${service.baseUrl}${ADMIN}/applications/${serial}/documents/${field}`, {
        headers: { authorization: `Bearer ${operator.token}` },
      });
    const admin = (action: string, body: Record<string, unknown> = {}) =>
      call(service, 'POST', `${ADMIN}/applications/${serial}/${action}`, { token: reviewer.token, body });
    const openings = async () =>
      (
        await service.ctx.store.db
          .selectFrom('audit_log')
          .select('id')
          .where('target_id', '=', serial)
          .where('action', '=', 'application.review_open')
          .execute()
      ).length;

    test('served only after an audited opening for review, one audit row for the viewing', async () => {
      const unopened = await documentOf(reviewer, 'id_card_img');
      assert.equal(unopened.status, 403);
      assertDocumentHeaders(unopened);
      assert.equal(((await unopened.json()) as { code: number }).code, 40320);
      assert.equal((await documentOf(viewer, 'id_card_img')).status, 403);

      assert.equal((await admin('review')).status, 200);
      assert.equal((await admin('claim')).status, 200);
      const opened = await admin('open-for-review', { purpose: 'identity_check' });
      assert.equal(opened.status, 200, opened.text);
      assert.equal(await openings(), 1);
      for (const field of FIELDS) {
        const response = await documentOf(reviewer, field);
        assert.equal(response.status, 200, field);
        assert.equal(response.headers.get('content-type'), 'image/png');
        assertDocumentHeaders(response);
        assert.equal(
          response.headers.get('content-disposition'),
          `attachment; filename="${serial}-${field}.png"`,
        );
        const bytes = Buffer.from(await response.arrayBuffer());
        assert.equal(sha256(bytes), sha256(served[field]!), field);
      }
      assert.equal(await openings(), 1, 'viewing added no audit row');
      const unknown = await documentOf(reviewer, 'cert_id');
      assert.equal(unknown.status, 422);
      assertDocumentHeaders(unknown);
    });

    test('an amend whose new image cannot be fetched leaves the previous copy viewable, marked so', async () => {
      const ask = await admin('supplement', {
        reason_codes: ['image_missing'],
        requested_fields: ['passport_img'],
        reason: 'Please send the passport image again.',
      });
      assert.equal(ask.status, 200, ask.text);
      // The partner's server is gone: the new URL is unreachable, and fails for good at once.
      const amend = await post(
        service.baseUrl,
        PATHS.amend,
        {
          app_id: partner.appId,
          timestamp: nowSeconds(),
          busi_water_no: serial,
          passport_img: `${images.origin}/passport-retaken.png`,
        },
        { token: partner.token },
      );
      assert.equal(amend.status, 200, amend.text);
      const outcomes = await settledDocuments(service, partner, serial);
      assert.deepEqual(outcomes['passport_img'], { state: 'failed', reason: 'unreachable' });
      // The partner's views never carry the copy kept of the replaced image: not the status, not
      // the amend's answer, and they hold to the partner's schema (which declares no `previous`).
      const status = await queryStatus(service, partner, serial);
      const checked = compileValidator(StatusView)(status);
      assert.ok(checked.ok, JSON.stringify(checked));
      assert.doesNotMatch(JSON.stringify(status), /"previous"/);
      assert.doesNotMatch(amend.text, /"previous"/);
      assert.ok(compileValidator(StatusView)(amend.body.data).ok, amend.text);

      const view = await call(service, 'GET', `${ADMIN}/applications/${serial}`, { token: reviewer.token });
      assert.equal(view.status, 200, view.text);
      const passport = (view.body.data as { documents: Record<string, Record<string, unknown>> }).documents[
        'passport_img'
      ]!;
      assert.equal(passport['state'], 'failed');
      assert.equal(passport['reason'], 'unreachable');
      const previous = passport['previous'] as { sha256: string; type: string } | undefined;
      assert.equal(previous?.sha256, sha256(served['passport_img']!));
      assert.equal(previous?.type, 'image/png');

      const response = await documentOf(reviewer, 'passport_img');
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('x-document-copy'), 'previous');
      assert.equal(sha256(Buffer.from(await response.arrayBuffer())), sha256(served['passport_img']!));
      const current = await documentOf(reviewer, 'id_card_img');
      assert.equal(current.headers.get('x-document-copy'), 'current');
      await current.arrayBuffer();
    });

    test('the chunks move to a new key with keys reencrypt and still read back', async () => {
      const ring = parseEncryptionKeys(
        `${TEST_ENCRYPTION_KEYS},t2:${Buffer.alloc(32, 9).toString('base64')}`,
      );
      const report = await reencryptAll({ store: service.ctx.store, keyRing: ring }, { batchSize: 7 });
      assert.ok((report.moved['document_chunks'] ?? 0) >= 5);
      const keys = await service.ctx.store.db
        .selectFrom('document_chunks')
        .select('key_id')
        .distinct()
        .execute();
      assert.deepEqual(
        keys.map((k) => k.key_id),
        ['t2'],
      );
      for (const row of await documentRows(service.ctx.store.db, [serial])) {
        const hash = createHash('sha256');
        for await (const part of readBlob({ store: service.ctx.store, keyRing: ring }, row))
          hash.update(part);
        assert.equal(hash.digest('hex'), sha256(served[row.field]!));
      }
    });

    test('retention erases the documents with the application', async () => {
      const cancelled = await post(
        service.baseUrl,
        PATHS.cancel,
        { app_id: partner.appId, timestamp: nowSeconds(), busi_water_no: serial },
        { token: partner.token },
      );
      assert.equal(cancelled.status, 200, cancelled.text);
      const later = { ...service.ctx, now: () => Date.now() + 3 * 86_400_000 };
      const report = await runRetention(later, { days: 1, dryRun: false, source: 'test' });
      assert.ok(report.serials.includes(serial));
      const left = await service.ctx.store.db
        .selectFrom('document_chunks')
        .select('chunk_id')
        .where('busi_water_no', '=', serial)
        .execute();
      assert.equal(left.length, 0);
      assert.deepEqual(await documentRows(service.ctx.store.db, [serial]), []);
    });
  });
}

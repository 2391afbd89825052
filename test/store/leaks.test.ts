import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generateCardNumber } from '../../src/cards/cardNumber.ts';
import { PATHS } from '../../src/http/paths.ts';
import { SQLITE_FILE } from '../../src/store/connect.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { pngImage } from '../helpers/documentImages.ts';
import { startDocumentServer, type DocumentServer } from '../helpers/documentServer.ts';
import { settledDocuments, startDocumentService } from '../helpers/documentService.ts';
import { newPartner, post, type TestService } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * Identity data never rests in the clear: the raw database (SQLite file and its WAL, or a
 * pg_dump) and the logs are searched for every identity value the test sent, accepted or refused,
 * and for the kept documents' bytes (as they are, in hex as pg_dump writes bytea, and in base64)
 * and their URLs.
 */
for (const storeName of storeNames()) {
  describe(`identity data at rest on ${storeName}`, () => {
    let service: TestService;
    let images: DocumentServer;
    const secrets: string[] = [];
    /** Runs of the documents' bytes as served. */
    const documentBytes: Buffer[] = [];

    before(async () => {
      images = await startDocumentServer();
      service = await startDocumentService(storeName);
      const partner = await newPartner(service);
      for (let i = 0; i < 10; i++) {
        const cardNo = generateCardNumber(service.ctx.config.card);
        const applicant = uniqueApplicant(i, partner.appId, {
          card_no: cardNo,
          mob_no: `1390013${String(4000 + i)}`,
          consignee_mob_no: `1370013${String(5000 + i)}`,
          email: `zhang.wei.${i}@example.org`,
          name: '欧阳娜娜',
          name_en: 'OUYANG NANA',
          consignee: '欧阳娜娜',
        });
        const reply = await post(service.baseUrl, PATHS.apply, applicant, { token: partner.token });
        assert.equal(reply.status, 200, reply.text);
        secrets.push(
          applicant.cert_id,
          cardNo,
          applicant.mob_no,
          applicant.consignee_mob_no,
          applicant.email,
          applicant.pay_pwd,
        );
        // The same values in a refused request must not leak through error messages or logs either.
        const refused = await post(
          service.baseUrl,
          PATHS.apply,
          { ...applicant, sex: 'F', email: `${applicant.email}@` },
          { token: partner.token },
        );
        assert.equal(refused.status, 422);
        for (const value of [applicant.cert_id, applicant.email, cardNo])
          assert.ok(!refused.text.includes(value));
      }
      secrets.push('欧阳娜娜', 'OUYANG NANA');
      // Documents fetched, checked and kept: their bytes and URLs must not rest in the clear.
      const urls: Record<string, string> = {};
      for (const field of [
        'id_card_img',
        'id_card_back_img',
        'passport_img',
        'sign_applicant',
        'pay_voucher',
      ]) {
        const image = pngImage(400, 320);
        urls[field] = images.route(`/leak/${field}.png?signature=s3cr3t-${field}`, {
          kind: 'bytes',
          body: image,
        });
        for (const at of [200, 100_000, image.length - 300]) documentBytes.push(image.subarray(at, at + 48));
        secrets.push(urls[field]);
      }
      const withDocuments = await post(
        service.baseUrl,
        PATHS.apply,
        { ...uniqueApplicant(98, partner.appId), ...urls },
        { token: partner.token },
      );
      assert.equal(withDocuments.status, 200, withDocuments.text);
      const kept = await settledDocuments(
        service,
        partner,
        (withDocuments.body.data as { busi_water_no: string }).busi_water_no,
      );
      assert.ok(Object.values(kept).every((d) => d.state === 'kept'));
      // An assigned card number too: read it back through the key ring to know what to look for.
      const assigned = uniqueApplicant(99, partner.appId);
      const reply = await post(service.baseUrl, PATHS.apply, assigned, { token: partner.token });
      const serial = (reply.body.data as { busi_water_no: string }).busi_water_no;
      const row = await service.ctx.store.db
        .selectFrom('applications')
        .select('payload_enc')
        .where('busi_water_no', '=', serial)
        .executeTakeFirstOrThrow();
      secrets.push(
        (JSON.parse(service.ctx.keyRing.decrypt(row.payload_enc, serial)) as { card_no: string }).card_no,
      );
    });
    after(async () => {
      await service.close();
      await images.close();
    });

    function assertAbsent(haystack: Buffer, where: string): void {
      const found = secrets.filter((value) => haystack.includes(Buffer.from(value, 'utf8')));
      assert.deepEqual(found, [], `${where} holds identity data in the clear`);
      const bytes = documentBytes.filter(
        (run) =>
          haystack.includes(run) ||
          haystack.includes(Buffer.from(run.toString('hex'))) ||
          haystack.includes(Buffer.from(run.toString('base64').slice(0, 60))),
      );
      assert.equal(bytes.length, 0, `${where} holds document bytes in the clear`);
    }

    test('the raw store holds no identity value in the clear', async () => {
      if (storeName === 'sqlite') {
        const file = join(service.target.dataDir, SQLITE_FILE);
        // Read by another process: closing a descriptor of the file in this one would drop the
        // POSIX locks SQLite holds on it.
        const raw = Buffer.concat(
          [file, `${file}-wal`]
            .filter(existsSync)
            .map((f) => execFileSync('cat', [f], { maxBuffer: 256 * 1024 * 1024 })),
        );
        assert.ok(raw.length > 10_000, 'the database file was read');
        assertAbsent(raw, 'the SQLite file');
      } else {
        const url = new URL(process.env['DATABASE_URL']!);
        const dump = execFileSync(
          'pg_dump',
          [
            '--no-owner',
            '-n',
            service.target.schema!,
            '-h',
            url.hostname,
            '-p',
            url.port || '5432',
            '-U',
            url.username || 'postgres',
            url.pathname.slice(1),
          ],
          {
            maxBuffer: 256 * 1024 * 1024,
          },
        );
        assert.ok(dump.includes(Buffer.from('CREATE TABLE')), 'pg_dump produced a dump');
        assertAbsent(dump, 'pg_dump');
      }
    });

    test('the logs hold no identity value', () => {
      const logs = Buffer.from(service.logs.join(''), 'utf8');
      assert.ok(service.logs.length >= 20, 'one log line per request was written');
      assertAbsent(logs, 'the logs');
    });
  });
}

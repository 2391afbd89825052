import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { hkidCheckDigit } from '../../src/applications/validation/checks/identity.ts';
import { validApplicant } from '../helpers/applicantFixture.ts';
import { documentHash, legacyDocumentHash } from '../../src/applications/rules/documentHash.ts';
import {
  findLegacyDuplicate,
  rekeyDocuments,
  rekeyFinished,
} from '../../src/applications/commands/documentRekey.ts';
import type { ApplicationRequest } from '../../src/record/schema.ts';
import { startKeyJobs } from '../../src/keys/keyJobs.ts';
import { createLogger } from '../../src/logger.ts';
import { PATHS } from '../../src/http/paths.ts';
import {
  newPartner,
  nowSeconds,
  post,
  startService,
  type TestPartner,
  type TestService,
} from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * The re-keying of the duplicate check's document hash (migration 0006): applications stored by the
 * previous version carry the hash of their upper-cased number as sent; the job moves them to the
 * hash of the canonical number, batch by batch, resumably; until it is done, a submission is caught
 * under both. Rows "of the previous version" are made by writing the old hash into rows stored now.
 */

interface Row {
  cert_hash: string;
  active_cert_hash: string | null;
  cert_hash_version: number;
}

for (const storeName of storeNames()) {
  describe(`document hash re-keying on ${storeName}`, () => {
    let service: TestService;
    let partner: TestPartner;
    let seq = 0;

    before(async () => {
      service = await startService(storeName);
      partner = await newPartner(service);
    });
    after(() => service.close());

    /** A Hong Kong identity card holder with a fresh number (its check digit computed). */
    const hongKong = (overrides: Partial<ApplicationRequest> = {}): ApplicationRequest => {
      const digits = String(100000 + seq++).padStart(6, '0');
      return validApplicant({
        app_id: partner.appId,
        timestamp: nowSeconds(),
        country: 'HK',
        cert_id: `K${digits}(${hkidCheckDigit('K', digits)})`,
        cert_start_date: undefined,
        name: '陳大文',
        name_en: 'CHAN TAI MAN',
        address: '香港九龙弥敦道1号',
        mob_no: '91234567',
        mob_no_of: '+852',
        consignee_mob_no: '91234567',
        consignee_mob_no_of: '+852',
        consignee_address: '香港九龙弥敦道1号',
        ...overrides,
      });
    };
    const submit = (body: ApplicationRequest) =>
      post(service.baseUrl, PATHS.apply, body, { token: partner.token });
    const serialOf = (reply: Awaited<ReturnType<typeof submit>>) =>
      (reply.body.data as { busi_water_no: string }).busi_water_no;
    const row = async (serial: string) =>
      (
        await sql<Row>`select cert_hash, active_cert_hash, cert_hash_version from ${service.ctx.store.table('applications')}
          where busi_water_no = ${serial}`.execute(service.ctx.store.db)
      ).rows[0]!;
    /** Makes a stored row look written by the previous version: the old hash of the number as sent. */
    const asPreviousVersion = async (serial: string, certType: string, sent: string) => {
      const old = legacyDocumentHash(service.ctx.keyRing, certType, sent);
      await sql`update ${service.ctx.store.table('applications')} set cert_hash = ${old}, cert_hash_version = 1,
        active_cert_hash = case when active_cert_hash is null then null else cast(${old} as text) end
        where busi_water_no = ${serial}`.execute(service.ctx.store.db);
    };
    const pendingCount = async () =>
      Number(
        (
          await sql<{
            n: number | string;
          }>`select count(*) as n from ${service.ctx.store.table('applications')} where cert_hash_version = 1`.execute(
            service.ctx.store.db,
          )
        ).rows[0]!.n,
      );
    const cancel = (serial: string) =>
      post(
        service.baseUrl,
        PATHS.cancel,
        { app_id: partner.appId, timestamp: nowSeconds(), busi_water_no: serial },
        { token: partner.token },
      );

    test('new applications carry the canonical hash at version 2', async () => {
      const app = hongKong();
      const reply = await submit({ ...app, cert_id: app.cert_id.toLowerCase().replace('(', ' (') });
      assert.equal(reply.status, 200, reply.text);
      const stored = await row(serialOf(reply));
      assert.equal(stored.cert_hash_version, 2);
      const canonical = app.cert_id.replace(/[()]/g, '');
      assert.equal(stored.cert_hash, documentHash(service.ctx.keyRing, '00', canonical));
      assert.equal(stored.active_cert_hash, stored.cert_hash);
    });

    test('an old row is caught under its old hash until re-keyed, then under the canonical one', async () => {
      const app = hongKong();
      const first = await submit(app);
      assert.equal(first.status, 200, first.text);
      const serial = serialOf(first);
      await asPreviousVersion(serial, '00', app.cert_id);

      // Written another way: the canonical hash misses the old row, the old-hash lookup finds it.
      const plain = app.cert_id.replace(/[()]/g, '');
      for (const written of [
        plain,
        app.cert_id.toLowerCase(),
        `${plain.slice(0, -1)} (${plain.slice(-1)})`,
      ]) {
        const again = await submit({ ...app, timestamp: nowSeconds(), cert_id: written });
        assert.equal(again.status, 409, `${written}: ${again.text}`);
        assert.deepEqual(again.body.data, { busi_water_no: serial });
      }

      const report = await rekeyDocuments(service.ctx, { batchSize: 50 });
      assert.ok(report.rekeyed >= 1, JSON.stringify(report));
      const rekeyed = await row(serial);
      assert.equal(rekeyed.cert_hash_version, 2);
      assert.equal(rekeyed.cert_hash, documentHash(service.ctx.keyRing, '00', plain));
      assert.equal(rekeyed.active_cert_hash, rekeyed.cert_hash);
      assert.equal(report.pending, 0);
      assert.equal(rekeyFinished(service.ctx.store), true);
      // Done: no old-hash lookups any more, and the canonical hash catches every form.
      assert.equal(
        await findLegacyDuplicate(service.ctx, { cert_type: '00', cert_id: app.cert_id }),
        undefined,
      );
      const after = await submit({ ...app, timestamp: nowSeconds(), cert_id: plain });
      assert.equal(after.status, 409, after.text);
    });

    test('two active applications the old hash let through: one waits until the other is final', async () => {
      const app = hongKong();
      const plain = app.cert_id.replace(/[()]/g, '');
      const bracketed = await submit(app);
      assert.equal(bracketed.status, 200, bracketed.text);
      const other = hongKong(); // stored under another number, then made the same document
      const second = await submit(other);
      assert.equal(second.status, 200, second.text);
      const [a, b] = [serialOf(bracketed), serialOf(second)];
      // The second is the same document written C6686689: the previous version's hash of that form
      // is the canonical hash, which its active row then holds.
      const payload = JSON.stringify({ ...other, cert_id: plain });
      const enc = service.ctx.keyRing.encrypt(payload, b);
      await sql`update ${service.ctx.store.table('applications')} set payload_enc = ${enc}, key_id = ${service.ctx.keyRing.keyIdOf(enc)}
        where busi_water_no = ${b}`.execute(service.ctx.store.db);
      await asPreviousVersion(a, '00', app.cert_id);
      await asPreviousVersion(b, '00', plain);

      const first = await rekeyDocuments(service.ctx, { batchSize: 50 });
      assert.deepEqual(first.conflicts, [a]);
      assert.equal(first.pending, 1);
      assert.equal((await row(a)).cert_hash_version, 1);
      assert.equal((await row(b)).cert_hash_version, 2);
      // Pending again: submissions look under the old hashes too; the document stays blocked.
      assert.equal(rekeyFinished(service.ctx.store), false);
      const legacy = await findLegacyDuplicate(service.ctx, { cert_type: '00', cert_id: plain });
      assert.equal(legacy?.busi_water_no, a);
      const written = await submit({ ...app, timestamp: nowSeconds() });
      assert.equal(written.status, 409, written.text);

      const cancelled = await cancel(b);
      assert.equal(cancelled.status, 200, cancelled.text);
      const second2 = await rekeyDocuments(service.ctx, { batchSize: 50 });
      assert.deepEqual(second2.conflicts, []);
      assert.equal(second2.pending, 0);
      const rekeyed = await row(a);
      assert.equal(rekeyed.cert_hash_version, 2);
      assert.equal(rekeyed.active_cert_hash, documentHash(service.ctx.keyRing, '00', plain));
      assert.equal((await row(b)).active_cert_hash, null);
    });

    test('a stopped run resumes where rows are left; final rows keep no active hash', async () => {
      const serials: string[] = [];
      for (let i = 0; i < 7; i++) {
        const app = hongKong();
        const reply = await submit(app);
        assert.equal(reply.status, 200, reply.text);
        serials.push(serialOf(reply));
        await asPreviousVersion(serialOf(reply), '00', app.cert_id);
      }
      assert.equal((await cancel(serials[3]!)).status, 200);
      let batches = 0;
      const partial = await rekeyDocuments(service.ctx, { batchSize: 2, shouldStop: () => batches++ >= 2 });
      assert.ok(partial.pending > 0 && partial.pending < 7, JSON.stringify(partial));
      const rest = await rekeyDocuments(service.ctx, { batchSize: 2 });
      assert.equal(rest.pending, 0);
      assert.equal(partial.rekeyed + rest.rekeyed, 7);
      for (const serial of serials) assert.equal((await row(serial)).cert_hash_version, 2);
      assert.equal((await row(serials[3]!)).active_cert_hash, null);
    });

    test('a row that cannot be decrypted is reported and stays pending; an erased one is only marked', async () => {
      const damaged = await submit(hongKong());
      const erased = await submit(hongKong());
      const [d, e] = [serialOf(damaged), serialOf(erased)];
      await sql`update ${service.ctx.store.table('applications')} set cert_hash_version = 1, payload_enc = ${'v1:t1:not-a-ciphertext'}
        where busi_water_no = ${d}`.execute(service.ctx.store.db);
      const tombstone = service.ctx.keyRing.encrypt(JSON.stringify({ erased: true, erased_at: 1 }), e);
      await sql`update ${service.ctx.store.table('applications')} set cert_hash_version = 1, payload_enc = ${tombstone},
        cert_hash = 'erased', active_cert_hash = null where busi_water_no = ${e}`.execute(
        service.ctx.store.db,
      );
      const report = await rekeyDocuments(service.ctx, { batchSize: 10 });
      assert.deepEqual(report.failed, [d]);
      assert.equal(report.pending, 1);
      assert.equal(await pendingCount(), 1);
      const marked = await row(e);
      assert.equal(marked.cert_hash_version, 2);
      assert.equal(marked.cert_hash, 'erased');
    });
  });
}

for (const storeName of storeNames()) {
  test(`on ${storeName}, a process that does not re-key ends its old-hash lookups once none is left`, async () => {
    // Another process of the cluster re-keys (WORKERS): this one only watches, every second here.
    const service = await startService(storeName, { REENCRYPT_INTERVAL_SECONDS: '1' });
    const jobs = startKeyJobs(service.ctx, createLogger({ logLevel: 'silent' }), { jobs: false });
    try {
      const partner = await newPartner(service);
      const reply = await post(
        service.baseUrl,
        PATHS.apply,
        validApplicant({ app_id: partner.appId, timestamp: nowSeconds() }),
        { token: partner.token },
      );
      assert.equal(reply.body.code, 0, reply.text);
      const serial = (reply.body.data as { busi_water_no: string }).busi_water_no;
      const applications = service.ctx.store.table('applications');
      const setVersion = (version: number) =>
        sql`update ${applications} set cert_hash_version = ${version} where busi_water_no = ${serial}`.execute(
          service.ctx.store.db,
        );
      await setVersion(1);
      // Two watches go by with a row under the old hash: the lookups go on.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      assert.equal(rekeyFinished(service.ctx.store), false);
      // The re-keying process moves it: the next watch ends them.
      await setVersion(2);
      const until = Date.now() + 10_000;
      while (!rekeyFinished(service.ctx.store) && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(rekeyFinished(service.ctx.store), true);
    } finally {
      await jobs.stop();
      await service.close();
    }
  });
}

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { submitApplication } from '../src/applications/submitApplication.ts';
import { createApp } from '../src/callers/credentials.ts';
import { documentFetchJob } from '../src/documents/fetchJob.ts';
import { listApplications } from '../src/applications/listApplications.ts';
import type { ClaimedJob } from '../src/jobs/jobQueue.ts';
import { createLogger } from '../src/logger.ts';
import { uniqueApplicant } from './helpers/applicants.ts';
import { pngImage } from './helpers/documentImages.ts';
import { startDocumentServer, type DocumentServer } from './helpers/documentServer.ts';
import { callerOf } from './helpers/operators.ts';
import { startService, type TestService } from './helpers/service.ts';
import { storeNames } from './helpers/stores.ts';

/**
 * The `documents.fetch` kind run directly, as the runner would: the jobs an event asks for, an
 * unreachable document tried again with backoff until DOCUMENT_FETCH_HOURS and then failed for
 * good, and a run repeated (an at-least-once relay, a crash) doing nothing twice.
 */
const FIELDS = ['id_card_img', 'id_card_back_img', 'passport_img', 'sign_applicant', 'pay_voucher'] as const;
const HOUR = 3_600_000;
const silent = createLogger({ logLevel: 'silent' });

for (const storeName of storeNames()) {
  describe(`the documents.fetch job (${storeName})`, () => {
    let service: TestService;
    let images: DocumentServer;
    let appId: string;
    let n = 0;

    before(async () => {
      images = await startDocumentServer();
      service = await startService(storeName, { DOCUMENT_ALLOW_PRIVATE: 'true', DOCUMENT_FETCH_HOURS: '2' });
      appId = (await createApp(service.ctx.store.db, 'job partner', Date.now())).app_id;
    });
    after(async () => {
      await service.close();
      await images.close();
    });

    const submit = async (urls: Record<string, string>) =>
      (await submitApplication(service.ctx, callerOf(appId), { ...uniqueApplicant(n++, appId), ...urls }))
        .busi_water_no;
    const job = (serial: string, fields: readonly string[], createdAt: number, attempts = 1): ClaimedJob => ({
      id: `job_${serial}`,
      kind: 'documents.fetch',
      key: `evt_${serial}`,
      busi_water_no: serial,
      payload: { fields },
      attempts,
      created_at: createdAt,
      give_up_at: null,
    });
    const eventsOf = async (serial: string) =>
      (
        await service.ctx.store.db
          .selectFrom('events')
          .select('type')
          .where('busi_water_no', '=', serial)
          .orderBy('seq')
          .execute()
      ).map((e) => e.type);

    test('a submission asks for all five fields, an amend for the image fields it sends', () => {
      const event = (type: string, payload: Record<string, unknown>) => ({
        event_id: 'evt_1',
        app_id: appId,
        busi_water_no: 'S1',
        type,
        payload: payload as never,
        created_at: 0,
      });
      assert.deepEqual(documentFetchJob.onEvent!.jobsFor(event('application.submitted', {}))[0]?.payload, {
        fields: [...FIELDS],
      });
      const amended = documentFetchJob.onEvent!.jobsFor(
        event('application.amended', { amended_fields: ['cert_id', 'passport_img'] }),
      );
      assert.deepEqual(amended[0]?.payload, { fields: ['passport_img'] });
      assert.deepEqual(
        documentFetchJob.onEvent!.jobsFor(event('application.amended', { amended_fields: ['cert_id'] })),
        [],
      );
    });

    test('unreachable: tried again with backoff, failed for good after DOCUMENT_FETCH_HOURS', async () => {
      const urls = Object.fromEntries(
        FIELDS.map((f) => [
          f,
          images.route(`/${storeName}/job/${f}.png`, { kind: 'bytes', body: pngImage(400, 400) }),
        ]),
      );
      urls['sign_applicant'] = images.route(`/${storeName}/job/busy`, { kind: 'status', status: 503 });
      const serial = await submit(urls);
      const now = Date.now();
      const first = await documentFetchJob.run(
        service.ctx,
        job(serial, FIELDS, now),
        silent,
        new AbortController().signal,
      );
      assert.equal(first.outcome, 'retry');
      assert.ok(
        first.outcome === 'retry' && first.at >= now + 15_000 && first.at <= now + 31_000,
        'backoff 15-30 s',
      );
      assert.deepEqual(first.outcome === 'retry' && first.payload, { fields: ['sign_applicant'] });
      assert.equal(
        first.outcome === 'retry' && first.error?.includes(images.origin),
        false,
        'no URL in the error',
      );
      const [list] = (await listApplications(service.ctx, callerOf(appId), { limit: 100 })).items.filter(
        (item) => item.busi_water_no === serial,
      );
      assert.equal(list?.documents['sign_applicant']?.state, 'pending', 'pending while tried again');
      assert.equal(list?.documents['id_card_img']?.state, 'kept');

      // The job's time is up: the last try fails it for good, with its event.
      const last = await documentFetchJob.run(
        service.ctx,
        job(serial, ['sign_applicant'], now - 2 * HOUR - 1, 2),
        silent,
        new AbortController().signal,
      );
      assert.deepEqual(last, { outcome: 'done' });
      const [after] = (await listApplications(service.ctx, callerOf(appId), { limit: 100 })).items.filter(
        (item) => item.busi_water_no === serial,
      );
      assert.deepEqual(after?.documents['sign_applicant'], { state: 'failed', reason: 'unreachable' });
      assert.deepEqual(await eventsOf(serial), ['application.submitted', 'application.document_failed']);
    });

    test('a repeated run fetches nothing again and records no second event', async () => {
      const urls = Object.fromEntries(
        FIELDS.map((f) => [
          f,
          images.route(`/${storeName}/again/${f}.png`, { kind: 'bytes', body: pngImage(400, 400) }),
        ]),
      );
      const serial = await submit(urls);
      const claimed = job(serial, FIELDS, Date.now());
      assert.deepEqual(
        await documentFetchJob.run(service.ctx, claimed, silent, new AbortController().signal),
        {
          outcome: 'done',
        },
      );
      const asked = images.requests.length;
      assert.deepEqual(
        await documentFetchJob.run(service.ctx, claimed, silent, new AbortController().signal),
        {
          outcome: 'done',
        },
      );
      assert.equal(images.requests.length, asked, 'nothing fetched twice');
      assert.deepEqual(await eventsOf(serial), ['application.submitted', 'application.documents_kept']);
    });

    test('a runner that stops cuts its fetches short: the job is retried, nothing fails for good', async () => {
      const urls = Object.fromEntries(
        FIELDS.map((f) => [
          f,
          images.route(`/${storeName}/slow/${f}.png`, {
            kind: 'bytes',
            body: pngImage(600, 600),
            paceMs: 1_000,
          }),
        ]),
      );
      const serial = await submit(urls);
      const stop = new AbortController();
      setTimeout(() => stop.abort(), 300);
      const started = Date.now();
      // Even on its last try (giving up), an interrupted fetch is no document's failure.
      await assert.rejects(documentFetchJob.run(service.ctx, job(serial, FIELDS, 0), silent, stop.signal));
      assert.ok(Date.now() - started < 5_000, 'stopped at once, not after the fetch time-out');
      const states = await service.ctx.store.db
        .selectFrom('documents')
        .select('state')
        .where('busi_water_no', '=', serial)
        .execute();
      assert.deepEqual(new Set(states.map((row) => row.state)), new Set(['pending']));
    });
  });
}

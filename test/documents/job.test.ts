import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { submitApplication } from '../../src/applications/commands/submitApplication.ts';
import { createApp } from '../../src/partners/credentials.ts';
import { documentFetchJob, type FetchJobPayload } from '../../src/documents/fetchJob.ts';
import { listApplications } from '../../src/applications/views/listApplications.ts';
import type { ClaimedJob, OutboxEvent } from '../../src/jobs/jobQueue.ts';
import { createLogger } from '../../src/logger.ts';
import { fanOutEvents } from '../../src/webhooks/deliveryQueue.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { pngImage } from '../helpers/documentImages.ts';
import { startDocumentServer, type DocumentServer } from '../helpers/documentServer.ts';
import { newAppId, submitMany } from '../helpers/events.ts';
import { partnerOf } from '../helpers/operators.ts';
import { startService, type TestService } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * The `documents.fetch` kind run directly, as the runner would: the one job a relay batch asks for
 * (whatever the number of its submissions), an unreachable document tried again with backoff until
 * DOCUMENT_FETCH_HOURS and then failed for good, and a run repeated (an at-least-once relay, a
 * crash) doing nothing twice.
 */
const FIELDS = ['id_card_img', 'id_card_back_img', 'passport_img', 'sign_applicant', 'pay_voucher'] as const;
const HOUR = 3_600_000;
const silent = createLogger({ logLevel: 'silent' });

for (const storeName of storeNames()) {
  describe(`the documents.fetch job (${storeName})`, () => {
    let service: TestService;
    let images: DocumentServer;
    let appId: string;
    let n = 100_000; // clear of submitMany's applicants

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
      (await submitApplication(service.ctx, partnerOf(appId), { ...uniqueApplicant(n++, appId), ...urls }))
        .busi_water_no;
    /** A job of a relay batch, for `serials` (each with `fields`). */
    const job = (
      serials: readonly string[],
      fields: readonly string[],
      createdAt: number,
      attempts = 1,
    ): ClaimedJob => ({
      id: `job_${serials[0]}`,
      kind: 'documents.fetch',
      key: `evt_${serials[0]}`,
      busi_water_no: serials.length === 1 ? serials[0]! : null,
      payload: {
        applications: serials.map((serial) => ({ busi_water_no: serial, fields: [...fields] })),
      } satisfies FetchJobPayload,
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

    test('a relay batch asks for one job: all five fields of a submission, the image fields of an amend', () => {
      const event = (id: number, serial: string, type: string, payload: Record<string, unknown>) =>
        ({
          event_id: `evt_${id}`,
          app_id: appId,
          busi_water_no: serial,
          type,
          payload: payload as never,
          created_at: 0,
        }) satisfies OutboxEvent;
      const jobsFor = documentFetchJob.onEvents!.jobsFor;
      assert.deepEqual(
        jobsFor([
          event(1, 'S1', 'application.submitted', {}),
          event(2, 'S2', 'application.amended', { amended_fields: ['cert_id', 'passport_img'] }),
          event(3, 'S3', 'application.amended', { amended_fields: ['cert_id'] }),
          // Submitted and amended in one batch: one entry, the union of the fields.
          event(4, 'S4', 'application.amended', { amended_fields: ['sign_applicant'] }),
          event(5, 'S4', 'application.amended', { amended_fields: ['id_card_img'] }),
        ]),
        [
          {
            kind: 'documents.fetch',
            key: 'evt_1',
            busi_water_no: null,
            payload: {
              applications: [
                { busi_water_no: 'S1', fields: [...FIELDS] },
                { busi_water_no: 'S2', fields: ['passport_img'] },
                { busi_water_no: 'S4', fields: ['id_card_img', 'sign_applicant'] },
              ],
            },
          },
        ],
      );
      assert.deepEqual(jobsFor([event(6, 'S3', 'application.amended', { amended_fields: ['cert_id'] })]), []);
      assert.equal(
        jobsFor([event(7, 'S5', 'application.amended', { amended_fields: ['passport_img'] })])[0]
          ?.busi_water_no,
        'S5',
        'a batch of one names its application',
      );
    });

    test('a hundred submissions fanned out in one relay batch make one documents.fetch job, not a hundred', async () => {
      // Another partner's: the list views of the tests below stay small.
      const serials = await submitMany(service.ctx, await newAppId(service.ctx), 100);
      const before = await service.ctx.store.db
        .selectFrom('jobs')
        .select('id')
        .where('kind', '=', 'documents.fetch')
        .execute();
      // The dispatcher's batch (FAN_OUT_BATCH): a hundred events, one commit.
      await fanOutEvents(service.ctx.store, { now: Date.now(), limit: 100, maxAgeMs: HOUR });
      const rows = await service.ctx.store.db
        .selectFrom('jobs')
        .select(['busi_water_no', 'payload'])
        .where('kind', '=', 'documents.fetch')
        .execute();
      assert.equal(rows.length - before.length, 1, 'one job row for the batch');
      const payload = JSON.parse(rows.at(-1)!.payload!) as FetchJobPayload;
      assert.deepEqual(payload.applications.map((entry) => entry.busi_water_no).sort(), [...serials].sort());
      assert.ok(payload.applications.every((entry) => entry.fields.length === FIELDS.length));
    });

    test('unreachable: tried again with backoff, failed for good after DOCUMENT_FETCH_HOURS', async () => {
      const urls = Object.fromEntries(
        FIELDS.map((f) => [
          f,
          images.route(`/${storeName}/job/${f}.png`, { kind: 'bytes', body: pngImage(400, 400) }),
        ]),
      );
      const fine = await submit(urls);
      urls['sign_applicant'] = images.route(`/${storeName}/job/busy`, { kind: 'status', status: 503 });
      const serial = await submit(urls);
      const now = Date.now();
      const first = await documentFetchJob.run(
        service.ctx,
        job([fine, serial], FIELDS, now),
        silent,
        new AbortController().signal,
      );
      // From the end of the run, which draws the kept images' previews first.
      const ended = Date.now();
      assert.equal(first.outcome, 'retry');
      assert.ok(
        first.outcome === 'retry' && first.at >= now + 15_000 && first.at <= ended + 30_000,
        'backoff 15-30 s',
      );
      const left = first.outcome === 'retry' ? (first.payload as FetchJobPayload).applications : [];
      assert.deepEqual(
        left.map((entry) => ({ ...entry, at: undefined })),
        [
          {
            busi_water_no: serial,
            fields: ['sign_applicant'],
            at: undefined,
            error: 'unreachable: HTTP 503',
          },
        ],
        'only the field still to do, of the application still to do',
      );
      assert.equal(first.outcome === 'retry' && left[0]?.at, first.at);
      assert.deepEqual(await eventsOf(fine), ['application.submitted', 'application.documents_kept']);
      assert.equal(
        first.outcome === 'retry' && first.error?.includes(images.origin),
        false,
        'no URL in the error',
      );
      const [list] = (await listApplications(service.ctx, partnerOf(appId), { limit: 100 })).items.filter(
        (item) => item.busi_water_no === serial,
      );
      assert.equal(list?.documents['sign_applicant']?.state, 'pending', 'pending while tried again');
      assert.equal(list?.documents['id_card_img']?.state, 'kept');

      // Not due yet: a run (the job's, for another application of its batch) leaves it be.
      const early = await documentFetchJob.run(
        service.ctx,
        { ...job([serial], [], now, 2), payload: first.outcome === 'retry' ? first.payload : null },
        silent,
        new AbortController().signal,
      );
      assert.deepEqual(early, first, 'nothing tried before its time');

      // The job's time is up: the last try fails it for good, with its event. (A job queued
      // before batches names its one application alone, with its fields.)
      const last = await documentFetchJob.run(
        service.ctx,
        { ...job([serial], [], now - 2 * HOUR - 1, 2), payload: { fields: ['sign_applicant'] } },
        silent,
        new AbortController().signal,
      );
      assert.deepEqual(last, { outcome: 'done' });
      const [after] = (await listApplications(service.ctx, partnerOf(appId), { limit: 100 })).items.filter(
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
      const claimed = job([serial], FIELDS, Date.now());
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

    test('a run starts no fetch too late to end within its lease: the rest is due at once, untried', async () => {
      // DOCUMENT_TIMEOUT_MS 1 s: a lease of 1.5 s, fetches started within its first 0.25 s; two
      // fetch slots to the host: two of the five wait for a slot that comes free too late.
      const config = service.ctx.config;
      const ctx = {
        ...service.ctx,
        config: { ...config, documents: { ...config.documents, timeoutMs: 1_000, fetchSlotsPerHost: 2 } },
      };
      const slow = await startDocumentServer();
      const serials: string[] = [];
      try {
        for (let i = 0; i < 5; i++) {
          const url = slow.route(`/${storeName}/lease/${i}.png`, {
            kind: 'bytes',
            body: pngImage(400, 400),
            // 30 writes of 16 KiB 13 ms apart: each fetch takes longer than the 0.25 s.
            paceMs: 13,
          });
          serials.push(await submit({ id_card_img: url }));
        }
        const result = await documentFetchJob.run(
          ctx,
          job(serials, ['id_card_img'], Date.now()),
          silent,
          new AbortController().signal,
        );
        // Every application started at once; two fetches had slots, the others waited past the window.
        assert.equal(result.outcome, 'retry');
        const left = result.outcome === 'retry' ? (result.payload as FetchJobPayload).applications : [];
        // (A loaded machine may make a started fetch outlast its 1 s time-out: left for a retry.)
        const deferred = left.filter((entry) => entry.at === undefined);
        assert.equal(deferred.length, 3, 'three left untried');
        for (const entry of deferred)
          assert.deepEqual(
            entry,
            { busi_water_no: entry.busi_water_no, fields: ['id_card_img'] },
            'due at once',
          );
        assert.ok(result.outcome === 'retry' && result.at <= Date.now());
        assert.equal(slow.requests.length, 2, 'the deferred were never asked for');
        const states = await service.ctx.store.db
          .selectFrom('documents')
          .select(['busi_water_no', 'state'])
          .where(
            'busi_water_no',
            'in',
            deferred.map((entry) => entry.busi_water_no),
          )
          .execute();
        assert.deepEqual(
          new Set(states.map((row) => row.state)),
          new Set(['pending']),
          'pending, not failed',
        );
      } finally {
        await slow.close();
      }
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
      // Even on its last try (giving up), an interrupted fetch is no document's failure: the job
      // is due again at once, with all it had left.
      const result = await documentFetchJob.run(service.ctx, job([serial], FIELDS, 0), silent, stop.signal);
      assert.ok(Date.now() - started < 5_000, 'stopped at once, not after the fetch time-out');
      assert.equal(result.outcome, 'retry');
      assert.ok(result.outcome === 'retry' && result.at <= Date.now());
      assert.deepEqual(result.outcome === 'retry' && result.error, 'interrupted');
      assert.deepEqual(result.outcome === 'retry' && result.payload, {
        applications: [{ busi_water_no: serial, fields: [...FIELDS] }],
      });
      const states = await service.ctx.store.db
        .selectFrom('documents')
        .select('state')
        .where('busi_water_no', '=', serial)
        .execute();
      assert.deepEqual(new Set(states.map((row) => row.state)), new Set(['pending']));
    });
  });
}

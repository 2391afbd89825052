import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { documentRows } from '../../src/documents/documentRepository.ts';
import { PATHS } from '../../src/http/paths.ts';
import { createLogger } from '../../src/logger.ts';
import { startRetentionJob } from '../../src/retention/retentionJob.ts';
import { addYears } from '../../src/subjects/deletionPolicy.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { cardapplyFails, cardapplyJson } from '../helpers/cli.ts';
import { pngImage } from '../helpers/documentImages.ts';
import { startDocumentServer, type DocumentServer } from '../helpers/documentServer.ts';
import { settledDocuments, startDocumentService, type DocumentService } from '../helpers/documentService.ts';
import { ADMIN, call, newOperator, type TestOperator } from '../helpers/operators.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { newPartner, nowSeconds, post, type TestPartner } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * The ends of an applicant's requests (issue 56, docs/PRIVACY.md), over HTTP on each store: a
 * deletion with no record-keeping duty erases at once, documents included; one under record keeping
 * restricts, withdraws the application from every operator but a compliance one, and the retention
 * job erases it, with nobody acting, once the clock passes the date; a correction answered by a
 * request for information completes with the partner's amend; refusals; each end reaches the
 * partner's webhook, and a request past due shows on the workload.
 */

interface View {
  request_id: string;
  kind: string;
  status: string;
  applications: string[];
  reason_code: string | null;
  reason: string | null;
  restricted_until: number | null;
  ended_at: number | null;
  overdue?: boolean;
  information_requested_on?: string | null;
}

const YEARS = 7;
let next = 31_000;

for (const storeName of storeNames()) {
  describe(`the ends of subject requests on ${storeName}`, () => {
    let service: DocumentService;
    let images: DocumentServer;
    let receiver: Receiver;
    let partner: TestPartner;
    let reviewer: TestOperator;
    let viewer: TestOperator;
    let admin: TestOperator;
    let officer: TestOperator;
    const identities: string[] = [];

    const as = (path: string, body: Record<string, unknown>) =>
      post(
        service.baseUrl,
        path,
        { app_id: partner.appId, timestamp: nowSeconds(), ...body },
        { token: partner.token },
      );
    const asOperator = (who: TestOperator, method: string, path: string, body?: unknown) =>
      call(service, method, `${ADMIN}${path}`, { token: who.token, ...(body === undefined ? {} : { body }) });
    /** A new person's application at the partner, with kept documents when `withImages`. */
    const submit = async (withImages = false, n = next++) => {
      const applicant = uniqueApplicant(n, partner.appId);
      identities.push(applicant.cert_id);
      const urls = withImages
        ? {
            id_card_img: images.route(`/id-${n}.png`, { kind: 'bytes', body: pngImage(410, 310) }),
            passport_img: images.route(`/passport-${n}.png`, { kind: 'bytes', body: pngImage(420, 320) }),
          }
        : {};
      const reply = await post(
        service.baseUrl,
        PATHS.apply,
        { ...applicant, ...urls },
        { token: partner.token },
      );
      assert.equal(reply.status, 200, reply.text);
      return { serial: (reply.body.data as { busi_water_no: string }).busi_water_no, n };
    };
    const ask = async (kind: string, serial: string) => {
      const reply = await as(PATHS.subjectRequests, { kind, busi_water_no: serial });
      assert.equal(reply.status, 200, reply.text);
      return reply.body.data as View;
    };
    const query = async (requestId: string) => {
      const reply = await as(PATHS.subjectRequestQuery, { request_id: requestId });
      assert.equal(reply.status, 200, reply.text);
      return reply.body.data as View;
    };
    const row = (serial: string) =>
      service.ctx.store.db
        .selectFrom('applications')
        .select(['status', 'erased_at', 'restricted_until', 'updated_at', 'cert_hash'])
        .where('busi_water_no', '=', serial)
        .executeTakeFirstOrThrow();
    const audited = (action: string, targetId: string) =>
      service.ctx.store.db
        .selectFrom('audit_log')
        .select(['actor', 'details'])
        .where('action', '=', action)
        .where('target_id', '=', targetId)
        .execute();

    before(async () => {
      images = await startDocumentServer();
      receiver = await startReceiver();
      service = await startDocumentService(storeName, {
        AML_RETENTION_YEARS: String(YEARS),
        RETENTION_INTERVAL_SECONDS: '10',
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_BACKOFF_BASE_MS: '20',
        WEBHOOK_BACKOFF_MAX_MS: '200',
      });
      partner = await newPartner(service);
      reviewer = await newOperator(service, 'reviewer');
      viewer = await newOperator(service, 'viewer');
      admin = await newOperator(service, 'admin');
      officer = await newOperator(service, 'reviewer');
      const duty = await asOperator(admin, 'POST', `/operators/${officer.username}/compliance`, {
        compliance: true,
      });
      assert.equal(duty.status, 200, duty.text);
      assert.equal((duty.body.data as { compliance: boolean }).compliance, true);
      assert.equal((await audited('operator.compliance', officer.username)).length, 1);
      const endpoint = await as(PATHS.webhookRegister, {
        url: receiver.url,
        events: ['subject_request.completed', 'subject_request.restricted', 'subject_request.refused'],
      });
      assert.equal(endpoint.status, 200, endpoint.text);
      receiver.secrets = [(endpoint.body.data as { secret: string }).secret];
    });
    after(async () => {
      await service.close();
      await images.close();
      await receiver.close();
    });

    test('a deletion with no record-keeping duty erases at once, documents included, and completes', async () => {
      const { serial } = await submit(true);
      await settledDocuments(service, partner, serial);
      assert.ok((await documentRows(service.ctx.store.db, [serial])).length > 0);
      const cancelled = await as(PATHS.cancel, { busi_water_no: serial });
      assert.equal(cancelled.status, 200, cancelled.text);
      const request = await ask('deletion', serial);
      // A viewer reads the queue but takes no step.
      const listed = await asOperator(viewer, 'GET', '/subject-requests?open=true');
      assert.ok(
        (listed.body.data as { items: View[] }).items.some((v) => v.request_id === request.request_id),
      );
      const refused = await asOperator(viewer, 'POST', `/subject-requests/${request.request_id}/delete`, {});
      assert.equal(refused.status, 403, refused.text);

      const decided = await asOperator(
        reviewer,
        'POST',
        `/subject-requests/${request.request_id}/delete`,
        {},
      );
      assert.equal(decided.status, 200, decided.text);
      assert.deepEqual(
        [(decided.body.data as View).status, (decided.body.data as View).restricted_until],
        ['completed', null],
      );
      const stored = await row(serial);
      assert.notEqual(stored.erased_at, null);
      assert.equal(stored.cert_hash, 'erased');
      assert.deepEqual(await documentRows(service.ctx.store.db, [serial]), []);
      const chunks = await service.ctx.store.db
        .selectFrom('document_chunks')
        .select('busi_water_no')
        .where('busi_water_no', '=', serial)
        .execute();
      assert.deepEqual(chunks, []);
      assert.equal((await audited('application.erase', serial)).length, 1);
      assert.equal((await query(request.request_id)).status, 'completed');
      // Ended: no second end.
      const again = await asOperator(reviewer, 'POST', `/subject-requests/${request.request_id}/delete`, {});
      assert.deepEqual([again.status, again.body.code], [409, 40995], again.text);
    });

    test('a deletion under record keeping restricts, hides the application but from compliance, and retention erases it at the date', async () => {
      // The same person twice: a rejection (record keeping) and a cancellation (none).
      const { serial: rejected, n } = await submit();
      const reject = await asOperator(reviewer, 'POST', `/applications/${rejected}/reject`, {
        reason_codes: ['document_unreadable'],
      });
      assert.equal(reject.status, 200, reject.text);
      const { serial: cancelled } = await submit(false, n);
      assert.equal((await as(PATHS.cancel, { busi_water_no: cancelled })).status, 200);
      const { serial: active } = await submit();
      const request = await ask('deletion', cancelled);
      assert.deepEqual(request.applications, [rejected, cancelled]);

      // An application still in progress holds a deletion: 409 naming it.
      const pending = await ask('deletion', active);
      const held = await asOperator(reviewer, 'POST', `/subject-requests/${pending.request_id}/delete`, {});
      assert.deepEqual([held.status, held.body.code], [409, 40999], held.text);
      assert.match(held.body.msg, new RegExp(active));

      const rejectedAt = Number((await row(rejected)).updated_at);
      const decided = await asOperator(
        reviewer,
        'POST',
        `/subject-requests/${request.request_id}/delete`,
        {},
      );
      assert.equal(decided.status, 200, decided.text);
      const view = decided.body.data as View;
      const until = addYears(rejectedAt, YEARS);
      assert.deepEqual(
        [view.status, view.reason_code, view.restricted_until],
        ['restricted', 'aml_record_keeping', Math.floor(until / 1000)],
      );
      assert.equal(Number((await row(rejected)).restricted_until), until);
      assert.equal((await row(rejected)).erased_at, null);
      assert.notEqual((await row(cancelled)).erased_at, null, 'the cancelled one is erased now');
      assert.equal((await audited('application.restrict', rejected)).length, 1);

      // Gone from every view of an operator without the duty: queue, search, detail, events, reveal.
      for (const path of [
        `/applications?busi_water_no=${rejected}`,
        `/applications?q=${rejected}`,
        '/applications?status=REJECTED&order=desc&limit=100',
      ]) {
        const page = await asOperator(reviewer, 'GET', path);
        assert.equal(page.status, 200, page.text);
        const serials = (page.body.data as { items: { busi_water_no: string }[] }).items.map(
          (i) => i.busi_water_no,
        );
        assert.ok(!serials.includes(rejected), `${path} shows a restricted application`);
      }
      for (const path of [`/applications/${rejected}`, `/applications/${rejected}/events`]) {
        const shown = await asOperator(reviewer, 'GET', path);
        assert.deepEqual([shown.status, shown.body.code], [404, 40401], `${path}: ${shown.text}`);
      }
      const moved = await asOperator(reviewer, 'POST', `/applications/${rejected}/approve`, {});
      assert.deepEqual([moved.status, moved.body.code], [404, 40401], moved.text);
      const reveal = await asOperator(reviewer, 'POST', `/applications/${rejected}/reveal`, {
        field: 'cert_id',
        purpose: 'customer_request',
      });
      assert.equal(reveal.status, 404, reveal.text);
      // The compliance officer still sees it.
      const found = await asOperator(officer, 'GET', `/applications?busi_water_no=${rejected}`);
      assert.deepEqual(
        (found.body.data as { items: { busi_water_no: string }[] }).items.map((i) => i.busi_water_no),
        [rejected],
      );
      assert.equal((await asOperator(officer, 'GET', `/applications/${rejected}`)).status, 200);

      // The command line, through the real `cardapply` process, as the console: hidden from the
      // reviewer (list, show, reveal, a move), shown to the officer, whose duty the CLI reads.
      const cli = (who: TestOperator) => ({
        ...service.target.env,
        LOG_LEVEL: 'silent',
        CARDAPPLY_OPERATOR: who.username,
      });
      const listed = (who: TestOperator) =>
        cardapplyJson<{ items: { busi_water_no: string }[] }>(
          cli(who),
          'applications',
          'list',
          '--serial',
          rejected,
        );
      assert.deepEqual((await listed(reviewer)).items, [], 'the reviewer does not find it from the CLI');
      for (const args of [
        ['show', rejected],
        ['reveal', rejected, '--field', 'cert_id', '--purpose', 'customer_request'],
        ['approve', rejected],
      ]) {
        const refused = await cardapplyFails(cli(reviewer), 'applications', ...args);
        assert.match(refused, /no such application|not found/i, `applications ${args.join(' ')}: ${refused}`);
        assert.doesNotMatch(refused, /restrict/i, 'answered as an application that does not exist');
      }
      assert.deepEqual(
        (await listed(officer)).items.map((i) => i.busi_water_no),
        [rejected],
      );
      const shownToOfficer = await cardapplyJson<{ busi_water_no: string; status: string }>(
        cli(officer),
        'applications',
        'show',
        rejected,
      );
      assert.deepEqual([shownToOfficer.busi_water_no, shownToOfficer.status], [rejected, 'REJECTED']);

      // The retention job, nobody acting, with the clock a day past the date (no RETENTION_DAYS set).
      const realNow = service.ctx.now;
      Object.assign(service.ctx, { now: () => until + 86_400_000 });
      const job = startRetentionJob(service.ctx, createLogger({ logLevel: 'silent' }));
      try {
        const deadline = Date.now() + 40_000;
        while ((await row(rejected)).erased_at === null) {
          assert.ok(Date.now() < deadline, 'the retention job erased it within its interval');
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      } finally {
        await job?.stop();
        Object.assign(service.ctx, { now: realNow });
      }
      const erased = await row(rejected);
      assert.deepEqual([erased.cert_hash, erased.restricted_until], ['erased', null]);
      const byJob = await audited('application.erase', rejected);
      assert.deepEqual(
        byJob.map((r) => r.actor),
        ['system'],
      );
      assert.equal((await row(active)).erased_at, null, 'nothing else erased');
    });

    test('a correction answered by a request for information completes with the partner’s amend', async () => {
      const { serial, n } = await submit();
      const review = await asOperator(reviewer, 'POST', `/applications/${serial}/review`, {});
      assert.equal(review.status, 200, review.text);
      const request = await ask('correction', serial);
      const wrong = await asOperator(reviewer, 'POST', `/subject-requests/${request.request_id}/delete`, {});
      assert.deepEqual([wrong.status, wrong.body.code], [409, 40997], wrong.text);
      const stranger = await submit();
      const notCovered = await asOperator(
        reviewer,
        'POST',
        `/subject-requests/${request.request_id}/request-information`,
        {
          busi_water_no: stranger.serial,
          requested_fields: ['email'],
          reason_codes: ['other'],
        },
      );
      assert.deepEqual([notCovered.status, notCovered.body.code], [422, 42295], notCovered.text);

      const asked = await asOperator(
        reviewer,
        'POST',
        `/subject-requests/${request.request_id}/request-information`,
        {
          busi_water_no: serial,
          requested_fields: ['email'],
          reason_codes: ['other'],
          reason: 'The applicant asks to correct the e-mail address.',
        },
      );
      assert.equal(asked.status, 200, asked.text);
      assert.deepEqual(
        [(asked.body.data as View).status, (asked.body.data as View).information_requested_on],
        ['in_progress', serial],
      );
      assert.equal((await row(serial)).status, 'SUPPLEMENT_REQUIRED');
      assert.equal((await query(request.request_id)).status, 'in_progress');

      const amended = await as(PATHS.amend, { busi_water_no: serial, email: `corrected.${n}@example.com` });
      assert.equal(amended.status, 200, amended.text);
      const ended = await query(request.request_id);
      assert.equal(ended.status, 'completed');
      assert.notEqual(ended.ended_at, null);
      const ends = await audited('subject_request.end', request.request_id);
      assert.deepEqual(
        ends.map((r) => r.actor),
        [`caller:${partner.appId}`],
      );
      assert.equal((await audited('subject_request.start', request.request_id)).length, 1);
    });

    test('refusals: a code and a reason, by a reviewer; a bad code, an identity number, a second end refused', async () => {
      const { serial } = await submit();
      const request = await ask('access', serial);
      const started = await asOperator(reviewer, 'POST', `/subject-requests/${request.request_id}/start`, {});
      assert.equal(started.status, 200, started.text);
      assert.equal((started.body.data as View).status, 'in_progress');
      const twice = await asOperator(reviewer, 'POST', `/subject-requests/${request.request_id}/start`, {});
      assert.deepEqual([twice.status, twice.body.code], [409, 40996], twice.text);
      const badCode = await asOperator(reviewer, 'POST', `/subject-requests/${request.request_id}/refuse`, {
        reason_code: 'because',
        reason: 'no',
      });
      assert.equal(badCode.status, 422, badCode.text);
      const carriesNumber = await asOperator(
        reviewer,
        'POST',
        `/subject-requests/${request.request_id}/refuse`,
        {
          reason_code: 'identity_not_verified',
          reason: `document ${identities[identities.length - 1]} does not match`,
        },
      );
      assert.equal(carriesNumber.status, 422, carriesNumber.text);
      const refused = await asOperator(reviewer, 'POST', `/subject-requests/${request.request_id}/refuse`, {
        reason_code: 'identity_not_verified',
        reason: 'The partner could not verify the applicant’s identity.',
      });
      assert.equal(refused.status, 200, refused.text);
      const view = await query(request.request_id);
      assert.deepEqual(
        [view.status, view.reason_code, view.reason],
        ['refused', 'identity_not_verified', 'The partner could not verify the applicant’s identity.'],
      );
      const again = await asOperator(reviewer, 'POST', `/subject-requests/${request.request_id}/refuse`, {
        reason_code: 'other',
        reason: 'again',
      });
      assert.deepEqual([again.status, again.body.code], [409, 40995], again.text);
    });

    test('a request past its due date shows on the workload and in the queue', async () => {
      const { serial } = await submit();
      const request = await ask('portability', serial);
      await service.ctx.store.db
        .updateTable('subject_requests')
        .set({ due_at: Date.now() - 60_000 })
        .where('request_id', '=', request.request_id)
        .execute();
      const workload = await asOperator(viewer, 'GET', '/workload');
      assert.equal(workload.status, 200, workload.text);
      const overdue = (
        workload.body.data as { subject_requests: { overdue: number; oldest_due_at: number | null } }
      ).subject_requests;
      assert.ok(overdue.overdue >= 1 && overdue.oldest_due_at !== null, JSON.stringify(overdue));
      const queue = await asOperator(viewer, 'GET', '/subject-requests?open=true');
      const item = (queue.body.data as { items: View[] }).items.find(
        (v) => v.request_id === request.request_id,
      );
      assert.equal(item?.overdue, true);
    });

    test('every end reached the partner’s webhook, signed, with the request and no identity value', async () => {
      await receiver.waitFor(
        () =>
          ['subject_request.completed', 'subject_request.restricted', 'subject_request.refused'].every(
            (type) => receiver.received.some((r) => r.parsed.type === type),
          ),
        20_000,
        'the three ends delivered',
      );
      for (const message of receiver.received) {
        assert.equal(message.verifiedBy, 0);
        assert.match(message.parsed.type, /^subject_request\./);
        const ended = message.parsed.data['subject_request'] as View;
        assert.equal(`subject_request.${ended.status}`, message.parsed.type);
        for (const id of identities) assert.ok(!message.body.includes(id), 'no identity number in a webhook');
      }
      // The partner's events list carries them too.
      const restricted = receiver.received.find((r) => r.parsed.type === 'subject_request.restricted')!;
      const events = await as(PATHS.events, { busi_water_no: restricted.parsed.data.busi_water_no });
      assert.equal(events.status, 200, events.text);
      assert.ok(
        (events.body.data as { items: { id: string }[] }).items.some((e) => e.id === restricted.parsed.id),
      );
    });
  });
}

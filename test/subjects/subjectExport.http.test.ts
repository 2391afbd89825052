import { SYSTEM } from '../../src/audit/actor.ts';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import type { ServiceContext } from '../../src/context.ts';
import { LiveKeyRing } from '../../src/crypto/liveKeyRing.ts';
import { keyStatus, retireKey, rotateKey } from '../../src/keys/keyManagement.ts';
import { reencryptAll } from '../../src/keys/reencrypt.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';
import { downloadSubjectExport } from '../../src/subjects/downloadExport.ts';
import { generateCardNumber } from '../../src/cards/cardNumber.ts';
import { PATHS } from '../../src/http/paths.ts';
import { clearHit } from '../../src/applications/commands/resolveHit.ts';
import { insertHits } from '../../src/screening/hitRepository.ts';
import { SUBJECT_JOB_KINDS } from '../../src/subjects/subjectExportJob.ts';
import { startJobRunner, type JobRunner } from '../../src/worker/jobRunner.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { sha256 } from '../helpers/documentImages.ts';
import { startDocumentServer, type DocumentServer } from '../helpers/documentServer.ts';
import { settledDocuments, startDocumentService, type DocumentService } from '../helpers/documentService.ts';
import { encode, pdfDocument } from '../helpers/encodedDocuments.ts';
import { newPartner, nowSeconds, post, type TestPartner } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * The export of an access or portability request (issue 56, docs/PRIVACY.md), over HTTP on every
 * store: built by its job from a person's applications (every field submitted, documents served by
 * a real image server), it holds every value submitted and every kept document byte for byte, and
 * nothing of the screening hit, the risk assessment or the operator's note planted beside them; it
 * is delivered once, to its own partner only, each attempt audited once; unfetched, it expires and
 * is erased; no identity value reaches the log.
 */

const KEPT_FIELDS = [
  'id_card_img',
  'id_card_back_img',
  'passport_img',
  'sign_applicant',
  'pay_voucher',
] as const;
const HOUR_MS = 3_600_000;

interface RequestView {
  request_id: string;
  status: string;
  applications: string[];
  export: { ready: boolean; expires_at: number | null; fetched_at: number | null } | null;
}

interface ExportedDocument {
  field: string;
  state: string;
  reason: string | null;
  content_type: string | null;
  byte_size: number | null;
  sha256: string | null;
  content_base64: string | null;
}

interface Exported {
  format: string;
  version: number;
  request_id: string;
  kind: string;
  app_id: string;
  applications: {
    busi_water_no: string;
    submitted: Record<string, unknown>;
    status: { status: string; card_no_masked: string; history: { status: string }[] };
    events: { type: string }[];
    documents: ExportedDocument[];
  }[];
}

for (const storeName of storeNames()) {
  describe(`subject export (${storeName})`, () => {
    let service: DocumentService;
    let exportRunner: JobRunner;
    let images: DocumentServer;
    let partner: TestPartner;
    let other: TestPartner;
    /** The person's two applications: the first cancelled, every field; the second with a refused document. */
    let first: string;
    let second: string;
    let firstBody: Record<string, unknown>;
    let secondBody: Record<string, unknown>;
    const bodies: Record<string, Buffer> = {};
    const plantedNote = `OPERATOR-NOTE-${storeName}-${Date.now()}`;
    const plantedList = `PLANTED LISTED PERSON ${storeName}`;
    let plantedReference: string;

    const call = (who: TestPartner, path: string, body: Record<string, unknown>) =>
      post(
        service.baseUrl,
        path,
        { app_id: who.appId, timestamp: nowSeconds(), ...body },
        { token: who.token },
      );

    /** The download as the partner makes it: the raw answer, a file or an envelope. */
    const download = (who: TestPartner, requestId: string) =>
      fetch(`${service.baseUrl}${PATHS.subjectRequestDownload}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${who.token}` },
        body: JSON.stringify({ app_id: who.appId, timestamp: nowSeconds(), request_id: requestId }),
      });

    const downloadAudits = async (requestId: string) =>
      service.ctx.store.db
        .selectFrom('audit_log')
        .select(['actor', 'action', 'target_type', 'target_id', 'details', 'source'])
        .where('action', '=', 'subject_request.export_download')
        .where('target_id', '=', requestId)
        .orderBy('id')
        .execute();

    async function request(who: TestPartner, kind: string, serial: string): Promise<RequestView> {
      const reply = await call(who, PATHS.subjectRequests, { kind, busi_water_no: serial });
      assert.equal(reply.status, 200, reply.text);
      return reply.body.data as RequestView;
    }

    async function completed(who: TestPartner, requestId: string): Promise<RequestView> {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const reply = await call(who, PATHS.subjectRequestQuery, { request_id: requestId });
        assert.equal(reply.status, 200, reply.text);
        const view = reply.body.data as RequestView;
        if (view.status === 'completed') return view;
        if (Date.now() > deadline) assert.fail(`the request did not complete: ${reply.text}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }

    async function submit(n: number, overrides: Record<string, unknown>) {
      const body = { ...uniqueApplicant(n, partner.appId), ...overrides, timestamp: nowSeconds() };
      const reply = await post(service.baseUrl, PATHS.apply, body, { token: partner.token });
      assert.equal(reply.status, 200, reply.text);
      const serial = (reply.body.data as { busi_water_no: string }).busi_water_no;
      await settledDocuments(service, partner, serial, 60_000);
      return { serial, body };
    }

    before(async () => {
      images = await startDocumentServer();
      service = await startDocumentService(storeName, { SUBJECT_EXPORT_HOURS: '2' });
      // The subject requests' jobs, as the service's background process runs them beside the others.
      // Its log lines go to the service's captured log, which the last test reads.
      const sink = new Writable({
        write(chunk: Buffer, _encoding, callback) {
          service.logs.push(chunk.toString('utf8'));
          callback();
        },
      });
      exportRunner = startJobRunner(service.ctx, createLogger(service.ctx.config, sink), {
        kinds: SUBJECT_JOB_KINDS,
        pollIntervalMs: 20,
      });
      partner = await newPartner(service);
      other = await newPartner(service, 'another partner');
      bodies['id_card_img'] = encode('jpeg', 640, 420, 1);
      bodies['id_card_back_img'] = encode('progressive-jpeg', 640, 420, 2);
      bodies['passport_img'] = encode('webp', 640, 420, 3);
      bodies['sign_applicant'] = encode('png', 640, 420, 4);
      bodies['pay_voucher'] = await pdfDocument(true);
      const urls = (n: number) =>
        Object.fromEntries(
          KEPT_FIELDS.map((field) => [
            field,
            images.route(`/${storeName}/${n}/${field}`, { kind: 'bytes', body: bodies[field]! }),
          ]),
        );
      // Every field of the submit, the optional ones included.
      const everyField = {
        ...urls(1),
        profession: 'Z',
        profession_other: `Lighthouse keeper ${storeName}`,
        purpose_other: `Travel to the islands ${storeName}`,
        wealth_source_other: `Lottery winnings ${storeName}`,
        other_field: [{ name: 'loyalty number', value: `LOYAL-${storeName}-42`, field: 'loyalty_no' }],
        external_id: `ORDER-EXPORT-${storeName}-1`,
        card_no: generateCardNumber(service.ctx.config.card),
      };
      ({ serial: first, body: firstBody } = await submit(1, everyField));
      const cancelled = await call(partner, PATHS.cancel, { busi_water_no: first });
      assert.equal(cancelled.status, 200, cancelled.text);
      // The same person again: a document the service refuses (not a document at all).
      ({ serial: second, body: secondBody } = await submit(1, {
        ...urls(2),
        sign_applicant: images.route(`/${storeName}/2/not-a-document`, {
          kind: 'bytes',
          body: Buffer.from('hello, this is not an image at all'),
        }),
        external_id: `ORDER-EXPORT-${storeName}-2`,
      }));

      // What the partner must never see: a screening hit with an operator's note, a risk assessment.
      const [hit] = await insertHits(
        service.ctx.store.db,
        [
          {
            busi_water_no: second,
            match: {
              list: 'un',
              version_id: 'planted',
              reference: `TSi.PLANTED.${second}`,
              matched_name: plantedList,
              matched_kind: 'primary',
              score: 0.95,
              fields: ['name_en'],
            },
            afterDelivery: false,
          },
        ],
        service.ctx.now(),
      );
      plantedReference = `TSi.PLANTED.${second}`;
      await clearHit(service.ctx, {
        busiWaterNo: second,
        hitId: hit!.id,
        operator: { username: 'first-reviewer', role: 'reviewer' },
        note: plantedNote,
        source: 'test',
      });
      // The risk job (run by the document service's runner) assesses the open application (the
      // cancelled one only if it ran before the cancel: a final application is not assessed).
      const deadline = Date.now() + 60_000;
      for (;;) {
        const assessed = await service.ctx.store.db
          .selectFrom('risk_assessments')
          .select('busi_water_no')
          .where('busi_water_no', '=', second)
          .executeTakeFirst();
        if (assessed !== undefined) break;
        if (Date.now() > deadline) assert.fail('the risk assessment was not written');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
    after(async () => {
      await exportRunner.stop();
      await service.close();
      await images.close();
    });

    test('the export holds every value submitted and every kept document byte for byte; no screening, risk or note; once, to its own partner', async () => {
      const made = await request(partner, 'access', second);
      assert.deepEqual(made.applications, [first, second]);
      assert.deepEqual(made.export, { ready: false, expires_at: null, fetched_at: null });
      const done = await completed(partner, made.request_id);
      assert.equal(done.export?.ready, true);
      assert.equal(done.export?.fetched_at, null);
      assert.ok(done.export !== null && done.export.expires_at !== null);

      // Another app: not found, like an unknown request, and the export is still there after it.
      const foreign = await download(other, made.request_id);
      assert.equal(foreign.status, 404);
      assert.equal(((await foreign.json()) as { code: number }).code, 40460);
      const foreignAudits = await downloadAudits(made.request_id);
      assert.equal(foreignAudits.length, 1);
      assert.deepEqual(
        [foreignAudits[0]!.actor, foreignAudits[0]!.source, JSON.parse(foreignAudits[0]!.details ?? '{}')],
        [`caller:${other.appId}`, 'caller-api', { outcome: 'not_found' }],
      );

      const reply = await download(partner, made.request_id);
      assert.equal(reply.status, 200);
      assert.match(reply.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(
        reply.headers.get('content-disposition'),
        `attachment; filename="subject-export-${made.request_id}.json"`,
      );
      assert.equal(reply.headers.get('cache-control'), 'no-store');
      assert.equal(reply.headers.get('x-content-type-options'), 'nosniff');
      const text = await reply.text();
      assert.equal(reply.headers.get('x-export-sha256'), sha256(Buffer.from(text, 'utf8')));
      const exported = JSON.parse(text) as Exported;
      assert.deepEqual(
        [exported.format, exported.version, exported.request_id, exported.kind, exported.app_id],
        ['cardapply.subject_export', 1, made.request_id, 'access', partner.appId],
      );
      assert.deepEqual(
        exported.applications.map((a) => a.busi_water_no),
        [first, second],
      );

      // Every value submitted, as submitted; the payment password's digest and the full card number never.
      for (const [serial, body] of [
        [first, firstBody],
        [second, secondBody],
      ] as const) {
        const application = exported.applications.find((a) => a.busi_water_no === serial)!;
        const expected = { ...body };
        delete expected['pay_pwd'];
        delete expected['card_no'];
        for (const [field, value] of Object.entries(expected))
          assert.deepEqual(application.submitted[field], value, `${serial} ${field}`);
        assert.equal(application.submitted['pay_pwd'], undefined);
        assert.equal(application.submitted['card_no'], undefined);
        assert.ok(!text.includes(String(body['pay_pwd'])), 'the payment password digest is not exported');
        if (body['card_no'] !== undefined) assert.ok(!text.includes(String(body['card_no'])));
      }
      // The history and outcomes the partner sees.
      const cancelled = exported.applications[0]!;
      assert.equal(cancelled.status.status, 'CANCELLED');
      assert.deepEqual(
        cancelled.status.history.map((h) => h.status),
        ['SUBMITTED', 'CANCELLED'],
      );
      assert.ok(cancelled.events.some((e) => e.type === 'application.cancelled'));
      assert.match(cancelled.status.card_no_masked, /^\d{6}\*+\d{4}$/);

      // Every kept document byte for byte; the refused one listed with its state, no bytes.
      for (const application of exported.applications) {
        for (const field of KEPT_FIELDS) {
          const document = application.documents.find((d) => d.field === field)!;
          if (application.busi_water_no === second && field === 'sign_applicant') {
            assert.deepEqual(
              [document.state, document.reason, document.content_base64, document.sha256],
              ['failed', 'not_a_document', null, null],
            );
            continue;
          }
          assert.equal(document.state, 'kept', `${application.busi_water_no} ${field}`);
          const bytes = Buffer.from(document.content_base64!, 'base64');
          assert.equal(bytes.length, bodies[field]!.length, field);
          assert.ok(bytes.equals(bodies[field]!), `${field}: byte for byte`);
          assert.equal(document.sha256, sha256(bodies[field]!));
          assert.equal(document.byte_size, bodies[field]!.length);
        }
      }

      // Nothing of screening, risk or the operator's note: not their keys, not their values.
      const risk = await service.ctx.store.db
        .selectFrom('risk_assessments')
        .select(['id', 'factors', 'policy_version'])
        .where('busi_water_no', '=', second)
        .executeTakeFirstOrThrow();
      for (const planted of [plantedNote, plantedList, plantedReference, risk.id, risk.policy_version])
        assert.ok(!text.includes(planted), `the export holds ${planted}`);
      for (const factor of JSON.parse(risk.factors) as { id?: string }[])
        if (factor.id !== undefined) assert.ok(!text.includes(`"${factor.id}"`), factor.id);
      for (const key of [
        'screening',
        'risk',
        'tier',
        'factors',
        'hit',
        'resolution_note',
        'note',
        'score',
        'routing',
      ])
        assert.ok(!new RegExp(`"${key}[a-z_]*"\\s*:`, 'i').test(text), `the export has a key ${key}`);

      const audits = await downloadAudits(made.request_id);
      assert.equal(audits.length, 2, 'the delivery wrote exactly one audit row');
      assert.deepEqual(
        [audits[1]!.actor, audits[1]!.target_type, audits[1]!.source, JSON.parse(audits[1]!.details ?? '{}')],
        [`caller:${partner.appId}`, 'subject_request', 'caller-api', { outcome: 'delivered' }],
      );

      // Once: the sealed copy is gone, a second download is refused (and audited once), the view says when.
      const left = await service.ctx.store.db
        .selectFrom('subject_export_chunks')
        .select('chunk_id')
        .where('request_id', '=', made.request_id)
        .execute();
      assert.deepEqual(left, []);
      const again = await download(partner, made.request_id);
      assert.equal(again.status, 410);
      assert.equal(((await again.json()) as { code: number }).code, 41060);
      const afterSecond = await downloadAudits(made.request_id);
      assert.equal(afterSecond.length, 3);
      assert.deepEqual(JSON.parse(afterSecond[2]!.details ?? '{}'), { outcome: 'already_delivered' });
      const view = (await call(partner, PATHS.subjectRequestQuery, { request_id: made.request_id })).body
        .data as RequestView;
      assert.equal(view.export?.ready, false);
      assert.ok(view.export?.fetched_at !== null && view.export?.fetched_at !== undefined);
    });

    test('two downloads at once: one gets the file, the other a 410; one audit row each', async () => {
      const made = await request(partner, 'access', first);
      await completed(partner, made.request_id);
      const replies = await Promise.all([
        download(partner, made.request_id),
        download(partner, made.request_id),
      ]);
      const answers = await Promise.all(
        replies.map(async (reply) => ({ status: reply.status, text: await reply.text() })),
      );
      assert.deepEqual(
        answers.map((a) => a.status).sort(),
        [200, 410],
        answers.map((a) => a.text.slice(0, 200)).join(' | '),
      );
      const file = JSON.parse(answers.find((a) => a.status === 200)!.text) as Exported;
      assert.equal(file.request_id, made.request_id);
      const outcomes = (await downloadAudits(made.request_id)).map(
        (a) => (JSON.parse(a.details ?? '{}') as { outcome: string }).outcome,
      );
      assert.deepEqual(outcomes.sort(), ['already_delivered', 'delivered']);
    });

    test('an export not downloaded in SUBJECT_EXPORT_HOURS is erased by its job; a request without an export has none to download', async () => {
      const made = await request(partner, 'portability', second);
      const done = await completed(partner, made.request_id);
      assert.equal(done.export?.ready, true);
      const chunks = () =>
        service.ctx.store.db
          .selectFrom('subject_export_chunks')
          .select('chunk_id')
          .where('request_id', '=', made.request_id)
          .execute();
      assert.ok((await chunks()).length > 0);

      // The clock moved past the expiry: the expiry job runs and erases it.
      const realNow = service.ctx.now;
      Object.assign(service.ctx, { now: () => Date.now() + 2 * HOUR_MS + 60_000 });
      try {
        const deadline = Date.now() + 60_000;
        while ((await chunks()).length > 0) {
          if (Date.now() > deadline) assert.fail('the expired export was not erased');
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } finally {
        Object.assign(service.ctx, { now: realNow });
      }
      const erased = await service.ctx.store.db
        .selectFrom('subject_exports')
        .select(['erased_at', 'fetched_at'])
        .where('request_id', '=', made.request_id)
        .executeTakeFirstOrThrow();
      assert.ok(erased.erased_at !== null);
      assert.equal(erased.fetched_at, null);
      const late = await download(partner, made.request_id);
      assert.equal(late.status, 410);
      assert.equal(((await late.json()) as { code: number }).code, 41061);
      const view = (await call(partner, PATHS.subjectRequestQuery, { request_id: made.request_id })).body
        .data as RequestView;
      assert.deepEqual([view.export?.ready, view.export?.fetched_at], [false, null]);
      assert.equal((await downloadAudits(made.request_id)).length, 1);

      // A deletion request has no export: its download is refused, and audited.
      const deletion = await request(partner, 'deletion', first);
      assert.equal(deletion.export, null);
      const none = await download(partner, deletion.request_id);
      assert.equal(none.status, 409);
      assert.equal(((await none.json()) as { code: number }).code, 40998);
      assert.equal((await downloadAudits(deletion.request_id)).length, 1);
    });

    test('an export waiting for its download holds its key in use, moves on re-encryption, and still reads', async () => {
      const made = await request(partner, 'access', second);
      await completed(partner, made.request_id);
      const before = await keyStatus(service.ctx);
      const oldKey = service.ctx.keyRing.currentKeyId;
      assert.ok((before.tables['subject_export_chunks']?.[oldKey] ?? 0) > 0);

      const rotated = await rotateKey(service.ctx, { actor: SYSTEM, source: 'test' });
      let ctx: ServiceContext = service.ctx;
      let opened: ServiceContext | undefined;
      if (rotated.mode === 'file') {
        assert.ok(ctx.keyRing instanceof LiveKeyRing);
        ctx.keyRing.refreshIfChanged();
      } else {
        // What the instances would run with once both deploy steps are done.
        opened = await openContext(
          loadConfig({ ...service.target.env, ENCRYPTION_KEYS: rotated.steps![1]!.env['ENCRYPTION_KEYS']! }),
          createLogger({ logLevel: 'silent' }),
        );
        ctx = opened;
      }
      try {
        // The old key still encrypts the waiting export: retiring it now would leave it unreadable.
        await assert.rejects(retireKey(ctx, oldKey, { actor: SYSTEM, source: 'test' }), /still encrypts/);
        const report = await reencryptAll(ctx, { batchSize: 2 });
        assert.deepEqual(report.failed, []);
        assert.ok((report.moved['subject_export_chunks'] ?? 0) > 0);
        const after = await keyStatus(ctx);
        assert.deepEqual(Object.keys(after.tables['subject_export_chunks'] ?? {}), [rotated.key_id]);
        const delivered = await downloadSubjectExport(
          ctx,
          { appId: partner.appId, rateLimitPerSecond: null, rateLimitBurst: null, concurrencyLimit: null },
          made.request_id,
        );
        assert.equal((JSON.parse(delivered.body.toString('utf8')) as Exported).request_id, made.request_id);
        assert.equal(sha256(delivered.body), delivered.sha256);
      } finally {
        await opened?.store.close();
      }
    });

    test('no identity value submitted reaches the log', () => {
      const log = service.logs.join('');
      assert.ok(log.includes('subject export ready'), 'the job logged its work');
      for (const body of [firstBody, secondBody])
        for (const field of [
          'cert_id',
          'mob_no',
          'email',
          'name',
          'name_en',
          'address',
          'card_no',
        ] as const) {
          const value = body[field];
          if (typeof value === 'string') assert.ok(!log.includes(value), `${field} is in the log`);
        }
      assert.ok(!log.includes(plantedNote));
    });
  });
}

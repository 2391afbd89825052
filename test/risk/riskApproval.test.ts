import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_RISK_POLICY_URL } from '../../src/policies/riskPolicy.ts';
import { PATHS } from '../../src/http/paths.ts';
import type { RiskView } from '../../src/risk/riskView.ts';
import type { ApprovalRequestView } from '../../src/risk/approvalRequestView.ts';
import { pngImage } from '../helpers/documentImages.ts';
import { startDocumentServer, type DocumentServer } from '../helpers/documentServer.ts';
import {
  queryStatus,
  settledDocuments,
  startDocumentService,
  type DocumentService,
} from '../helpers/documentService.ts';
import { createLogger } from '../../src/logger.ts';
import { assessApplication } from '../../src/risk/assessApplication.ts';
import { ADMIN, call, newOperator, type TestOperator } from '../helpers/operators.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { newPartner, nowSeconds, post, type TestPartner } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';
import { cardapply, cardapplyFails, cardapplyJson } from '../helpers/cli.ts';

/**
 * Issue 52's approvals over HTTP on every store: an operator's approve weighs the application's
 * latest risk assessment. The service runs under a policy of the issuer's that routes `high` to
 * enhanced review (two operators), its relay and job runner assessing each application as in
 * production, with images fetched from a real HTTP server. Nothing of it reaches the partner.
 */

const FIELDS = ['id_card_img', 'id_card_back_img', 'passport_img', 'sign_applicant', 'pay_voucher'] as const;
type Field = (typeof FIELDS)[number];
const silent = createLogger({ logLevel: 'silent' });

interface View {
  status: string;
  version: number;
  risk: RiskView | null;
  approval_request: ApprovalRequestView | null;
}

for (const storeName of storeNames()) {
  describe(`approvals weigh the risk assessment (${storeName})`, () => {
    let service: DocumentService;
    let images: DocumentServer;
    let partner: TestPartner;
    let first: TestOperator;
    let second: TestOperator;
    let policyDir: string;
    let policyFile: string;
    let n = 0;

    before(async () => {
      policyDir = mkdtempSync(join(tmpdir(), 'risk-approval-'));
      const policy = JSON.parse(readFileSync(DEFAULT_RISK_POLICY_URL, 'utf8')) as {
        routing: Record<string, string>;
      };
      policy.routing['high'] = 'enhanced_review';
      policyFile = join(policyDir, 'enhanced.json');
      writeFileSync(policyFile, JSON.stringify(policy));
      images = await startDocumentServer();
      service = await startDocumentService(storeName, { RISK_POLICY_FILE: policyFile });
      partner = await newPartner(service);
      first = await newOperator(service, 'reviewer');
      second = await newOperator(service, 'reviewer');
    });
    after(async () => {
      await service.close();
      await images.close();
      rmSync(policyDir, { recursive: true, force: true });
    });

    /** Five distinct images, or what `override` says for a field. */
    const urls = (tag: string, override: Partial<Record<Field, string>> = {}) =>
      Object.fromEntries(
        FIELDS.map((field, i) => [
          field,
          override[field] ??
            images.route(`/${storeName}/${tag}/${n}/${field}.png`, {
              kind: 'bytes',
              body: pngImage(500 + n * 7 + i, 400),
            }),
        ]),
      );
    const gone = (tag: string) =>
      images.route(`/${storeName}/${tag}/${n}/gone.png`, { kind: 'status', status: 404 });

    async function submit(fields: Record<string, string>) {
      n++;
      const body = {
        ...uniqueApplicant(1000 + n, partner.appId),
        mob_no: `138${String(30_000_000 + n * 7919 + (storeName === 'sqlite' ? 0 : 1)).slice(-8)}`,
        email: `approval.${storeName}.${n}.${Date.now()}@example.com`,
        ...fields,
        timestamp: nowSeconds(),
      };
      const reply = await post(service.baseUrl, PATHS.apply, body, { token: partner.token });
      assert.equal(reply.status, 200, reply.text);
      return (reply.body.data as { busi_water_no: string }).busi_water_no;
    }

    const view = async (serial: string): Promise<View> => {
      const reply = await call(service, 'GET', `${ADMIN}/applications/${serial}`, { token: first.token });
      assert.equal(reply.status, 200, reply.text);
      return reply.body.data as View;
    };

    /**
     * Assessed once its images are settled: the job does it, but may wait up to 15 s to come back
     * for an image that failed late; the same assessment made here is one the job stores once.
     */
    async function assessed(serial: string): Promise<RiskView> {
      await settledDocuments(service, partner, serial);
      // The job may be assessing it at this very moment: both succeed (riskAssessment.test.ts).
      const result = await assessApplication(service.ctx, serial, 'test', silent);
      assert.equal(result.outcome, 'assessed');
      const { risk } = await view(serial);
      assert.ok(risk !== null);
      return risk;
    }

    /** Submitted, assessed, and taken into review: what a reviewer approves. */
    async function inReview(fields: Record<string, string>): Promise<{ serial: string; risk: RiskView }> {
      const serial = await submit(fields);
      const risk = await assessed(serial);
      const review = await call(service, 'POST', `${ADMIN}/applications/${serial}/review`, {
        token: first.token,
        body: {},
      });
      assert.equal(review.status, 200, review.text);
      return { serial, risk };
    }

    const approve = (serial: string, by: TestOperator, body: Record<string, unknown> = {}) =>
      call(service, 'POST', `${ADMIN}/applications/${serial}/approve`, { token: by.token, body });

    const auditOf = async (serial: string) =>
      (
        await service.ctx.store.db
          .selectFrom('audit_log')
          .select(['actor', 'action', 'details'])
          .where('target_id', '=', serial)
          .orderBy('seq')
          .execute()
      ).map((row) => ({
        ...row,
        details: row.details === null ? null : (JSON.parse(row.details) as Record<string, unknown>),
      }));

    /** An application with another applicant's photo in it: `image_reused`, high, enhanced review. */
    async function reusedPhoto(tag: string) {
      const photo = pngImage(777, 555 + n);
      const shared = () =>
        images.route(`/${storeName}/${tag}/${n}-${Math.random()}.png`, { kind: 'bytes', body: photo });
      await assessed(await submit(urls(`${tag}-other`, { id_card_img: shared() })));
      const found = await inReview(urls(tag, { id_card_img: shared() }));
      assert.equal(found.risk.tier, 'high');
      assert.equal(found.risk.routing, 'enhanced_review');
      assert.ok(found.risk.factors.some((f) => f.code === 'image_reused'));
      return found.serial;
    }

    const NOTE = 'Both applicants are twins photographed by the same studio; checked by phone.';
    const SECOND_NOTE = 'Agree: the studio confirmed both sittings.';

    // Each refused approve: the factors, the body, and the status and code it answers.
    const refusals: [
      string,
      () => Promise<{ serial: string }>,
      Record<string, unknown>,
      number,
      number,
      RegExp,
    ][] = [
      [
        'a required image not kept cannot be approved, even with a note',
        async () => inReview(urls('missing', { pay_voucher: gone('missing') })),
        { risk_acknowledgements: [{ code: 'required_image_missing', note: 'seen on paper' }] },
        409,
        40980,
        /required_image_missing/,
      ],
      [
        'a high factor without a note is refused, naming it',
        async () => ({ serial: await reusedPhoto('nonote') }),
        {},
        422,
        42281,
        /image_reused/,
      ],
      [
        'a note carrying an identity number is refused as the reason field is',
        async () => ({ serial: await reusedPhoto('number') }),
        { risk_acknowledgements: [{ code: 'image_reused', note: 'id 110101199003070000 checked' }] },
        422,
        42251,
        /risk_acknowledgements\[0\]\.note/,
      ],
    ];
    for (const [name, make, body, status, code, message] of refusals) {
      test(name, async () => {
        const { serial } = await make();
        const reply = await approve(serial, first, body);
        assert.equal(reply.status, status, reply.text);
        const envelope = reply.body as { code: number; msg: string; data: unknown };
        const codes = JSON.stringify(envelope);
        assert.ok(envelope.code === code || codes.includes(`"code":${code}`), reply.text);
        assert.match(reply.text, message);
        const after = await view(serial);
        assert.equal(after.status, 'IN_REVIEW');
        assert.equal(after.approval_request, null);
      });
    }

    test('a factor that is not high is acknowledged without a note; one operator approves under review', async () => {
      const { serial, risk } = await inReview(urls('refused', { id_card_back_img: gone('refused') }));
      assert.equal(risk.routing, 'review');
      assert.deepEqual(
        risk.factors.map((f) => f.code),
        ['image_refused'],
      );
      const reply = await approve(serial, first, { risk_acknowledgements: [{ code: 'image_refused' }] });
      assert.equal(reply.status, 200, reply.text);
      assert.equal((reply.body.data as View).status, 'APPROVED');
      const approval = (await auditOf(serial)).find((row) => row.details?.['to'] === 'APPROVED');
      assert.deepEqual(approval?.details?.['risk_acknowledgements'], [
        { code: 'image_refused', high: false },
      ]);
    });

    test('enhanced review: the first approve asks, the same operator cannot confirm, a second one approves', async () => {
      const serial = await reusedPhoto('enhanced');
      const ack = (note: string) => ({ risk_acknowledgements: [{ code: 'image_reused', note }] });

      const asked = await approve(serial, first, ack(NOTE));
      assert.equal(asked.status, 202, asked.text);
      const pending = asked.body.data as View;
      assert.equal(pending.status, 'IN_REVIEW');
      assert.equal(pending.approval_request?.requested_by, first.username);
      assert.deepEqual(pending.approval_request?.acknowledgements, [
        { code: 'image_reused', high: true, note: NOTE },
      ]);
      assert.ok(Math.abs(pending.approval_request.requested_at - nowSeconds()) < 60);

      const again = await approve(serial, first, ack(NOTE));
      assert.equal(again.status, 409, again.text);
      assert.equal((again.body as { code: number }).code, 40981);

      const noNote = await approve(serial, second);
      assert.equal(noNote.status, 422, noNote.text);
      assert.equal((await view(serial)).status, 'IN_REVIEW');

      const confirmed = await approve(serial, second, ack(SECOND_NOTE));
      assert.equal(confirmed.status, 200, confirmed.text);
      const done = confirmed.body.data as View;
      assert.equal(done.status, 'APPROVED');
      assert.equal(done.approval_request, null, 'the request is consumed');

      // One request row, one transition row, each with its operator's note; the transition names the request.
      const trail = (await auditOf(serial)).filter((row) =>
        ['application.approval_request', 'application.transition'].includes(row.action),
      );
      const request = trail.find((row) => row.action === 'application.approval_request');
      assert.equal(request?.actor, `operator:${first.username}`);
      assert.deepEqual(request?.details?.['risk_acknowledgements'], [
        { code: 'image_reused', high: true, note: NOTE },
      ]);
      const approval = trail.find((row) => row.details?.['to'] === 'APPROVED');
      assert.equal(approval?.actor, `operator:${second.username}`);
      assert.deepEqual(approval?.details?.['risk_acknowledgements'], [
        { code: 'image_reused', high: true, note: SECOND_NOTE },
      ]);
      assert.deepEqual(approval?.details?.['approval_request'], {
        requested_by: first.username,
        requested_at: pending.approval_request.requested_at,
        risk_acknowledgements: [{ code: 'image_reused', high: true, note: NOTE }],
      });
      assert.equal((approval?.details?.['risk_assessment'] as { tier: string }).tier, 'high');

      // The partner: an approval as any other, and no trace of the weighing.
      const status = JSON.stringify(await queryStatus(service, partner, serial));
      assert.match(status, /APPROVED/);
      const events = await post(
        service.baseUrl,
        PATHS.events,
        { app_id: partner.appId, timestamp: nowSeconds(), busi_water_no: serial },
        { token: partner.token },
      );
      assert.equal(events.status, 200, events.text);
      // What webhooks deliver: the stored events' payloads.
      const payloads = await service.ctx.store.db
        .selectFrom('events')
        .select('payload')
        .where('busi_water_no', '=', serial)
        .execute();
      for (const text of [status, events.text, JSON.stringify(payloads)]) {
        for (const word of [
          'risk',
          'tier',
          'score',
          'factor',
          'image_reused',
          'acknowledg',
          'approval_request',
          'twins',
          'studio',
        ]) {
          assert.ok(!text.includes(word), `"${word}" reached the partner: ${text.slice(0, 300)}`);
        }
      }
    });

    test('a rejection drops the pending request', async () => {
      const serial = await reusedPhoto('rejected');
      const asked = await approve(serial, first, {
        risk_acknowledgements: [{ code: 'image_reused', note: NOTE }],
      });
      assert.equal(asked.status, 202, asked.text);
      const rejected = await call(service, 'POST', `${ADMIN}/applications/${serial}/reject`, {
        token: second.token,
        body: { reason_codes: ['document_unreadable'] },
      });
      assert.equal(rejected.status, 200, rejected.text);
      assert.equal((rejected.body.data as View).approval_request, null);
      const rows = await service.ctx.store.db
        .selectFrom('risk_approval_requests')
        .select('busi_water_no')
        .where('busi_water_no', '=', serial)
        .execute();
      assert.deepEqual(rows, []);
    });

    test('the CLI approve weighs it alike: --acknowledge gives the notes, and it says when it only asked', async () => {
      const serial = await reusedPhoto('cli');
      const env = { ...service.target.env, RISK_POLICY_FILE: policyFile, LOG_LEVEL: 'silent' };
      const approve = (by: TestOperator, ...more: string[]) => [
        'applications',
        'approve',
        serial,
        '--operator',
        by.username,
        ...more,
      ];
      assert.match(await cardapplyFails(env, ...approve(first)), /image_reused/);
      assert.match(
        await cardapply(env, ...approve(first, '--acknowledge', `image_reused=${NOTE}`)),
        /IN_REVIEW .*approval requested: a second operator must approve/,
      );
      const done = await cardapplyJson<View>(
        env,
        ...approve(second, '--acknowledge', `image_reused=${SECOND_NOTE}`),
      );
      assert.equal(done.status, 'APPROVED');
    });
  });
}

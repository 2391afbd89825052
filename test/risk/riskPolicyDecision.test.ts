import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { decideByPolicy } from '../../src/applications/commands/policyDecision.ts';
import { PATHS } from '../../src/http/paths.ts';
import { createLogger } from '../../src/logger.ts';
import { DEFAULT_RISK_POLICY_URL } from '../../src/policies/riskPolicy.ts';
import { assessApplication } from '../../src/risk/assessApplication.ts';
import type { RiskView } from '../../src/risk/riskView.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { pngImage } from '../helpers/documentImages.ts';
import { startDocumentServer, type DocumentServer } from '../helpers/documentServer.ts';
import { queryStatus, startDocumentService, type DocumentService } from '../helpers/documentService.ts';
import { ADMIN, call, newOperator, type TestOperator } from '../helpers/operators.ts';
import { newPartner, nowSeconds, post, type TestPartner } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';
import { plantHit } from '../screening/screeningHelpers.ts';

/**
 * Issue 52's routing acted on, end to end on every store: an issuer's policy file turns
 * straight-through approval on for `low` and the decline on for `prohibited`; a real service
 * fetches the images, the risk job assesses, and the policy moves the application as an operator
 * would, by the actor `policy:<version>`. The partner sees exactly what an operator's decision
 * produces. What the policy must not do is tested too: decide what a reviewer holds, or move an
 * application that changed since it was assessed.
 */

const FIELDS = ['id_card_img', 'id_card_back_img', 'passport_img', 'sign_applicant', 'pay_voucher'] as const;
const silent = createLogger({ logLevel: 'silent' });

for (const storeName of storeNames()) {
  describe(`the risk policy decides (${storeName})`, () => {
    let service: DocumentService;
    let images: DocumentServer;
    let partner: TestPartner;
    let reviewer: TestOperator;
    let dir: string;
    let n = 0;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'risk-policy-decides-'));
      const policy = JSON.parse(readFileSync(DEFAULT_RISK_POLICY_URL, 'utf8')) as {
        name: string;
        routing: Record<string, string>;
      };
      policy.name = 'straight-through';
      policy.routing['low'] = 'auto_approve';
      policy.routing['prohibited'] = 'decline';
      writeFileSync(join(dir, 'policy.json'), JSON.stringify(policy, null, 2));
      images = await startDocumentServer();
      service = await startDocumentService(storeName, { RISK_POLICY_FILE: join(dir, 'policy.json') });
      partner = await newPartner(service);
      reviewer = await newOperator(service, 'reviewer');
    });
    after(async () => {
      await service.close();
      await images.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const urls = (tag: string, override: Partial<Record<(typeof FIELDS)[number], string>> = {}) =>
      Object.fromEntries(
        FIELDS.map((field, i) => [
          field,
          override[field] ??
            images.route(`/${storeName}/${tag}/${field}.png`, {
              kind: 'bytes',
              body: pngImage(300 + n * 7 + i, 400),
            }),
        ]),
      );

    /** An image route answered only when the test says so: the assessment waits for it. */
    function heldImage(tag: string): { url: string; release: () => void } {
      let release!: () => void;
      const url = images.route(`/${storeName}/${tag}/held.png`, {
        kind: 'held',
        until: new Promise((resolve) => {
          release = () => resolve({ kind: 'bytes', body: pngImage(333 + n, 444) });
        }),
      });
      return { url, release };
    }

    async function submit(fields: Record<string, string>) {
      n++;
      const body = {
        ...uniqueApplicant(n, partner.appId),
        mob_no: `136${String(30_000_000 + n * 7919 + (storeName === 'sqlite' ? 0 : 1)).slice(-8)}`,
        email: `policy.${storeName}.${n}.${Date.now()}@example.com`,
        ...fields,
        timestamp: nowSeconds(),
      };
      const reply = await post(service.baseUrl, PATHS.apply, body, { token: partner.token });
      assert.equal(reply.status, 200, reply.text);
      return (reply.body.data as { busi_water_no: string }).busi_water_no;
    }

    const adminView = async (serial: string) => {
      const reply = await call(service, 'GET', `${ADMIN}/applications/${serial}`, { token: reviewer.token });
      assert.equal(reply.status, 200, reply.text);
      return reply.body.data as { status: string; risk: RiskView | null };
    };

    async function until<T>(what: string, read: () => Promise<T | undefined>, withinMs = 20_000): Promise<T> {
      const deadline = Date.now() + withinMs;
      for (;;) {
        const value = await read();
        if (value !== undefined) return value;
        if (Date.now() > deadline) throw new Error(`${what}: not within ${withinMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }

    const statusOf = async (serial: string, status: string) =>
      until(`${serial} ${status}`, async () => {
        const view = await queryStatus(service, partner, serial);
        return view.status === status ? view : undefined;
      });

    const assessed = (serial: string) =>
      until(`${serial} assessed`, async () => (await adminView(serial)).risk ?? undefined);

    const transitionsAudited = (serial: string) =>
      service.ctx.store.db
        .selectFrom('audit_log')
        .select(['actor', 'details', 'source'])
        .where('target_id', '=', serial)
        .where('action', '=', 'application.transition')
        .orderBy('at')
        .execute();

    const partnerEvents = async (serial: string) => {
      const reply = await post(
        service.baseUrl,
        PATHS.events,
        { app_id: partner.appId, timestamp: nowSeconds(), busi_water_no: serial },
        { token: partner.token },
      );
      assert.equal(reply.status, 200, reply.text);
      return reply.text;
    };

    /** Nothing of the rating in what the partner reads. */
    function noTrace(text: string, risk: RiskView): void {
      for (const word of ['tier', 'score', 'factor', 'policy:', 'auto_approve', risk.policy_version]) {
        assert.ok(!text.includes(word), `"${word}" reached the partner: ${text.slice(0, 300)}`);
      }
    }

    test('a clean low-risk application is approved by the policy within seconds', async () => {
      const started = Date.now();
      const serial = await submit(urls('clean'));
      const view = await statusOf(serial, 'APPROVED');
      const took = Date.now() - started;
      assert.ok(took < 15_000, `approved after ${took} ms`);
      const risk = await assessed(serial);
      assert.equal(risk.tier, 'low');
      assert.equal(risk.routing, 'auto_approve');
      const policyActor = `policy:${service.ctx.riskPolicy.version}`;
      const audit = await transitionsAudited(serial);
      assert.deepEqual(
        audit.map((row) => [row.actor, (JSON.parse(row.details ?? '{}') as { to: string }).to]),
        [
          [policyActor, 'IN_REVIEW'],
          [policyActor, 'APPROVED'],
        ],
      );
      assert.ok(audit.every((row) => row.source === 'risk-policy'));
      // The operator's view names the policy in the history; the partner's sees an approval.
      const history = (await adminView(serial)) as unknown as {
        history: { status: string; actor: string }[];
      };
      assert.equal(history.history.at(-1)?.actor, policyActor);
      const events = await partnerEvents(serial);
      assert.match(events, /application\.approved/);
      noTrace(JSON.stringify(view), risk);
      noTrace(events, risk);
      assert.match(
        await service.ctx.metrics.registry.getSingleMetricAsString('cardapply_risk_policy_decisions_total'),
        /\{routing="auto_approve"\} [1-9]/,
      );
      // Assessed again (a retried job, evidence that changes nothing): nothing moves twice.
      const again = await assessApplication(service.ctx, serial, 'test', silent);
      assert.equal(again.outcome, 'assessed');
      if (again.outcome === 'assessed') {
        assert.equal(again.stored, false);
        assert.equal(await decideByPolicy(service.ctx, serial, again, silent), undefined);
      }
      assert.equal((await transitionsAudited(serial)).length, 2);
    });

    test('a prohibited application is declined with risk_policy, as an operator would decline it', async () => {
      const held = heldImage('listed');
      const serial = await submit(urls('listed', { pay_voucher: held.url }));
      await plantHit(service, serial);
      held.release();
      const view = await statusOf(serial, 'REJECTED');
      const risk = await assessed(serial);
      assert.equal(risk.tier, 'prohibited');
      assert.equal(risk.routing, 'decline');
      const audit = await transitionsAudited(serial);
      assert.deepEqual(
        audit.map((row) => [row.actor, JSON.parse(row.details ?? '{}') as unknown]),
        [
          [
            `policy:${service.ctx.riskPolicy.version}`,
            { from: 'SUBMITTED', to: 'REJECTED', reason: null, reason_codes: ['risk_policy'] },
          ],
        ],
      );
      const entry = view as unknown as { reason_codes: string[]; history: { reason_codes: string[] }[] };
      assert.deepEqual(entry.reason_codes, ['risk_policy']);
      const events = await partnerEvents(serial);
      assert.match(events, /application\.rejected/);
      assert.doesNotMatch(events, /sanctions|PLANTED/);
      noTrace(JSON.stringify(view), risk);
      noTrace(events, risk);
    });

    test('an application with an open factor is left to review, whatever the routing of low', async () => {
      const serial = await submit(
        urls('missing', {
          passport_img: images.route(`/${storeName}/missing.png`, { kind: 'status', status: 404 }),
        }),
      );
      const risk = await assessed(serial);
      assert.equal(risk.routing, 'review');
      assert.equal((await adminView(serial)).status, 'SUBMITTED');
      assert.deepEqual(await transitionsAudited(serial), []);
    });

    test('the policy does not decide what a reviewer holds, nor what changed since it was assessed', async () => {
      const held = heldImage('claimed');
      const serial = await submit(urls('claimed', { pay_voucher: held.url }));
      // A reviewer takes it into review (and so holds its claim) before the images are in.
      const review = await call(service, 'POST', `${ADMIN}/applications/${serial}/review`, {
        token: reviewer.token,
        body: {},
      });
      assert.equal(review.status, 200, review.text);
      held.release();
      const risk = await assessed(serial);
      assert.equal(risk.routing, 'auto_approve');
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal((await adminView(serial)).status, 'IN_REVIEW', 'left with the reviewer');
      // Once nobody holds it, a decision made on a stale read is refused by the version check.
      await service.ctx.store.db.deleteFrom('review_claims').where('busi_water_no', '=', serial).execute();
      const result = await assessApplication(service.ctx, serial, 'test', silent);
      assert.equal(result.outcome, 'assessed');
      if (result.outcome !== 'assessed') return;
      const stale = await decideByPolicy(
        service.ctx,
        serial,
        { ...result, version: result.version - 1 },
        silent,
      );
      assert.deepEqual(stale, { routing: 'auto_approve', moved: [], left: 'concurrentChange' });
      assert.equal((await adminView(serial)).status, 'IN_REVIEW');
      // As read now, it is the policy's to approve.
      const decided = await decideByPolicy(service.ctx, serial, result, silent);
      assert.deepEqual(decided, { routing: 'auto_approve', moved: ['APPROVED'] });
      await statusOf(serial, 'APPROVED');
    });
  });
}

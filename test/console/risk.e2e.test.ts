import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { SYSTEM } from '../../src/audit/actor.ts';
import { submitApplication } from '../../src/applications/commands/submitApplication.ts';
import { createApp } from '../../src/partners/credentials.ts';
import { createOperator } from '../../src/operators/operators.ts';
import type { Tier } from '../../src/policies/riskPolicy.ts';
import { insertAssessment, keepPolicy } from '../../src/risk/riskRepository.ts';
import { importList } from '../../src/screening/importList.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { skipWithout } from '../helpers/components.ts';
import { partnerOf, TEST_PASSWORD } from '../helpers/operators.ts';
import { startService, type TestService } from '../helpers/service.ts';
import { assertAccessible } from './axe.ts';
import { launchBrowser, newOperatorContext, type TestBrowser } from './browser.ts';
import { assertLabelled, assertNoRawWords, signInOverApi, waitUntil } from './steps.ts';

/**
 * The risk rating in the console (issue 52), in Chromium, in English and Chinese: the rating and
 * each factor's reason on the application page; the queue's tier column, filter and sort; the
 * approve dialog that lists the open factors and cannot be confirmed before each is acknowledged
 * and each high one has its note, and that a blocking factor leaves not approvable. axe finds
 * nothing on any of them.
 */

/** A harmless test-made list entry: approvals need a screening list in force. */
const LIST = `<?xml version="1.0" encoding="UTF-8"?>
<CONSOLIDATED_LIST><INDIVIDUALS><INDIVIDUAL><DATAID>1</DATAID><FIRST_NAME>NOBODY</FIRST_NAME>
<SECOND_NAME>LISTEDHERE</SECOND_NAME><REFERENCE_NUMBER>TSi.RISK</REFERENCE_NUMBER>
</INDIVIDUAL></INDIVIDUALS></CONSOLIDATED_LIST>`;

/**
 * Whether the approve move accepts `risk_acknowledgements` yet (another change of this round adds
 * it): until then the approval with acknowledgements is refused as an unknown field, so the step
 * that confirms waits for it.
 */
const approveBody = (
  JSON.parse(readFileSync(new URL('../../openapi.admin.json', import.meta.url), 'utf8')) as {
    paths: Record<
      string,
      { post?: { requestBody?: { content: Record<string, { schema: { properties?: object } }> } } }
    >;
  }
).paths['/admin/v1/applications/{busi_water_no}/approve']?.post?.requestBody?.content['application/json']
  ?.schema;
const acceptsAcknowledgements = Object.keys(approveBody?.properties ?? {}).includes('risk_acknowledgements');

describe('the risk rating in the console', { skip: skipWithout('chromium') }, () => {
  let service: TestService;
  let browser: TestBrowser;
  let appId: string;
  /** High: a reused image (a high factor: a note) and a shared mobile number. */
  let rated: string;
  /** Medium: a required image not kept, which blocks approval. */
  let blocked: string;
  let unrated: string;
  const contexts: BrowserContext[] = [];
  const errors: string[][] = [];

  const open = async (path: string, language: 'en' | 'zh' = 'en'): Promise<Page> => {
    const opened = await newOperatorContext(browser.browser, { language });
    contexts.push(opened.context);
    errors.push(opened.errors);
    await signInOverApi(opened.page, service.baseUrl, 'rita');
    await opened.page.goto(`${service.baseUrl}${path}`);
    return opened.page;
  };
  const openApplication = async (serial: string, language: 'en' | 'zh' = 'en') => {
    const page = await open(`/console/applications/${serial}`, language);
    await page.waitForSelector('section.risk-rating');
    return page;
  };

  async function rate(serial: string, tier: Tier, score: number, factors: unknown[]) {
    const { ctx } = service;
    const policy = ctx.riskPolicy;
    await keepPolicy(ctx.store.db, {
      version: policy.version,
      name: policy.policy.name,
      content: policy.content,
      first_used_at: Date.now(),
    });
    await insertAssessment(ctx.store.db, {
      id: randomUUID(),
      busi_water_no: serial,
      tier,
      score,
      routing: 'review',
      policy_version: policy.version,
      factors: JSON.stringify(factors),
      evidence: '{}',
      cause: 'test',
      assessed_at: Date.now(),
    });
  }

  before(async () => {
    service = await startService('sqlite');
    browser = await launchBrowser();
    const { ctx } = service;
    await createOperator(
      ctx,
      { username: 'rita', role: 'reviewer', password: TEST_PASSWORD },
      { actor: SYSTEM, source: 'test' },
    );
    appId = (await createApp(ctx.store.db, 'Harbour Pay', Date.now())).app_id;
    await importList(ctx, {
      list: 'un',
      source: (async function* () {
        yield LIST;
      })(),
      actor: 'system',
      origin: 'test',
    });
    const submit = async (n: number) =>
      (await submitApplication(ctx, partnerOf(appId), uniqueApplicant(n, appId))).busi_water_no;
    unrated = await submit(71);
    blocked = await submit(72);
    rated = await submit(73);
    await rate(rated, 'high', 60, [
      {
        code: 'image_reused',
        weight: 40,
        evidence: { images: [{ field: 'passport_img', serials: [blocked] }] },
      },
      { code: 'shared_mobile', weight: 20, evidence: { applications: 1, serials: [blocked] } },
    ]);
    await rate(blocked, 'medium', 30, [
      {
        code: 'required_image_missing',
        weight: 30,
        evidence: { fields: ['passport_img'] },
        blocks_approval: true,
      },
    ]);
  });

  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await service?.close();
    assert.deepEqual(errors.flat(), [], 'no script errors or CSP violations');
  });

  test('the application page shows the rating and why, in words, in English and Chinese', async () => {
    const page = await openApplication(rated);
    const panel = page.locator('section.risk-rating');
    const text = await panel.innerText();
    assert.match(text, /Risk rating/);
    assert.equal(await panel.locator('.tier[data-tier="high"]').innerText(), 'High');
    assert.match(text, /Score\s+60/);
    assert.match(text, /Review by an operator/);
    assert.match(text, new RegExp(service.ctx.riskPolicy.version));
    const reused = panel.locator('[data-factor="image_reused"]');
    assert.match(await reused.innerText(), /Same image in another applicant’s application/);
    assert.match(await reused.innerText(), new RegExp(`Passport, also in ${blocked}`));
    assert.match(await reused.innerText(), /Needs a note/);
    const shared = panel.locator('[data-factor="shared_mobile"]');
    assert.match(await shared.innerText(), /Mobile number given by another applicant/);
    assert.match(await shared.innerText(), new RegExp(`1 other application\\(s\\): ${blocked}`));
    // The code is there, small and marked as an identifier; the label is the words.
    assert.equal(await reused.locator('.risk-code [translate="no"]').innerText(), 'image_reused');
    await assertNoRawWords(page, 'rated application');
    await assertLabelled(page, 'rated application');
    await assertAccessible(page, 'rated application');

    const zh = await openApplication(blocked, 'zh');
    const zhText = await zh.locator('section.risk-rating').innerText();
    assert.match(zhText, /风险评级/);
    assert.match(zhText, /中/);
    assert.match(zhText, /必需图片未保存/);
    assert.match(zhText, /阻止批准/);
    await assertNoRawWords(zh, 'zh blocked application');
    await assertAccessible(zh, 'zh blocked application');

    const none = await openApplication(unrated);
    assert.match(await none.locator('section.risk-rating').innerText(), /Not yet rated/);
  });

  test('the queue: a tier column, a tier filter and the sort by tier, in English and Chinese', async () => {
    const page = await open(`/console/?app_id=${appId}`);
    await page.waitForSelector('.queue-table tbody tr[data-serial]');
    const tierOf = (serial: string) =>
      page.locator(`tr[data-serial="${serial}"] td[data-column="risk"] .tier`).getAttribute('data-tier');
    assert.equal(await tierOf(rated), 'high');
    assert.equal(await tierOf(blocked), 'medium');
    assert.equal(await tierOf(unrated), 'unrated');
    assert.equal(
      await page.locator(`tr[data-serial="${unrated}"] td[data-column="risk"]`).innerText(),
      'Not yet rated',
    );
    const rows = () =>
      page.evaluate(
        `[...document.querySelectorAll('.queue-table tbody tr[data-serial]')].map((r) => r.dataset.serial)`,
      ) as Promise<string[]>;
    // Riskiest first, not yet rated last.
    await page.locator('.sort-button[data-sort="risk"]').click();
    await page.locator('th[aria-sort="descending"] .sort-button[data-sort="risk"]').waitFor();
    await waitUntil(page, `location.search.includes('sort=risk')`);
    await waitUntil(
      page,
      `JSON.stringify([...document.querySelectorAll('.queue-table tbody tr[data-serial]')].map((r) => r.dataset.serial)) === ${JSON.stringify(JSON.stringify([rated, blocked, unrated]))}`,
    );
    assert.deepEqual(await rows(), [rated, blocked, unrated]);
    await assertAccessible(page, 'queue sorted by risk');
    // The filter: only the high ones.
    await page.getByLabel('Risk tier').selectOption('high');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await waitUntil(page, `location.search.includes('risk_tier=high')`);
    await waitUntil(page, `document.querySelectorAll('.queue-table tbody tr[data-serial]').length === 1`);
    assert.deepEqual(await rows(), [rated]);
    await assertLabelled(page, 'queue');
    await assertAccessible(page, 'queue filtered by tier');

    const zh = await open(`/console/?app_id=${appId}&risk_tier=medium`, 'zh');
    await zh.waitForSelector('.queue-table tbody tr[data-serial]');
    assert.match(await zh.locator('.sort-button[data-sort="risk"]').innerText(), /^风险/);
    assert.equal(await zh.getByLabel('风险等级').inputValue(), 'medium');
    assert.equal(await zh.locator(`tr[data-serial="${blocked}"] td[data-column="risk"]`).innerText(), '中');
    await assertAccessible(zh, 'zh queue filtered by tier');
  });

  test('the workload counts the waiting applications per tier and the straight-through share', async () => {
    const page = await open('/console/dashboard');
    await page.waitForSelector('.workload-risk-table');
    const count = (tier: string) =>
      page.locator(`.workload-risk-table tr[data-tier="${tier}"] td.num`).innerText();
    assert.equal(await count('high'), '1');
    assert.equal(await count('medium'), '1');
    assert.equal(await count('low'), '0');
    assert.equal(await count('unrated'), '1');
    assert.match(await page.locator('section.workload-risk').innerText(), /Risk of the waiting applications/);
    assert.match(await page.locator('.straight-through').innerText(), /No decision in the last 7 days/);
    await assertAccessible(page, 'workload');
    const zh = await open('/console/dashboard', 'zh');
    await zh.waitForSelector('.workload-risk-table');
    assert.match(await zh.locator('section.workload-risk').innerText(), /待处理申请单的风险[\s\S]*尚未评级/);
    await assertAccessible(zh, 'zh workload');
  });

  test('the approve dialog lists the open factors; confirm waits for every acknowledgement and note', async () => {
    const page = await openApplication(rated);
    await page.getByRole('button', { name: 'Start review', exact: true }).click();
    await page.locator('.app-title [data-status="IN_REVIEW"]').waitFor();
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve' });
    await dialog.getByText(/the partner is told at once that it is approved/).waitFor();
    assert.equal(await dialog.getByText('(application.approved)').count(), 0);
    const confirm = dialog.getByRole('button', { name: 'Approve', exact: true });
    assert.equal(await dialog.locator('li.risk-ack').count(), 2);
    assert.match(await dialog.locator('[data-factor="image_reused"]').innerText(), /Same image in another/);
    assert.match(await dialog.locator('[data-factor="shared_mobile"]').innerText(), /Mobile number given/);
    assert.ok(await confirm.isDisabled(), 'nothing acknowledged yet');
    await assertLabelled(page, 'approve dialog');
    await assertAccessible(page, 'approve dialog');
    const reused = dialog.locator('[data-factor="image_reused"]');
    const shared = dialog.locator('[data-factor="shared_mobile"]');
    await reused.getByLabel('I have weighed this factor').check();
    assert.ok(await confirm.isDisabled(), 'one factor still open');
    await shared.getByLabel('I have weighed this factor').check();
    assert.ok(await confirm.isDisabled(), 'the high factor has no note yet');
    assert.equal(
      await shared.getByLabel('Note (required)').count(),
      0,
      'no note for a factor that is not high',
    );
    await reused.getByLabel('Note (required)').fill('   ');
    assert.ok(await confirm.isDisabled(), 'a blank note is no note');
    await reused
      .getByLabel('Note (required)')
      .fill('Same passport photo: the applicant re-applied after a typo');
    assert.ok(await confirm.isEnabled(), 'every factor acknowledged, every note written');
    await shared.getByLabel('I have weighed this factor').uncheck();
    assert.ok(await confirm.isDisabled(), 'unticked again');
    await shared.getByLabel('I have weighed this factor').check();
    await assertAccessible(page, 'approve dialog, filled');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    assert.equal(
      (
        await service.ctx.store.db
          .selectFrom('applications')
          .select('status')
          .where('busi_water_no', '=', rated)
          .executeTakeFirstOrThrow()
      ).status,
      'IN_REVIEW',
    );
  });

  test('a blocking factor leaves the dialog not approvable, with the reason, in English and Chinese', async () => {
    const page = await openApplication(blocked);
    await page.getByRole('button', { name: 'Start review', exact: true }).click();
    await page.locator('.app-title [data-status="IN_REVIEW"]').waitFor();
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve' });
    await dialog.locator('form[data-approvable="false"]').waitFor();
    assert.match(
      await dialog.locator('.risk-blocked').innerText(),
      /cannot be approved while a blocking factor is open: Required image not kept/,
    );
    await dialog.getByLabel('I have weighed this factor').check();
    assert.ok(await dialog.getByRole('button', { name: 'Approve', exact: true }).isDisabled());
    await assertAccessible(page, 'blocked approve dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    const zh = await openApplication(blocked, 'zh');
    await zh.getByRole('button', { name: '批准', exact: true }).click();
    const zhDialog = zh.getByRole('dialog', { name: '批准' });
    await zhDialog.locator('form[data-approvable="false"]').waitFor();
    assert.match(await zhDialog.locator('.risk-blocked').innerText(), /无法批准：必需图片未保存/);
    assert.match(await zhDialog.locator('li.risk-ack').innerText(), /我已权衡此因素/);
    await assertAccessible(zh, 'zh blocked approve dialog');
  });

  test(
    'the approval carries the acknowledgements and notes (once the approve move takes them)',
    { skip: acceptsAcknowledgements ? false : 'the approve move does not take risk_acknowledgements yet' },
    async () => {
      const page = await openApplication(rated, 'zh');
      const sent: unknown[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith(`/applications/${rated}/approve`)) sent.push(request.postDataJSON());
      });
      // Rita holds it in review since the dialog's earlier step.
      await page.getByRole('button', { name: '批准', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: '批准' });
      const confirm = dialog.getByRole('button', { name: '批准', exact: true });
      assert.equal(await dialog.locator('li.risk-ack').count(), 2);
      assert.match(
        await dialog.locator('[data-factor="image_reused"]').innerText(),
        /相同图片出现在其他申请人的申请单中/,
      );
      for (const box of await dialog.getByLabel('我已权衡此因素').all()) await box.check();
      assert.ok(await confirm.isDisabled(), 'the high factor has no note yet');
      await dialog.getByLabel('说明（必填）').fill('同一申请人更正后重新提交');
      await confirm.click();
      await page.locator('.app-title [data-status="APPROVED"]').waitFor();
      assert.deepEqual(sent, [
        {
          version: (sent[0] as { version: number }).version,
          risk_acknowledgements: [
            { code: 'image_reused', note: '同一申请人更正后重新提交' },
            { code: 'shared_mobile' },
          ],
        },
      ]);
    },
  );
});

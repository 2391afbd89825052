import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext } from 'playwright-core';
import { SYSTEM } from '../../src/audit/actor.ts';
import { createOperator } from '../../src/operators/operators.ts';
import { createSubjectRequest } from '../../src/subjects/subjectRequests.ts';
import { skipWithout } from '../helpers/components.ts';
import { Applications, partnerOf, TEST_PASSWORD } from '../helpers/operators.ts';
import { newPartner, startService, type TestService } from '../helpers/service.ts';
import { launchBrowser, newOperatorContext, type TestBrowser } from './browser.ts';
import { signInOverApi } from './steps.ts';

/**
 * The console's Subject requests page (issue 56): the queue with its due dates, a past-due request
 * flagged there and on the workload page, and a reviewer refusing a request through its dialog, in
 * English and Chinese; the refusal is the service's (the partner's view says so) and audited.
 */
describe('subject requests in the console', { skip: skipWithout('chromium') }, () => {
  let service: TestService;
  let browser: TestBrowser;
  const contexts: BrowserContext[] = [];
  let overdue = '';
  let toRefuse = '';

  before(async () => {
    service = await startService('sqlite');
    browser = await launchBrowser();
    await createOperator(
      service.ctx,
      { username: 'rita', role: 'reviewer', password: TEST_PASSWORD },
      { actor: SYSTEM, source: 'test' },
    );
    const partner = await newPartner(service, 'subject partner');
    const applications = new Applications(service, 56_000);
    const ask = async (kind: 'access' | 'deletion') => {
      const serial = await applications.inState(partner.appId, 'DELIVERED');
      return (
        await createSubjectRequest(service.ctx, partnerOf(partner.appId), { kind, busi_water_no: serial })
      ).request_id;
    };
    overdue = await ask('deletion');
    toRefuse = await ask('access');
    await service.ctx.store.db
      .updateTable('subject_requests')
      .set({ due_at: Date.now() - 3_600_000 })
      .where('request_id', '=', overdue)
      .execute();
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await service?.close();
  });

  const open = async (language: 'en' | 'zh', path: string) => {
    const opened = await newOperatorContext(browser.browser, { language });
    contexts.push(opened.context);
    await signInOverApi(opened.page, service.baseUrl, 'rita');
    await opened.page.goto(`${service.baseUrl}${path}`);
    return opened;
  };

  test('in English: the queue flags the past-due request, and a refusal goes through its dialog', async () => {
    const { page, errors } = await open('en', '/console/subject-requests');
    const late = page.locator(`tr[data-request="${overdue}"]`);
    await late.waitFor();
    assert.equal(await late.locator('[data-overdue="true"]').count(), 1);
    assert.equal(await page.locator(`tr[data-request="${toRefuse}"] [data-overdue]`).count(), 0);

    await page.locator(`tr[data-request="${toRefuse}"] button[data-action="refuse"]`).click();
    const dialog = page.locator('dialog[open]');
    await dialog.locator('select[name="reason_code"]').selectOption('excessive');
    await dialog.locator('textarea[name="reason"]').fill('The same copy was sent last week.');
    await dialog.locator('button[type="submit"]').click();
    await page.locator(`tr[data-request="${toRefuse}"]`).waitFor({ state: 'detached' });
    const row = await service.ctx.store.db
      .selectFrom('subject_requests')
      .select(['status', 'reason_code'])
      .where('request_id', '=', toRefuse)
      .executeTakeFirstOrThrow();
    assert.deepEqual({ ...row }, { status: 'refused', reason_code: 'excessive' });
    const audited = await service.ctx.store.db
      .selectFrom('audit_log')
      .select('actor')
      .where('action', '=', 'subject_request.end')
      .where('target_id', '=', toRefuse)
      .execute();
    assert.deepEqual(
      audited.map((r) => r.actor),
      ['operator:rita'],
    );

    await page.goto(`${service.baseUrl}/console/dashboard`);
    const flag = page.locator('section.workload-subjects[data-overdue="1"]');
    await flag.waitFor();
    assert.match((await flag.textContent()) ?? '', /1 open subject request\(s\) past their due date/);
    assert.deepEqual(errors, []);
  });

  test('in Chinese', async () => {
    const { page, errors } = await open('zh', '/console/subject-requests');
    await page.locator(`tr[data-request="${overdue}"]`).waitFor();
    assert.equal(await page.locator('h1').textContent(), '个人信息权利请求');
    assert.equal(
      ((await page.locator(`tr[data-request="${overdue}"] [data-overdue]`).textContent()) ?? '').trim(),
      '已逾期',
    );
    assert.deepEqual(errors, []);
  });
});

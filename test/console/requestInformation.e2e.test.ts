import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { BrowserContext } from 'playwright-core';
import { createApp } from '../../src/partners/credentials.ts';
import { createOperator } from '../../src/operators/operators.ts';
import { SYSTEM } from '../../src/audit/actor.ts';
import { skipWithout } from '../helpers/components.ts';
import { Applications, TEST_PASSWORD } from '../helpers/operators.ts';
import { startService, type TestService } from '../helpers/service.ts';
import { assertAccessible } from './axe.ts';
import { launchBrowser, newOperatorContext, type TestBrowser } from './browser.ts';
import {
  assertLabelled,
  assertNoBrokenWords,
  assertNoRawWords,
  focusedMatches,
  signInOverApi,
} from './steps.ts';

/**
 * A request for information in the console, in English and Chinese: the reviewer ticks boxes of
 * the fields a partner can send again, grouped as the application page groups them (never the
 * payment password or the assigned card number); a telephone is asked for with its calling code;
 * sending with no box ticked is stopped in the dialog. One store (SQLite): the refusal of a field
 * that cannot be sent again is proven over HTTP on both (test/applications/supplement.http.test.ts).
 */

/** What each language shows: the groups in order, boxes that must be offered and those that must not. */
const WORDS = {
  en: {
    groups: [
      'Applicant',
      'Identity document',
      'Contact',
      'Employment',
      'Account',
      'Card delivery',
      'Documents and images',
      'Other fields',
    ],
    notOffered: ['Payment password', 'Assigned card number'],
    mobile: 'Mobile',
    front: 'Identity card, front',
    dialog: 'Request information',
    unticked: 'Tick at least one box',
  },
  zh: {
    groups: ['申请人', '身份证件', '联系方式', '工作信息', '开户信息', '卡片寄送', '证件与影像', '其他字段'],
    notOffered: ['支付密码', '分配的卡号'],
    mobile: '手机号',
    front: '身份证正面',
    dialog: '要求补充资料',
    unticked: '至少勾选一项',
  },
} as const;

describe('requesting information in Chromium', { skip: skipWithout('chromium') }, () => {
  let service: TestService;
  let browser: TestBrowser;
  let appId: string;
  let applications: Applications;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[][] = [];

  before(async () => {
    service = await startService('sqlite');
    browser = await launchBrowser();
    await createOperator(
      service.ctx,
      { username: 'rita', role: 'reviewer', password: TEST_PASSWORD },
      { actor: SYSTEM, source: 'test' },
    );
    appId = (await createApp(service.ctx.store.db, 'Harbour Pay', Date.now())).app_id;
    applications = new Applications(service, 70_000);
  });
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });
  after(async () => {
    await browser?.close();
    await service?.close();
    assert.deepEqual(pageErrors.flat(), [], 'no script errors or CSP violations');
  });

  const stored = async (serial: string) => ({
    ...(await service.ctx.store.db
      .selectFrom('applications')
      .select(['status', 'requested_fields'])
      .where('busi_water_no', '=', serial)
      .executeTakeFirstOrThrow()),
  });

  for (const language of ['en', 'zh'] as const) {
    test(`${language}: boxes of the fields a partner can resend, grouped as on the page`, async () => {
      const words = WORDS[language];
      const { context, page, errors } = await newOperatorContext(browser.browser, { language });
      contexts.push(context);
      pageErrors.push(errors);
      const serial = await applications.submit(appId);
      await signInOverApi(page, service.baseUrl, 'rita');
      await page.goto(`${service.baseUrl}/console/applications/${serial}`);
      await page.locator('.field-row').first().waitFor();
      await page.locator('button[data-action="review"]').click();
      await page.locator('.app-title [data-status="IN_REVIEW"]').waitFor();
      await page.locator('button[data-action="supplement"]').click();
      const dialog = page.getByRole('dialog', { name: words.dialog });
      await dialog.waitFor();

      // Boxes, not a list to Ctrl-click; grouped in the page's order; each box named by its label.
      assert.equal(await dialog.locator('select[name="requested_fields"]').count(), 0);
      const groups = await dialog.locator('fieldset.check-group > legend').allTextContents();
      assert.deepEqual(groups, [...words.groups]);
      const pageGroups = (await page.locator('.field-group h3').allTextContents()).filter(
        (name) => name !== words.groups.at(-1),
      );
      assert.deepEqual(
        groups.filter((name) => pageGroups.includes(name)),
        pageGroups,
        'the groups of the application page, in its order',
      );
      const offered = await dialog.locator('label.check').allTextContents();
      assert.ok(offered.length >= 30, `${offered.length} boxes`);
      for (const name of words.notOffered) assert.ok(!offered.includes(name), `${name} is not offered`);
      assert.equal(
        new Set(offered).size,
        offered.length,
        'each field once (calling codes go with their number)',
      );
      assert.equal(
        await dialog.getByLabel(words.mobile, { exact: true }).getAttribute('value'),
        'mob_no,mob_no_of',
      );
      assert.ok(
        await focusedMatches(page, 'dialog .check-group input[type="checkbox"]'),
        'the first box has the focus',
      );
      await assertLabelled(page, `${language} request information`);
      await assertAccessible(page, `${language} request information dialog`);
      await assertNoRawWords(page, `${language} request information dialog`);
      await assertNoBrokenWords(page, `${language} request information dialog`);

      // Nothing ticked: the dialog says so and sends nothing.
      await dialog.locator('select[name="reason_codes"]').selectOption(['document_unreadable']);
      await dialog.locator('button[type="submit"]').click();
      await dialog.locator('.form-error', { hasText: words.unticked }).waitFor();
      assert.equal(await dialog.locator('fieldset.check-field').getAttribute('aria-invalid'), 'true');
      assert.equal((await stored(serial)).status, 'IN_REVIEW');

      await dialog.getByLabel(words.front, { exact: true }).check();
      await dialog.getByLabel(words.mobile, { exact: true }).check();
      await dialog.locator('button[type="submit"]').click();
      await page.locator('.app-title [data-status="SUPPLEMENT_REQUIRED"]').waitFor();
      assert.deepEqual(await stored(serial), {
        status: 'SUPPLEMENT_REQUIRED',
        requested_fields: '["mob_no","mob_no_of","id_card_img"]',
      });
      await page.locator('.app-header .field-list[data-list="requested_fields"]').waitFor();
    });
  }
});

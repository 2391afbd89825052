import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, afterEach, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { amendApplication } from '../../src/applications/commands/amendApplication.ts';
import { submitApplication } from '../../src/applications/commands/submitApplication.ts';
import { createApp } from '../../src/partners/credentials.ts';
import { PATHS } from '../../src/http/paths.ts';
import { createOperator } from '../../src/operators/operators.ts';
import type { Role } from '../../src/access/roles.ts';
import { startDispatcher, type Dispatcher } from '../../src/webhooks/dispatcher.ts';
import { addEndpoint } from '../../src/webhooks/endpoints.ts';
import { createLogger } from '../../src/logger.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { Applications, partnerOf, TEST_PASSWORD } from '../helpers/operators.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { nowSeconds, post, startService, type TestService } from '../helpers/service.ts';
import { launchBrowser, newOperatorContext, type TestBrowser } from './browser.ts';
import {
  assertLabelled,
  focusedMatches,
  screenshot,
  SCREENSHOTS,
  signIn,
  signInOverApi,
  tabTo,
  waitUntil,
} from './steps.ts';
import { SYSTEM } from '../../src/audit/actor.ts';
import { skipWithout } from '../helpers/components.ts';

/**
 * The console end to end, in Debian's Chromium: a reviewer signs in, finds a submitted application,
 * reveals a field (audited, hidden again on leaving), moves it through to delivered, rejects another
 * with a reason, and does it again with the keyboard only; an admin redelivers a webhook and creates,
 * rotates and disables an app; a viewer sees no action buttons and the API refuses a forged request;
 * sessions end on sign-out and on expiry. Screenshots of the queue and the application page, in both
 * languages, go to docs/screenshots/ (the README shows them). One store (SQLite): the API under the
 * console is tested on both stores by the admin API tests.
 */

const FAST_WEBHOOKS = {
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_TIMEOUT_MS: '3000',
  WEBHOOK_LEASE_MS: '6000',
  WEBHOOK_BACKOFF_BASE_MS: '20',
  WEBHOOK_BACKOFF_MAX_MS: '200',
};

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

describe('operator console in Chromium', { skip: skipWithout('chromium') }, () => {
  let service: TestService;
  let browser: TestBrowser;
  let receiver: Receiver;
  let dispatcher: Dispatcher;
  let appId: string;
  let applications: Applications;
  let next = 10_000;
  /** The application the reviewer takes from submitted to delivered, with risk flags to show. */
  let flagged: { serial: string; certId: string; image: string };
  const contexts: BrowserContext[] = [];
  /** Script errors and CSP violations of every page: none is allowed. */
  const pageErrors: string[][] = [];

  const operator = async (username: string, role: Role) =>
    createOperator(
      service.ctx,
      { username, role, password: TEST_PASSWORD },
      { actor: SYSTEM, source: 'test' },
    );
  const submit = async (overrides: Parameters<typeof uniqueApplicant>[2] = {}) => {
    const applicant = uniqueApplicant(next++, appId, overrides);
    const { busi_water_no } = await submitApplication(service.ctx, partnerOf(appId), applicant);
    return { serial: busi_water_no, applicant };
  };
  const statusOf = async (serial: string) =>
    await service.ctx.store.db
      .selectFrom('applications')
      .select(['status', 'status_reason', 'reason_codes'])
      .where('busi_water_no', '=', serial)
      .executeTakeFirstOrThrow();
  const openPage = async (language: 'en' | 'zh' = 'en'): Promise<Page> => {
    const { context, page, errors } = await newOperatorContext(browser.browser, { language });
    contexts.push(context);
    pageErrors.push(errors);
    return page;
  };
  const openApplication = async (page: Page, serial: string) => {
    await page.goto(`${service.baseUrl}/console/applications/${serial}`);
    await page.waitForSelector('.field-row');
  };

  before(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    service = await startService('sqlite', FAST_WEBHOOKS);
    browser = await launchBrowser();
    receiver = await startReceiver();
    appId = (await createApp(service.ctx.store.db, 'Harbour Pay', Date.now())).app_id;
    const endpoint = await addEndpoint(service.ctx, { appId, url: receiver.url });
    receiver.secrets = [endpoint.secret];
    // The service's own dispatcher, as `npm start` runs it.
    dispatcher = startDispatcher(service.ctx, createLogger({ logLevel: 'silent' }), { pollIntervalMs: 50 });
    applications = new Applications(service);
    await operator('rita', 'reviewer');
    await operator('adam', 'admin');
    await operator('vera', 'viewer');
    // A queue with some history: applications in most states.
    for (const status of [
      'DELIVERED',
      'SHIPPED',
      'CARD_ISSUED',
      'APPROVED',
      'IN_REVIEW',
      'REJECTED',
    ] as const) {
      await applications.inState(appId, status);
    }
    await applications.submit(appId);
    const { serial, applicant } = await submit({
      cert_end_date: day(120),
      consignee: '韩梅梅',
      consignee_mob_no: '13900139000',
      consignee_address: '广东省-深圳市-福田区-福华路8号',
    });
    flagged = { serial, certId: applicant.cert_id, image: applicant.id_card_img };
  });

  // A test's pages are closed when it ends: an open queue or application page keeps polling.
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });

  after(async () => {
    await browser?.close();
    await dispatcher?.stop();
    await receiver?.close();
    await service?.close();
    assert.deepEqual(pageErrors.flat(), [], 'no script errors or CSP violations in any page');
  });

  test('sign-in with a wrong password fails; the right one opens the queue with an HttpOnly, SameSite=Strict cookie', async () => {
    const page = await openPage();
    await page.goto(`${service.baseUrl}/console/`);
    await page.waitForURL(/\/console\/login\?next=/);
    await assertLabelled(page, 'sign-in');
    await page.getByLabel('User name').fill('rita');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'the user name or password is wrong' }).waitFor();
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForSelector('.queue-table tbody tr[data-serial]');
    const cookie = (await page.context().cookies()).find((c) => c.name === 'cardapply_session');
    assert.ok(cookie, 'the session cookie is set');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Strict');
    assert.ok(cookie.expires > nowSeconds(), 'the session expires');
  });

  test('the queue: counts per status, filters, search by serial, and new submissions appear without a reload', async () => {
    const page = await openPage();
    await signInOverApi(page, service.baseUrl, 'rita');
    await page.goto(`${service.baseUrl}/console/`);
    await page.waitForSelector('.queue-table tbody tr[data-serial]');
    await assertLabelled(page, 'queue');
    const submitted = page.locator('.count-chip[data-status="SUBMITTED"] .count-value');
    assert.equal(await submitted.textContent(), '2');
    assert.equal(await page.locator('.count-chip[data-status="ALL"] .count-value').textContent(), '8');

    // A new submission arrives while the reviewer looks: it appears, and the count follows.
    const arriving = await submit();
    await page.locator(`tr[data-serial="${arriving.serial}"]`).waitFor({ timeout: 15_000 });
    await page.locator('.count-chip[data-status="SUBMITTED"] .count-value', { hasText: '3' }).waitFor();
    await screenshot(page, 'queue-en.png');

    await page.locator('.count-chip[data-status="IN_REVIEW"]').click();
    await page.locator('.queue-table tbody tr[data-serial]').first().waitFor();
    await waitUntil(
      page,
      `[...document.querySelectorAll('.queue-table tbody [data-status]')].every((b) => b.dataset.status === 'IN_REVIEW')`,
    );
    assert.equal(await page.locator('.queue-table tbody tr[data-serial]').count(), 1);

    await page.getByRole('button', { name: 'Reset' }).click();
    await page.getByLabel('Serial number').fill(flagged.serial.toLowerCase());
    await page.getByRole('button', { name: 'Search' }).click();
    // The one row must be the one searched for: the status filter before showed one row too, and
    // until the search's answer is drawn the table may still show it.
    await waitUntil(
      page,
      `(() => { const rows = document.querySelectorAll('.queue-table tbody tr[data-serial]'); return rows.length === 1 && rows[0].dataset.serial === ${JSON.stringify(flagged.serial)}; })()`,
    );
    assert.equal(
      await page.locator('.queue-table tbody tr[data-serial]').getAttribute('data-serial'),
      flagged.serial,
    );
    assert.match(page.url(), new RegExp(`serial=${flagged.serial}`), 'the filters are in the address');

    // Sorted oldest first on request.
    await page.getByRole('button', { name: 'Reset' }).click();
    await page.locator('th[aria-sort="descending"] .sort-button').click();
    await page.locator('th[aria-sort="ascending"]').waitFor();
    await waitUntil(
      page,
      `(() => { const rows = [...document.querySelectorAll('.queue-table tbody tr[data-serial]')].map((r) => r.dataset.serial); return rows.length === 9 && rows.every((s, i) => i === 0 || rows[i - 1] < s); })()`,
    );
  });

  test('the application page: every field masked, a reveal per field (audited, gone on leaving), images, risk flags', async () => {
    const page = await openPage();
    await signInOverApi(page, service.baseUrl, 'rita');
    await page.goto(`${service.baseUrl}/console/`);
    await page.locator(`a[href="/console/applications/${flagged.serial}"]`).click();
    await page.waitForSelector('.field-row');
    await assertLabelled(page, 'application');
    assert.equal(
      await page.locator('[data-value="cert_id"]').textContent(),
      `${flagged.certId[0]}${'*'.repeat(16)}${flagged.certId.slice(-1)}`,
    );
    const flags = await Promise.all(
      (await page.locator('.risk-flag').all()).map((f) => f.getAttribute('data-flag')),
    );
    assert.deepEqual(flags, [
      'document_expiring',
      'consignee_not_applicant',
      'delivery_address_differs',
      'consignee_mobile_differs',
    ]);

    // The first reveal of the visit asks why; the purpose goes into the audit row.
    await page.getByRole('button', { name: 'Reveal Document number' }).click();
    const purpose = page.getByRole('dialog');
    await purpose.getByLabel('Purpose').selectOption('document_comparison');
    await purpose.getByLabel('Details').fill('ID card photo against the form');
    await purpose.getByRole('button', { name: 'Reveal', exact: true }).click();
    await page.locator('[data-value="cert_id"].revealed').waitFor();
    assert.equal(await page.locator('[data-value="cert_id"]').textContent(), flagged.certId);
    const audit = await service.ctx.store.db
      .selectFrom('audit_log')
      .select(['actor', 'details'])
      .where('action', '=', 'application.reveal')
      .where('target_id', '=', flagged.serial)
      .execute();
    assert.deepEqual(
      audit.map((row) => ({ ...row })),
      [
        {
          actor: 'operator:rita',
          details: JSON.stringify({
            field: 'cert_id',
            purpose: 'document_comparison',
            purpose_text: 'ID card photo against the form',
          }),
        },
      ],
    );

    await page.getByRole('button', { name: 'Reveal Identity card, front' }).click();
    // No job fetches documents here: the image is not kept, so its state shows, and the partner's
    // URL is never loaded (documents.e2e.test.ts shows kept ones).
    await page.locator('[data-image="id_card_img"][data-document="pending"] .document-state').waitFor();
    assert.equal(await page.locator('[data-image="id_card_img"] img').count(), 0);
    assert.ok(flagged.image.startsWith('https://img.example.com/'));
    await screenshot(page, 'application-en.png', true);

    // Leaving the page drops what was revealed; coming back shows the masks again.
    await page.getByRole('link', { name: '← Applications' }).click();
    await page.waitForSelector('.queue-table');
    await page.goBack();
    await page.waitForSelector('[data-value="cert_id"]');
    assert.ok(!(await page.content()).includes(flagged.certId), 'the revealed value is gone');
    assert.equal(await page.locator('.value.revealed').count(), 0);
  });

  test('a reviewer approves an application through to delivered, and rejects another with reason codes', async () => {
    const page = await openPage();
    await signInOverApi(page, service.baseUrl, 'rita');
    await openApplication(page, flagged.serial);
    for (const [button, status] of [
      ['Start review', 'IN_REVIEW'],
      ['Approve', 'APPROVED'],
      ['Record card issued', 'CARD_ISSUED'],
    ] as const) {
      await page.getByRole('button', { name: button, exact: true }).click();
      if (status === 'APPROVED') {
        // Approving is confirmed, the dialog saying what will happen.
        const confirm = page.getByRole('dialog', { name: 'Approve' });
        await confirm.getByText(/the partner is told at once that it is approved/).waitFor();
        await confirm.getByRole('button', { name: 'Approve', exact: true }).click();
      }
      await page.locator(`.app-title [data-status="${status}"]`).waitFor();
    }
    await page.getByRole('button', { name: 'Ship card' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ship card' });
    await assertLabelled(page, 'ship dialog');
    await dialog.getByLabel('Carrier').fill('SF Express');
    await dialog.getByLabel('Tracking number').fill('SF1234567890');
    await dialog.getByRole('button', { name: 'Ship card' }).click();
    await page.locator('.app-title [data-status="SHIPPED"]').waitFor();
    await page.getByRole('button', { name: 'Mark delivered' }).click();
    await page.locator('.app-title [data-status="DELIVERED"]').waitFor();
    assert.equal((await statusOf(flagged.serial)).status, 'DELIVERED');
    assert.equal(await page.locator('.timeline-item').count(), 6);
    await page.locator('.timeline', { hasText: 'SF1234567890' }).waitFor();
    assert.equal(await page.locator('.actions button').count(), 0, 'a final state offers no action');

    const other = await submit();
    await openApplication(page, other.serial);
    await page.getByRole('button', { name: 'Reject', exact: true }).click();
    const reject = page.getByRole('dialog', { name: 'Reject application' });
    await reject.getByRole('button', { name: 'Reject' }).click();
    assert.ok(await reject.isVisible(), 'a rejection without a reason code is not sent');
    await reject.getByLabel('Reason codes').selectOption(['document_unreadable', 'name_mismatch']);
    await reject.getByLabel('Reason', { exact: true }).fill('The document image is unreadable');
    await reject.getByRole('button', { name: 'Reject' }).click();
    await page.locator('.app-title [data-status="REJECTED"]').waitFor();
    assert.deepEqual(
      { ...(await statusOf(other.serial)) },
      {
        status: 'REJECTED',
        status_reason: 'The document image is unreadable',
        reason_codes: '["document_unreadable","name_mismatch"]',
      },
    );
    await page.locator('.timeline .reason', { hasText: 'The document image is unreadable' }).waitFor();
    await page
      .locator('.timeline .reason-code[data-code="name_mismatch"]', {
        hasText: 'Name differs from the document',
      })
      .waitFor();
  });

  test('a reviewer requests information with codes, and sees the amended application come back', async () => {
    const { serial, applicant } = await submit();
    const page = await openPage();
    await signInOverApi(page, service.baseUrl, 'rita');
    await openApplication(page, serial);
    await page.getByRole('button', { name: 'Start review', exact: true }).click();
    await page.locator('.app-title [data-status="IN_REVIEW"]').waitFor();
    await page.getByRole('button', { name: 'Request information', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Request information' });
    await assertLabelled(page, 'request information dialog');
    await dialog.getByLabel('Identity card, front', { exact: true }).check();
    await dialog.getByLabel('Identity card, back', { exact: true }).check();
    await dialog.getByLabel('Reason codes').selectOption(['document_unreadable']);
    await dialog.getByLabel('Reason', { exact: true }).fill('Both sides of the card are blurred.');
    await dialog.getByRole('button', { name: 'Request information' }).click();
    await page.locator('.app-title [data-status="SUPPLEMENT_REQUIRED"]').waitFor();
    await page.locator('.app-header .field-list[data-list="requested_fields"]').waitFor();
    assert.deepEqual(
      {
        ...(await service.ctx.store.db
          .selectFrom('applications')
          .select(['status', 'requested_fields', 'reason_codes'])
          .where('busi_water_no', '=', serial)
          .executeTakeFirstOrThrow()),
      },
      {
        status: 'SUPPLEMENT_REQUIRED',
        requested_fields: '["id_card_img","id_card_back_img"]',
        reason_codes: '["document_unreadable"]',
      },
    );

    // The partner amends over its API; the page, reloaded, shows it back in review with what changed.
    const amended = await amendApplication(service.ctx, partnerOf(appId), {
      app_id: appId,
      timestamp: nowSeconds(),
      busi_water_no: serial,
      id_card_img: 'https://img.example.com/amended/front.jpg',
      id_card_back_img: applicant.id_card_back_img ?? 'https://img.example.com/amended/back.jpg',
    });
    assert.equal(amended.status, 'IN_REVIEW');
    await page.reload();
    await page.locator('.app-title [data-status="IN_REVIEW"]').waitFor();
    const changed = page.locator('.timeline .field-list[data-list="changed_fields"]').last();
    await changed.waitFor();
    assert.ok(!(await page.content()).includes('amended/front.jpg'), 'values stay masked');
    assert.ok((await page.locator('.timeline .field-list[data-list="amended_fields"]').count()) >= 1);
    assert.equal(await page.getByRole('button', { name: 'Approve', exact: true }).count(), 1);
  });

  test('keyboard only: sign in, find an application by serial, open it, review and approve it', async () => {
    const target = await submit();
    const page = await openPage();
    await page.goto(`${service.baseUrl}/console/`);
    await page.waitForURL(/\/console\/login/);
    assert.ok(await focusedMatches(page, 'input[name="username"]'), 'the user name has the focus');
    await page.keyboard.type('rita');
    await page.keyboard.press('Tab');
    await page.keyboard.type(TEST_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.queue-table tbody tr[data-serial]');
    await tabTo(page, 'input[name="serial"]');
    await page.keyboard.type(target.serial);
    await page.keyboard.press('Enter');
    await waitUntil(page, `document.querySelectorAll('.queue-table tbody tr[data-serial]').length === 1`);
    await tabTo(page, `a[href="/console/applications/${target.serial}"]`);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.field-row');
    await tabTo(page, 'button[data-action="review"]');
    await page.keyboard.press('Enter');
    await page.locator('.app-title [data-status="IN_REVIEW"]').waitFor();
    // Starting the review claims it; the focus is on the next step, opening it for review.
    await waitUntil(page, `document.activeElement?.dataset.focusKey === 'claim-open'`);
    await tabTo(page, 'button[data-action="approve"]');
    await page.keyboard.press('Enter');
    // The confirmation starts on its safe button: approving takes a Tab, then Enter.
    await page.getByRole('dialog').waitFor();
    assert.ok(await focusedMatches(page, 'dialog button[type="button"]'));
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.locator('.app-title [data-status="APPROVED"]').waitFor();
    assert.equal((await statusOf(target.serial)).status, 'APPROVED');
    // Dialogs too: Escape closes one, and the focus returns to its button.
    await tabTo(page, 'button[data-action="issue"]');
    await page.keyboard.press('Enter');
    await page.locator('.app-title [data-status="CARD_ISSUED"]').waitFor();
    await tabTo(page, 'button[data-action="ship"]');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    assert.ok(await focusedMatches(page, 'button[data-action="ship"]'));
  });

  test("both languages: the browser's first, then switchable and remembered", async () => {
    const page = await openPage('zh');
    await signInOverApi(page, service.baseUrl, 'rita');
    await page.goto(`${service.baseUrl}/console/`);
    await page.getByRole('heading', { name: '申请单', level: 1 }).waitFor();
    assert.equal(await page.evaluate('document.documentElement.lang'), 'zh-CN');
    await page.getByRole('button', { name: 'EN' }).click();
    await page.getByRole('heading', { name: 'Applications', level: 1 }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Applications', level: 1 }).waitFor();
    assert.equal(
      await page.evaluate('document.documentElement.lang'),
      'en',
      'remembered over the browser language',
    );
    await page.getByRole('button', { name: '中文' }).click();
    await page.getByRole('heading', { name: '申请单', level: 1 }).waitFor();
    await page.waitForSelector('.queue-table tbody tr[data-serial]');
    await screenshot(page, 'queue-zh.png');
    await openApplication(page, flagged.serial);
    await page.getByRole('heading', { name: '处理记录' }).waitFor();
    await page.locator('.delivery').first().waitFor();
    await screenshot(page, 'application-zh.png', true);
    // Errors from the API come in the chosen language too.
    const answer = (await page.evaluate(`fetch('/admin/v1/applications/${flagged.serial}/approve', {
      method: 'POST', headers: { 'content-type': 'application/json', 'accept-language': 'zh-CN' }, body: '{}' }).then((r) => r.json())`)) as {
      msg: string;
    };
    assert.match(answer.msg, /x-csrf-token: 缺少该请求头/);
    await page.getByRole('button', { name: 'EN' }).click();
    await page.getByRole('heading', { name: 'History' }).waitFor();
  });

  test('an admin redelivers a webhook, creates an app (secret shown once), rotates its secret and disables it', async () => {
    const page = await openPage();
    await signInOverApi(page, service.baseUrl, 'adam');
    await openApplication(page, flagged.serial);
    const first = page.locator('.event').first();
    await first.locator('.delivery-delivered').waitFor({ timeout: 15_000 });
    const eventId = (await first.getAttribute('data-event'))!;
    const before = receiver.acknowledged().get(eventId) ?? 0;
    await first.getByRole('button', { name: /^Redeliver application.submitted/ }).click();
    await receiver.waitFor(
      () => (receiver.acknowledged().get(eventId) ?? 0) > before,
      15_000,
      'the redelivery',
    );

    await page.getByRole('link', { name: 'Apps' }).click();
    await page.getByRole('heading', { name: 'Apps', level: 1 }).waitFor();
    await page.locator(`tr[data-app="${appId}"]`, { hasText: receiver.url }).waitFor();
    await assertLabelled(page, 'apps');
    await page.getByLabel('Partner name').fill('Lotus Wallet');
    await page.getByRole('button', { name: 'Create app' }).click();
    const created = page.getByRole('dialog', { name: 'App “Lotus Wallet” created' });
    const newAppId = await created.getByLabel('App ID').inputValue();
    const secret = await created.getByLabel('App secret').inputValue();
    await created.getByRole('button', { name: 'I have stored it' }).click();
    assert.ok(!(await page.content()).includes(secret), 'the secret is not shown again');
    const exchange = (s: string) =>
      post(service.baseUrl, PATHS.token, { app_id: newAppId, app_secret: s, timestamp: nowSeconds() });
    assert.equal((await exchange(secret)).status, 200);

    await page.getByRole('button', { name: 'Rotate secret: Lotus Wallet' }).click();
    const rotate = page.getByRole('dialog', { name: 'Rotate the secret of “Lotus Wallet”' });
    await rotate.getByLabel('Previous secrets keep working for').selectOption('0');
    await rotate.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = page.getByRole('dialog', { name: 'New secret for “Lotus Wallet”' });
    const newSecret = await rotated.getByLabel('App secret').inputValue();
    await rotated.getByRole('button', { name: 'I have stored it' }).click();
    assert.notEqual(newSecret, secret);
    assert.equal((await exchange(newSecret)).status, 200);
    assert.equal((await exchange(secret)).status, 401, 'without overlap the old secret stops at once');

    await page.getByRole('button', { name: 'Disable Lotus Wallet' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Disable' }).click();
    await page.locator(`tr[data-app="${newAppId}"] .app-disabled`).waitFor();
    const row = await service.ctx.store.db
      .selectFrom('apps')
      .select('status')
      .where('app_id', '=', newAppId)
      .executeTakeFirstOrThrow();
    assert.equal(row.status, 'disabled');

    // The audit trail, filtered, shows what was done.
    await page.getByRole('link', { name: 'Audit trail' }).click();
    await page.getByLabel('Action').fill('application.reveal');
    await page.getByRole('button', { name: 'Search' }).click();
    await waitUntil(
      page,
      `[...document.querySelectorAll('.audit-table tbody tr')].every((r) => r.querySelector('[data-action="application.reveal"]')?.textContent === 'Field revealed')`,
    );
    const reveals = await page.locator('.audit-table tbody tr').allTextContents();
    assert.equal(reveals.length, 2, 'the two reveals of the reviewer');
    assert.ok(reveals.every((text) => text.includes(flagged.serial) && text.includes('rita')));
    await assertLabelled(page, 'audit');
  });

  test("a viewer sees no action or reveal buttons, and the API refuses the viewer's forged request", async () => {
    const target = await submit();
    const page = await openPage();
    await signInOverApi(page, service.baseUrl, 'vera');
    await page.goto(`${service.baseUrl}/console/`);
    await page.waitForSelector('header.topbar');
    assert.equal(await page.getByRole('link', { name: 'Apps' }).count(), 0);
    await openApplication(page, target.serial);
    await page.getByText('Read-only').waitFor();
    assert.equal(await page.locator('.actions button, button[data-action]').count(), 0);
    assert.equal(await page.getByRole('button', { name: /^Reveal/ }).count(), 0);

    const forge = (withCsrf: boolean) =>
      page.evaluate(`(async () => {
        const session = await (await fetch('/admin/v1/session')).json();
        const headers = { 'content-type': 'application/json' };
        if (${withCsrf}) headers['x-csrf-token'] = session.data.csrf_token;
        const reply = await fetch('/admin/v1/applications/${target.serial}/review', { method: 'POST', headers, body: '{}' });
        return { status: reply.status, code: (await reply.json()).code };
      })()`) as Promise<{ status: number; code: number }>;
    assert.deepEqual(await forge(true), { status: 403, code: 40303 }, 'a viewer may not act');
    assert.deepEqual(await forge(false), { status: 403, code: 40304 }, 'nor without the CSRF token');
    assert.equal((await statusOf(target.serial)).status, 'SUBMITTED');

    await page.goto(`${service.baseUrl}/console/apps`);
    await page.getByRole('heading', { name: 'Not available' }).waitFor();
  });

  test('sessions: an expired session returns to sign-in; sign-out ends the session', async () => {
    const page = await openPage();
    await signIn(page, service.baseUrl, 'rita');
    await page.waitForSelector('.queue-table tbody tr[data-serial]');
    await service.ctx.store.db
      .updateTable('operator_sessions')
      .set({ expires_at: Date.now() - 1000 })
      .where('username', '=', 'rita')
      .execute();
    // The queue's next refresh finds the session over.
    await page.waitForURL(/\/console\/login\?expired=1/, { timeout: 15_000 });
    await page.getByText('Your session has ended').waitFor();

    await page.getByLabel('User name').fill('rita');
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForSelector('.queue-table');
    const cookie = (await page.context().cookies()).find((c) => c.name === 'cardapply_session')!;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You have signed out.').waitFor();
    assert.equal(
      (await page.context().cookies()).find((c) => c.name === 'cardapply_session'),
      undefined,
    );
    const replay = await fetch(`${service.baseUrl}/admin/v1/me`, {
      headers: { cookie: `cardapply_session=${cookie.value}` },
    });
    assert.equal(replay.status, 401, 'the ended session is refused');
  });
});

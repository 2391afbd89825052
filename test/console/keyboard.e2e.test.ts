import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { amendApplication } from '../../src/applications/commands/amendApplication.ts';
import { createApp } from '../../src/partners/credentials.ts';
import { createOperator } from '../../src/operators/operators.ts';
import { SYSTEM } from '../../src/audit/actor.ts';
import { skipWithout } from '../helpers/components.ts';
import { Applications, partnerOf, enrolFactor, TEST_PASSWORD } from '../helpers/operators.ts';
import { nowSeconds, startService, type TestService } from '../helpers/service.ts';
import { assertAccessible } from './axe.ts';
import { launchBrowser, newOperatorContext, type TestBrowser } from './browser.ts';
import { focusedMatches, signIn, signInOverApi, tabTo, waitUntil } from './steps.ts';

/**
 * The console by keyboard alone, and where the focus goes (WCAG 2.1.1, 2.4.3): a reviewer with a
 * second factor signs in with a code, finds an application, starts its review, opens it with a
 * purpose, asks for information, and approves it once the partner has answered; after every dialog
 * the focus is on a sensible element, never the body. And the idle warning (2.2.1): "Stay signed
 * in" before the session's end really extends it on the server.
 */

const IDLE_SECONDS = 30;

describe('the console by keyboard, in Chromium', { skip: skipWithout('chromium') }, () => {
  let service: TestService;
  let idleService: TestService;
  let browser: TestBrowser;
  let appId: string;
  let applications: Applications;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[][] = [];

  const openPage = async (): Promise<Page> => {
    const { context, page, errors } = await newOperatorContext(browser.browser, { language: 'en' });
    contexts.push(context);
    pageErrors.push(errors);
    return page;
  };
  const statusOf = async (serial: string) =>
    (
      await service.ctx.store.db
        .selectFrom('applications')
        .select('status')
        .where('busi_water_no', '=', serial)
        .executeTakeFirstOrThrow()
    ).status;
  const notOnBody = async (page: Page, after: string) =>
    assert.equal(await focusedMatches(page, 'body'), false, `after ${after} the focus is not on the body`);

  before(async () => {
    service = await startService('sqlite');
    idleService = await startService('sqlite', { OPERATOR_SESSION_IDLE_SECONDS: String(IDLE_SECONDS) });
    browser = await launchBrowser();
    const by = { actor: SYSTEM, source: 'test' };
    // kim enrols a second factor in the walk; lee signs in with a password alone.
    for (const [target, username] of [
      [service, 'kim'],
      [service, 'lee'],
      [idleService, 'kim'],
    ] as const)
      await createOperator(target.ctx, { username, role: 'reviewer', password: TEST_PASSWORD }, by);
    appId = (await createApp(service.ctx.store.db, 'Harbour Pay', Date.now())).app_id;
    applications = new Applications(service);
  });

  // A test's pages are closed when it ends: an open queue or application page keeps polling.
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });

  after(async () => {
    await browser?.close();
    await service?.close();
    await idleService?.close();
    assert.deepEqual(pageErrors.flat(), [], 'no script errors or CSP violations in any page');
  });

  test('keyboard only: sign in with a code, find an application, review it, open it with a purpose, ask for information, approve', async () => {
    const factor = await enrolFactor(service, 'kim');
    const serial = await applications.submit(appId);
    const page = await openPage();
    await page.goto(`${service.baseUrl}/console/`);
    await page.waitForURL(/\/console\/login/);
    assert.ok(await focusedMatches(page, 'input[name="username"]'), 'the user name has the focus');
    await page.keyboard.type('kim');
    await page.keyboard.press('Tab');
    await page.keyboard.type(TEST_PASSWORD);
    await page.keyboard.press('Enter');
    // The service asks for the code: the focus goes where it is typed.
    await waitUntil(page, `document.activeElement?.name === 'otp'`);
    await page.keyboard.type(factor.codeAt(Date.now()));
    await page.keyboard.press('Enter');
    await page.waitForSelector('.queue-table tbody tr[data-serial]');

    await tabTo(page, 'input[name="serial"]');
    await page.keyboard.type(serial);
    await page.keyboard.press('Enter');
    await waitUntil(page, `document.querySelectorAll('.queue-table tbody tr[data-serial]').length === 1`);
    await tabTo(page, `a[href="/console/applications/${serial}"]`);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.field-row');

    // Starting the review claims it: the page says so before and after, and offers to open it.
    assert.match((await page.locator('[data-next="review"]').textContent())!, /Start review to take it/);
    await tabTo(page, 'button[data-action="review"]');
    await page.keyboard.press('Enter');
    await page.locator('.app-title [data-status="IN_REVIEW"]').waitFor();
    await page.locator('.claim-holder', { hasText: 'You hold this application' }).waitFor();
    await waitUntil(page, `document.activeElement?.dataset.focusKey === 'claim-open'`);
    await page.keyboard.press('Enter');
    const purpose = page.getByRole('dialog');
    await purpose.waitFor();
    assert.ok(await focusedMatches(page, 'dialog select[name="purpose"]'), 'the purpose is asked first');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Checking the documents against the form');
    await page.keyboard.press('Enter');
    await purpose.waitFor({ state: 'detached' });
    await page.locator('.value.revealed').first().waitFor();
    await notOnBody(page, 'opening for review');

    // Asking for information: the fields by their labels, the reasons that fit.
    await tabTo(page, 'button[data-action="supplement"]');
    await page.keyboard.press('Enter');
    const ask = page.getByRole('dialog', { name: 'Request information' });
    await ask.waitFor();
    assert.ok(await focusedMatches(page, 'dialog .check-group input[type="checkbox"]'), 'on the first box');
    const fields = (await page.evaluate(
      `[...document.querySelectorAll('dialog label.check')].map((l) => [l.querySelector('input').value, l.textContent])`,
    )) as [string, string][];
    assert.deepEqual(
      fields.filter(([, label]) => /^[a-z_]+$/.test(label)),
      [],
      'fields offered by their labels',
    );
    assert.ok(fields.some(([value, label]) => value === 'mob_no,mob_no_of' && label === 'Mobile'));
    const reasons = (await page.evaluate(
      `[...document.querySelectorAll('dialog select[name="reason_codes"] option')].map((o) => o.value)`,
    )) as string[];
    assert.ok(reasons.includes('document_unreadable'));
    for (const unfit of ['address_undeliverable', 'delivery_refused', 'sanctions_hit'])
      assert.ok(!reasons.includes(unfit), `${unfit} is not a reason to ask for information`);
    // A box is ticked with the space bar, as any checkbox.
    await tabTo(page, 'dialog input[value="id_card_img"]');
    await page.keyboard.press('Space');
    await tabTo(page, 'dialog select[name="reason_codes"]');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Please send a sharper photo.');
    await tabTo(page, 'dialog button[type="submit"]');
    await page.keyboard.press('Enter');
    await page.locator('.app-title [data-status="SUPPLEMENT_REQUIRED"]').waitFor();
    // The page is redrawn while the dialog waits for the answer; the focus moves once it closes.
    await ask.waitFor({ state: 'detached' });
    await notOnBody(page, 'requesting information');
    assert.equal(await page.locator('.claim-holder').count(), 0, 'asking for information ended the claim');
    assert.equal(await statusOf(serial), 'SUPPLEMENT_REQUIRED');

    // The partner answers; the reviewer picks it up again and approves, confirming with the keyboard.
    const requested = (await service.ctx.store.db
      .selectFrom('applications')
      .select('requested_fields')
      .where('busi_water_no', '=', serial)
      .executeTakeFirstOrThrow()) as { requested_fields: string };
    const amendment: Record<string, string> = {};
    for (const name of JSON.parse(requested.requested_fields) as string[])
      amendment[name] = `https://img.example.com/amended/${name}.jpg`;
    await amendApplication(service.ctx, partnerOf(appId), {
      app_id: appId,
      timestamp: nowSeconds(),
      busi_water_no: serial,
      ...amendment,
    } as Parameters<typeof amendApplication>[2]);
    await page.reload();
    await page.locator('.app-title [data-status="IN_REVIEW"]').waitFor();
    await page.locator('.claim-holder', { hasText: 'Nobody holds' }).waitFor();
    await tabTo(page, 'button[data-focus-key="claim-claim"]');
    await page.keyboard.press('Enter');
    await page.locator('.claim-holder', { hasText: 'You hold this application' }).waitFor();
    assert.ok(
      await focusedMatches(page, '.claim-actions button'),
      'after claiming, the focus stays in the panel',
    );
    await tabTo(page, 'button[data-action="approve"]');
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: 'Approve' });
    await confirm.waitFor();
    assert.ok(await focusedMatches(page, 'dialog button[type="button"]'), 'the safe button is focused first');
    await page.keyboard.press('Tab');
    assert.ok(await focusedMatches(page, 'dialog button[type="submit"]'));
    await page.keyboard.press('Enter');
    await page.locator('.app-title [data-status="APPROVED"]').waitFor();
    assert.equal(await statusOf(serial), 'APPROVED');
    await waitUntil(page, `document.activeElement?.dataset.action === 'issue'`);
    assert.equal(await page.locator('.claim-holder').count(), 0, 'an approved application has no claim');
    // Nor does the queue say anyone holds it.
    await page.goto(`${service.baseUrl}/console/?serial=${serial}`);
    await page.locator(`tr[data-serial="${serial}"]`).waitFor();
    assert.equal(await page.locator(`tr[data-serial="${serial}"] .row-holder`).count(), 0);
  });

  test('after each dialog the focus is on a sensible element: the opener, its successor, or the next step', async () => {
    const serial = await applications.inState(appId, 'SUBMITTED');
    const page = await openPage();
    await signInOverApi(page, service.baseUrl, 'lee');
    await page.goto(`${service.baseUrl}/console/`);
    // A status count redraws the counts: the focus stays on the chip.
    const chip = page.locator('.count-chip[data-status="SUBMITTED"]');
    await chip.focus();
    await page.keyboard.press('Enter');
    await waitUntil(page, `document.activeElement?.dataset.status === 'SUBMITTED'`);

    await page.goto(`${service.baseUrl}/console/applications/${serial}`);
    await page.waitForSelector('.field-row');
    // Escape: back on the button that opened the dialog.
    await page.locator('button[data-action="reject"]').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    assert.ok(await focusedMatches(page, 'button[data-action="reject"]'));

    // A reveal: the button is redrawn as "Hide", which takes the focus.
    await page.locator('button[data-field="cert_id"]').focus();
    await page.keyboard.press('Enter');
    const purpose = page.getByRole('dialog');
    await purpose.getByLabel('Purpose').selectOption('document_comparison');
    await purpose.getByRole('button', { name: 'Reveal', exact: true }).click();
    await page.locator('[data-value="cert_id"].revealed').waitFor();
    await waitUntil(page, `document.activeElement?.dataset.field === 'cert_id'`);
    assert.equal(await page.evaluate('document.activeElement.textContent'), 'Hide');

    // Approving: the dialog starts on Cancel; once approved the focus is on the next move.
    await page.locator('button[data-action="review"]').focus();
    await page.keyboard.press('Enter');
    await page.locator('.app-title [data-status="IN_REVIEW"]').waitFor();
    await page.locator('button[data-action="approve"]').click();
    await page.getByRole('dialog', { name: 'Approve' }).waitFor();
    assert.ok(await focusedMatches(page, 'dialog button[type="button"]'), 'Cancel first');
    await assertAccessible(page, 'approve dialog');
    await page.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
    await page.locator('.app-title [data-status="APPROVED"]').waitFor();
    await waitUntil(page, `document.activeElement?.dataset.action === 'issue'`);
  });

  test('a redraw that replaces the heading leaves the focus on the new heading, not the body', async () => {
    // The race of a loaded machine, made certain: the partner's name (the queue's listing) arrives
    // only after the page has put the keyboard on its heading, and redraws the heading with it.
    const serial = await applications.inState(appId, 'SUBMITTED');
    const page = await openPage();
    await signInOverApi(page, service.baseUrl, 'lee');
    let releaseListing: () => void = () => {};
    const listingHeld = new Promise<void>((resolve) => (releaseListing = resolve));
    await page.route(
      (url) => url.pathname === '/admin/v1/applications' && url.searchParams.get('busi_water_no') === serial,
      async (route) => {
        await listingHeld;
        await route.continue();
      },
    );
    await page.goto(`${service.baseUrl}/console/applications/${serial}`);
    await page.waitForSelector('.field-row');
    await waitUntil(page, `document.activeElement?.tagName === 'H1'`);
    const headingBefore = await page.locator('h1').elementHandle();
    releaseListing();
    await page.getByText('Harbour Pay').first().waitFor();
    assert.equal(
      await headingBefore!.evaluate((heading) => heading.isConnected),
      false,
      'the heading was redrawn (else this test proves nothing)',
    );
    await notOnBody(page, "the partner's name arrived");
    assert.ok(await focusedMatches(page, 'h1'), 'the new heading has the focus');
  });

  test('the idle warning comes before the end, and "Stay signed in" extends the session on the server', async () => {
    const page = await openPage();
    await signIn(page, idleService.baseUrl, 'kim');
    const signedInAt = Date.now();
    const lastSeen = async () =>
      (
        await idleService.ctx.store.db
          .selectFrom('operator_sessions')
          .select('last_seen_at')
          .where('username', '=', 'kim')
          .where('revoked_at', 'is', null)
          .executeTakeFirstOrThrow()
      ).last_seen_at;
    const before = await lastSeen();
    const warning = page.getByRole('alertdialog', { name: 'Are you still there?' });
    await warning.waitFor({ timeout: IDLE_SECONDS * 1000 });
    const warnedAfter = (Date.now() - signedInAt) / 1000;
    assert.ok(warnedAfter < IDLE_SECONDS, `warned ${warnedAfter} s after sign-in, before the end`);
    assert.ok(await focusedMatches(page, 'dialog button.primary'), '"Stay signed in" has the focus');
    await assertAccessible(page, 'idle warning');
    await page.keyboard.press('Enter');
    await warning.waitFor({ state: 'detached' });
    await notOnBody(page, 'the idle warning');
    assert.ok((await lastSeen()) > before, 'the service counted "Stay signed in" as use');
    // Past the time the session would have ended without it: still signed in.
    await page.waitForTimeout(Math.max(0, signedInAt + (IDLE_SECONDS + 2) * 1000 - Date.now()));
    assert.match(page.url(), /\/console\/$/);
    const session = (await page.evaluate(
      `fetch('/admin/v1/session', { headers: { 'x-cardapply-background': '1' } }).then((r) => r.json())`,
    )) as { data: { signed_in: boolean } };
    assert.equal(session.data.signed_in, true);
  });
});

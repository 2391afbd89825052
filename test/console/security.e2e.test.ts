import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import * as OTPAuth from 'otpauth';
import { SYSTEM } from '../../src/audit/actor.ts';
import { listAudit } from '../../src/audit/auditTrail.ts';
import { createApp } from '../../src/partners/credentials.ts';
import { createOperator } from '../../src/operators/operators.ts';
import { Applications, enrolFactor, TEST_PASSWORD } from '../helpers/operators.ts';
import { startService, type TestService } from '../helpers/service.ts';
import { launchBrowser, newOperatorContext, type TestBrowser } from './browser.ts';
import { focusedMatches, screenshot } from './steps.ts';

/**
 * The console's side of PCI DSS requirement 8, in Debian's Chromium, in English and Chinese: a new
 * operator, where a second factor is required, is sent to enrol one (QR code drawn by the service,
 * the secret, a confirming code, ten recovery codes) and then signs in with a code; a wrong code
 * and a replayed one are refused. The signed-out page logs no error at all (no failed request),
 * and an idle session goes back to sign-in by itself.
 */
const LABELS = {
  en: {
    user: 'User name',
    password: 'Password',
    signIn: 'Sign in',
    otp: 'One-time code',
    code: 'Code from the app',
    confirm: 'Confirm',
    proceed: 'Continue',
    signOut: 'Sign out',
    wrong: /That code was not accepted: .* Wait for the next code in your app/,
    enrolWrong: /^That code does not match this secret\. .* you are still signed in/,
  },
  zh: {
    user: '用户名',
    password: '密码',
    signIn: '登录',
    otp: '一次性验证码',
    code: '应用中的验证码',
    confirm: '确认',
    proceed: '继续',
    signOut: '退出登录',
    wrong: /验证码未被接受：.*请等待应用显示下一个验证码/,
    enrolWrong: /^该验证码与此密钥不符。.*您仍处于登录状态/,
  },
} as const;

describe('operator security in Chromium', () => {
  let service: TestService;
  let idleService: TestService;
  let plain: TestService;
  let dash: TestService;
  let browser: TestBrowser;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[][] = [];

  const openPage = async (language: 'en' | 'zh'): Promise<Page> => {
    const { context, page, errors } = await newOperatorContext(browser.browser, { language });
    contexts.push(context);
    pageErrors.push(errors);
    return page;
  };

  before(async () => {
    service = await startService('sqlite', { OPERATOR_MFA_REQUIRED: 'true' });
    idleService = await startService('sqlite', { OPERATOR_SESSION_IDLE_SECONDS: '10' });
    plain = await startService('sqlite');
    dash = await startService('sqlite');
    browser = await launchBrowser();
  });

  // A test's pages are closed when it ends: an open queue or application page keeps polling.
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });

  after(async () => {
    await browser?.close();
    await service?.close();
    await idleService?.close();
    await plain?.close();
    await dash?.close();
    assert.deepEqual(pageErrors.flat(), [], 'no script errors or CSP violations in any page');
  });

  test('the signed-out page makes no failed request and logs nothing to the console', async () => {
    const { context, page } = await newOperatorContext(browser.browser, { language: 'en' });
    contexts.push(context);
    const logged: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') logged.push(message.text());
    });
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${service.baseUrl}/console/`);
    await page.waitForURL(/\/console\/login/);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    assert.deepEqual([logged, failed], [[], []]);
  });

  for (const language of ['en', 'zh'] as const) {
    test(`${language}: enrol a factor with a reload and a detour in the middle, then the first sign-in with it`, async () => {
      const l = LABELS[language];
      const username = `mfa-${language}`;
      await createOperator(
        service.ctx,
        { username, role: 'reviewer', password: TEST_PASSWORD },
        { actor: SYSTEM, source: 'test' },
      );
      const page = await openPage(language);
      const failed: string[] = [];
      page.on('response', (response) => {
        if (response.status() >= 400 && response.url().includes('/mfa')) failed.push(response.url());
      });
      const signIn = async (otp?: string) => {
        await page.goto(`${service.baseUrl}/console/`);
        await page.waitForURL(/\/console\/login/);
        await page.getByLabel(l.user, { exact: true }).fill(username);
        await page.getByLabel(l.password, { exact: true }).fill(TEST_PASSWORD);
        await page.getByRole('button', { name: l.signIn, exact: true }).click();
        if (otp === undefined) return;
        const field = page.getByLabel(l.otp);
        await field.waitFor();
        await field.fill(otp);
        await page.getByRole('button', { name: l.signIn, exact: true }).click();
      };
      const secretShown = async () => {
        await page.locator('.mfa-secret-text').waitFor();
        return (await page.locator('.mfa-secret-text').textContent())!;
      };

      // First sign-in: a password alone, so only enrolment is open.
      await signIn();
      await page.waitForURL(/\/console\/mfa$/);
      const qr = page.locator('img.mfa-qr');
      await qr.waitFor();
      const src = (await qr.getAttribute('src'))!;
      assert.match(Buffer.from(src.split(',')[1]!, 'base64').toString('utf8'), /^<svg[^>]*>[\s\S]*<\/svg>$/);
      const width = (await page.evaluate(
        "(async () => { const img = document.querySelector('img.mfa-qr'); await img.decode(); return img.naturalWidth; })()",
      )) as number;
      assert.equal(width, 200, 'the QR code is drawn');
      let totp = OTPAuth.URI.parse((await page.locator('.mfa-uri').textContent())!);
      const secret = await secretShown();
      assert.equal(secret, totp.secret.base32);
      assert.equal(
        await page.locator('[data-enrolment="new"]').count(),
        1,
        'the page says the secret is kept',
      );
      // A reload, and a detour elsewhere (sent back here): the same secret, one enrolment started.
      await page.reload();
      assert.equal(await secretShown(), secret, 'the same secret after a reload');
      assert.equal(await page.locator('[data-enrolment="pending"]').count(), 1);
      await page.goto(`${service.baseUrl}/console/audit`);
      await page.waitForURL(/\/console\/mfa$/, { timeout: 10_000 });
      assert.equal(await secretShown(), secret, 'the same secret after a detour');
      const started = (await listAudit(service.ctx.store.db, { targetId: username, limit: 50 })).items.filter(
        (e) => e.action === 'operator.mfa_enrol_start',
      );
      assert.equal(started.length, 1, 'one enrolment started, not one per visit');
      if (language === 'en') {
        // Asked for explicitly (and confirmed), a new secret replaces the pending one.
        await page.getByRole('button', { name: 'Start over with a new secret' }).click();
        await page.getByRole('dialog').getByRole('button', { name: 'Start over with a new secret' }).click();
        await page.locator('[data-enrolment="new"]').waitFor();
        assert.notEqual(await secretShown(), secret, 'a new secret');
        assert.ok(await focusedMatches(page, 'input[name="otp"]'), 'ready for its code');
        totp = OTPAuth.URI.parse((await page.locator('.mfa-uri').textContent())!);
      }

      // One mistyped code: the page says so and keeps the operator signed in, on this page, with
      // the same secret and the focus back in the code field.
      const codeAt = (ms: number) => totp.generate({ timestamp: ms });
      const shownSecret = await secretShown();
      const mistyped = String((Number(codeAt(Date.now())) + 1) % 1_000_000).padStart(6, '0');
      await page.getByLabel(l.code).fill(mistyped);
      await page.getByRole('button', { name: l.confirm, exact: true }).click();
      await page.locator('.mfa-form .form-error').filter({ hasText: l.enrolWrong }).waitFor();
      assert.match(page.url(), /\/console\/mfa$/, 'still on the enrolment page');
      assert.equal(await secretShown(), shownSecret, 'the same secret');
      assert.ok(await focusedMatches(page, 'input[name="otp"]'), 'ready for the next try');
      assert.deepEqual(
        failed.splice(0),
        [`${service.baseUrl}/admin/v1/mfa/confirm`],
        'only the code refused',
      );

      // Confirmed with the code the app shows now, as an operator would.
      const confirmedWith = codeAt(Date.now());
      await page.getByLabel(l.code).fill(confirmedWith);
      await page.getByRole('button', { name: l.confirm, exact: true }).click();
      const codes = page.locator('.recovery-codes li');
      await codes.first().waitFor();
      assert.equal(await codes.count(), 10);
      await page.getByRole('button', { name: l.proceed, exact: true }).click();
      await page.waitForSelector('header.topbar');
      await page.waitForURL(/\/console\/$/);
      // Visiting the page once enrolled: it says so, and no request fails.
      await page.goto(`${service.baseUrl}/console/mfa`);
      await page.locator('.mfa-body .notice').waitFor();
      assert.equal(await page.locator('.mfa-secret-text').count(), 0);
      assert.deepEqual(failed, [], 'no failed request on the second-factor page');
      await page.getByRole('button', { name: l.signOut }).click();
      await page.waitForURL(/signed_out=1/);

      // The first sign-in right after: the same code is refused as used (correctly), and the page
      // says to wait for the next one, with the focus in the code field and no stale banner.
      await signIn(confirmedWith);
      await page.locator('.form-error').filter({ hasText: l.wrong }).waitFor();
      assert.doesNotMatch((await page.locator('.form-error').textContent())!, /^otp:/);
      assert.ok(await focusedMatches(page, 'input[name="otp"]'), 'the focus is where the next code goes');
      assert.equal(await page.locator('.signin-card .notice').count(), 0, 'no "signed out" banner');
      // The next code signs in.
      await page.getByLabel(l.otp).fill(codeAt(Date.now() + 30_000));
      await page.getByRole('button', { name: l.signIn, exact: true }).click();
      await page.waitForSelector('header.topbar');
      await page.getByRole('button', { name: l.signOut }).click();
      await page.waitForURL(/signed_out=1/);
      // A wrong code: refused the same way.
      const wrong = String((Number(codeAt(Date.now())) + 1) % 1_000_000).padStart(6, '0');
      await signIn(wrong);
      await page.locator('.form-error').filter({ hasText: l.wrong }).waitFor();

      const trail = (await listAudit(service.ctx.store.db, { targetId: username, limit: 50 })).items;
      assert.deepEqual(
        trail.filter((e) => e.action === 'operator.login').map((e) => e.details?.['factor']),
        ['totp', 'none'],
      );
      assert.equal(trail.filter((e) => e.details?.['reason'] === 'wrong_code').length, 2);
    });
  }

  test('an idle session goes back to sign-in by itself', async () => {
    await createOperator(
      idleService.ctx,
      { username: 'ida', role: 'viewer', password: TEST_PASSWORD },
      { actor: SYSTEM, source: 'test' },
    );
    const page = await openPage('en');
    await page.goto(`${idleService.baseUrl}/console/`);
    await page.getByLabel('User name', { exact: true }).fill('ida');
    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForSelector('header.topbar');
    const started = Date.now();
    await page.waitForURL(/\/console\/login\?expired=1/, { timeout: 30_000 });
    const after = (Date.now() - started) / 1000;
    assert.ok(after >= 9 && after < 25, `back at sign-in after ${after} s (idle time-out 10 s)`);
  });

  test("an admin sees each operator's second factor and resets a lost one (audited, sessions end)", async () => {
    const by = { actor: SYSTEM, source: 'test' };
    await createOperator(plain.ctx, { username: 'ada', role: 'admin', password: TEST_PASSWORD }, by);
    await createOperator(plain.ctx, { username: 'fay', role: 'reviewer', password: TEST_PASSWORD }, by);
    await enrolFactor(plain, 'fay');
    const page = await openPage('en');
    await page.goto(`${plain.baseUrl}/console/operators`);
    await page.getByLabel('User name', { exact: true }).fill('ada');
    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const fay = page.locator('tr[data-operator="fay"]');
    await fay.locator('[data-factor="active"]', { hasText: 'Active' }).waitFor();
    assert.equal(
      await page.locator('tr[data-operator="ada"] [data-factor="none"]').textContent(),
      'Not enrolled',
    );
    assert.equal(await page.locator('tr[data-operator="ada"] button', { hasText: 'Reset' }).count(), 0);
    await fay.getByRole('button', { name: 'Reset second factor: fay' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset the second factor of fay' });
    await dialog.getByRole('button', { name: 'Reset second factor' }).click();
    await fay.locator('[data-factor="none"]').waitFor();
    // The row may be redrawn before the dialog's 'close' event, which returns the focus: between
    // the two the focus is on the body (the opener is gone), so wait for the dialog to go first.
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await focusedMatches(page, 'body'), false, 'the focus is not lost with the redrawn row');
    const reset = (await listAudit(plain.ctx.store.db, { targetId: 'fay', limit: 10 })).items.find(
      (e) => e.action === 'operator.mfa_reset',
    );
    assert.equal(reset?.actor, 'operator:ada');
  });

  test('claim an application in review, open it for review with one purpose (audited), release: masked again', async () => {
    const by = { actor: SYSTEM, source: 'test' };
    for (const [username, role] of [
      ['rita', 'reviewer'],
      ['rob', 'reviewer'],
    ] as const) {
      await createOperator(plain.ctx, { username, role, password: TEST_PASSWORD }, by);
    }
    const appId = (await createApp(plain.ctx.store.db, 'Harbour Pay', Date.now())).app_id;
    const serial = await new Applications(plain).inState(appId, 'IN_REVIEW');
    const signIn = async (page: Page, username: string) => {
      await page.goto(`${plain.baseUrl}/console/applications/${serial}`);
      await page.getByLabel('User name', { exact: true }).fill(username);
      await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForSelector('.claim-panel .claim-holder');
    };
    const rita = await openPage('en');
    await signIn(rita, 'rita');
    await rita.getByRole('button', { name: 'Claim for review' }).click();
    await rita.getByText(/^You hold this application for review until/).waitFor();

    const rob = await openPage('en');
    await signIn(rob, 'rob');
    await rob.getByText(/^rita holds this application for review until/).waitFor();
    assert.equal(await rob.getByRole('button', { name: 'Claim for review' }).count(), 0);

    await rita.getByRole('button', { name: 'Open for review' }).click();
    const dialog = rita.getByRole('dialog');
    await dialog.getByLabel('Purpose').selectOption('identity_check');
    await dialog.getByRole('button', { name: 'Reveal', exact: true }).click();
    await rita.locator('[data-value="cert_id"].revealed').waitFor();
    assert.ok((await rita.locator('.value.revealed').count()) >= 8, 'identity fields opened at once');
    const opened = await listAudit(plain.ctx.store.db, {
      targetId: serial,
      action: 'application.review_open',
      limit: 5,
    });
    assert.equal(opened.items.length, 1, 'one audit row for the whole opening');
    assert.equal(opened.items[0]!.details?.['purpose'], 'identity_check');
    assert.equal(opened.items[0]!.actor, 'operator:rita');

    await rita.getByRole('button', { name: 'Release' }).click();
    await rita.getByText('Nobody holds this application for review.').waitFor();
    assert.equal(await rita.locator('.value.revealed').count(), 0, 'masked again when the claim ends');
    const actions = (await listAudit(plain.ctx.store.db, { targetId: serial, limit: 10 })).items.map(
      (e) => e.action,
    );
    assert.deepEqual(actions.slice(0, 3), [
      'application.release',
      'application.review_open',
      'application.claim',
    ]);
  });

  test('zh: a reveal asks for a purpose, in Chinese, and the audit row has it', async () => {
    await createOperator(
      plain.ctx,
      { username: 'li', role: 'reviewer', password: TEST_PASSWORD },
      {
        actor: SYSTEM,
        source: 'test',
      },
    );
    const appId = (await createApp(plain.ctx.store.db, '海港支付', Date.now())).app_id;
    const serial = await new Applications(plain, 500).inState(appId, 'SUBMITTED');
    const page = await openPage('zh');
    await page.goto(`${plain.baseUrl}/console/applications/${serial}`);
    await page.getByLabel('用户名', { exact: true }).fill('li');
    await page.getByLabel('密码', { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.getByRole('button', { name: '查看明文：证件号码' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('身份数据仅在说明用途后显示', { exact: false }).waitFor();
    await dialog.getByLabel('用途').selectOption('other');
    await dialog.getByRole('button', { name: '查看', exact: true }).click();
    await dialog.getByText('选择“其他”时请填写说明').waitFor();
    assert.ok(await dialog.isVisible(), '“其他” needs a text: nothing is revealed without one');
    await dialog.getByLabel('说明').fill('客户来电核对');
    await dialog.getByRole('button', { name: '查看', exact: true }).click();
    await page.locator('[data-value="cert_id"].revealed').waitFor();
    // Read as the reviewer who revealed: a viewer is shown the purpose's code only.
    const entry = (
      await listAudit(
        plain.ctx.store.db,
        { targetId: serial, action: 'application.reveal', limit: 1 },
        { role: 'reviewer' },
      )
    ).items[0]!;
    assert.deepEqual(entry.details, { field: 'cert_id', purpose: 'other', purpose_text: '客户来电核对' });
  });

  for (const language of ['en', 'zh'] as const) {
    test(`${language}: the workload dashboard draws the backlog from known data; the queue marks what is past its SLA`, async () => {
      const HOUR = 3_600_000;
      const by = { actor: SYSTEM, source: 'test' };
      const username = `viewer-${language}`;
      await createOperator(dash.ctx, { username, role: 'viewer', password: TEST_PASSWORD }, by);
      if (language === 'en') {
        const appId = (await createApp(dash.ctx.store.db, 'Harbour Pay', Date.now())).app_id;
        const applications = new Applications(dash);
        const now = Date.now();
        // Arrivals: 3 five hours ago, 1 two days ago; decisions: 2 an hour ago.
        for (const [createdAgo, status] of [
          [5 * HOUR, 'SUBMITTED'],
          [5 * HOUR, 'SUBMITTED'],
          [5 * HOUR, 'APPROVED'],
          [48 * HOUR, 'REJECTED'],
        ] as const) {
          const serial = await applications.inState(appId, status);
          await dash.ctx.store.db
            .updateTable('applications')
            .set({ created_at: now - createdAgo, updated_at: now - createdAgo })
            .where('busi_water_no', '=', serial)
            .execute();
          // A decision's time is its event's (the history rides on the events since 0066).
          await dash.ctx.store.db
            .updateTable('events')
            .set({ created_at: now - HOUR })
            .where('busi_water_no', '=', serial)
            .where('to_status', 'in', ['APPROVED', 'REJECTED'])
            .execute();
        }
      }
      const page = await openPage(language);
      await page.goto(`${dash.baseUrl}/console/dashboard`);
      await page.getByLabel(LABELS[language].user, { exact: true }).fill(username);
      await page.getByLabel(LABELS[language].password, { exact: true }).fill(TEST_PASSWORD);
      await page.getByRole('button', { name: LABELS[language].signIn, exact: true }).click();
      await page.waitForSelector('svg.backlog-chart rect.bar', { state: 'attached' });

      const api = (await (
        await fetch(`${dash.baseUrl}/admin/v1/workload`, {
          headers: { authorization: `Bearer ${await loginToken(dash, username)}` },
        })
      ).json()) as { data: { backlog: { hour: number; arrivals: number; decisions: number }[] } };
      const bars = (await page.evaluate(
        `[...document.querySelectorAll('svg.backlog-chart rect.bar')].map((r) => ({ kind: r.dataset.kind, hour: Number(r.dataset.hour), value: Number(r.dataset.value), height: Number(r.getAttribute('height')) }))`,
      )) as { kind: 'arrivals' | 'decisions'; hour: number; value: number; height: number }[];
      assert.equal(bars.length, 2 * 168);
      const max = Math.max(...api.data.backlog.flatMap((b) => [b.arrivals, b.decisions]));
      assert.equal(max, 3);
      for (const bar of bars) {
        const expected = api.data.backlog.find((b) => b.hour === bar.hour)![bar.kind];
        assert.equal(bar.value, expected, `${bar.kind} at ${bar.hour}`);
        assert.ok(
          Math.abs(bar.height - (expected / max) * 160) < 0.01,
          `height of ${bar.kind} at ${bar.hour}`,
        );
      }
      const drawn = (kind: string) =>
        bars
          .filter((b) => b.kind === kind && b.value > 0)
          .map((b) => b.value)
          .sort();
      assert.deepEqual(drawn('arrivals'), [1, 3]);
      assert.deepEqual(drawn('decisions'), [2]);
      // Told apart by position (arrivals rise from the axis, decisions hang from it), and readable
      // as text: the table of hours says what the bars show.
      const sides = (await page.evaluate(
        `[...document.querySelectorAll('svg.backlog-chart rect.bar')].filter((r) => r.dataset.value !== '0').map((r) => r.dataset.kind + (Number(r.getAttribute('y')) === 160 ? ' below' : ' above'))`,
      )) as string[];
      assert.deepEqual([...new Set(sides)].sort(), ['arrivals above', 'decisions below']);
      const hours = (await page.evaluate(
        `[...document.querySelectorAll('.backlog-hours tr[data-hour]')].map((r) => [...r.querySelectorAll('td')].map((c) => Number(c.textContent)))`,
      )) as number[][];
      assert.deepEqual(
        hours.map((values) => values.join('/')).sort(),
        ['0/2', '1/0', '3/0'],
        'the table of hours lists the values of the bars',
      );
      const days = (await page.evaluate(
        `[...document.querySelectorAll('.backlog-table tr[data-day] td')].reduce((sum, c) => sum + Number(c.textContent), 0)`,
      )) as number;
      assert.equal(days, 6, 'the table of days adds up to the 4 arrivals and 2 decisions');
      const cut = (await page.evaluate(
        `(() => { const svg = document.querySelector('svg.backlog-chart'); const width = svg.viewBox.baseVal.width; return [...svg.querySelectorAll('.axis-label')].filter((l) => { const box = l.getBBox(); return box.x < 0 || box.x + box.width > width + 0.5; }).map((l) => l.textContent); })()`,
      )) as string[];
      assert.deepEqual(cut, [], 'no day label runs past the chart, the last one included');
      const submitted = page.locator('.workload-table tr[data-status="SUBMITTED"]');
      assert.equal(await submitted.getAttribute('class'), 'past-sla', 'five hours is past the 4-hour SLA');
      assert.equal(await submitted.locator('td').nth(1).textContent(), '2');
      if (language === 'en') await screenshot(page, 'dashboard-en.png', true);
      else await screenshot(page, 'dashboard-zh.png', true);

      await page.goto(`${dash.baseUrl}/console/?status=SUBMITTED`);
      await page.waitForSelector('tr[data-serial]');
      assert.equal(await page.locator('tr[data-serial][data-past-sla="true"]').count(), 2);
    });
  }
});

async function loginToken(service: TestService, username: string): Promise<string> {
  const reply = await fetch(`${service.baseUrl}/admin/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: TEST_PASSWORD }),
  });
  return ((await reply.json()) as { data: { token: string } }).data.token;
}

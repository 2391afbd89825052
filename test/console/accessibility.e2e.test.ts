import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, afterEach, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { createApp } from '../../src/partners/credentials.ts';
import { createOperator } from '../../src/operators/operators.ts';
import { claimApplication } from '../../src/applications/commands/reviewClaims.ts';
import { SYSTEM } from '../../src/audit/actor.ts';
import { skipWithout } from '../helpers/components.ts';
import { Applications, enrolFactor, TEST_PASSWORD } from '../helpers/operators.ts';
import { startService, type TestService } from '../helpers/service.ts';
import { assertAccessible } from './axe.ts';
import { launchBrowser, newOperatorContext, type TestBrowser } from './browser.ts';
import { assertNoBrokenWords, assertNoRawWords, signIn, signInOverApi } from './steps.ts';

/**
 * The console against WCAG 2.2 AA: axe-core on every page and every dialog in both languages, and
 * the checks axe cannot make: the focus ring's contrast computed from the styles, reflow at 320 CSS
 * px, and the backlog chart's values as text. (Keyboard walks, focus after dialogs and the idle
 * warning: keyboard.e2e.test.ts.)
 */

/** A page of the console, and what shows that it has finished drawing. */
const PAGES: [string, string][] = [
  ['/console/', '.queue-table tbody tr[data-serial]'],
  ['/console/apps', 'tr[data-app]'],
  ['/console/operators', 'tr[data-operator]'],
  ['/console/audit', '.audit-table tbody tr'],
  ['/console/dashboard', '.backlog-chart'],
  ['/console/screening', '.imports-table'],
  ['/console/mfa', '.mfa-body form, .mfa-body .notice'],
];

describe('console accessibility (WCAG 2.2 AA) in Chromium', { skip: skipWithout('chromium') }, () => {
  let service: TestService;
  let browser: TestBrowser;
  let serials: Record<'submitted' | 'review' | 'heldByRita' | 'issued' | 'supplement' | 'shipped', string>;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[][] = [];

  const openPage = async (language: 'en' | 'zh', width = 1440): Promise<Page> => {
    const { context, page, errors } = await newOperatorContext(browser.browser, { language });
    await page.setViewportSize({ width, height: 900 });
    contexts.push(context);
    pageErrors.push(errors);
    return page;
  };
  const applicationPage = (serial: string): [string, string] => [
    `/console/applications/${serial}`,
    '.field-row',
  ];
  const allPages = () => [
    ...PAGES,
    applicationPage(serials.submitted),
    applicationPage(serials.review),
    applicationPage(serials.heldByRita),
    applicationPage(serials.issued),
    applicationPage(serials.supplement),
    applicationPage(serials.shipped),
  ];
  const visit = async (page: Page, [path, ready]: [string, string]) => {
    await page.goto(`${service.baseUrl}${path}`);
    await page.locator(ready).first().waitFor();
  };
  /**
   * Reaches a page as a link of the console does: the console's own click handler draws it in the
   * same document, without a reload (so axe, once in the page, stays). The 320 px walk loads every
   * page afresh instead, so each page is checked both ways of arriving.
   */
  const follow = async (page: Page, [path, ready]: [string, string]) => {
    await page.evaluate(`(() => {
      const link = document.createElement('a');
      link.href = ${JSON.stringify(path)};
      document.body.append(link);
      link.click();
      link.remove();
    })()`);
    await page.waitForURL(`${service.baseUrl}${path}`);
    await page.locator(ready).first().waitFor();
  };

  before(async () => {
    service = await startService('sqlite');
    browser = await launchBrowser();
    const by = { actor: SYSTEM, source: 'test' };
    await createOperator(service.ctx, { username: 'adam', role: 'admin', password: TEST_PASSWORD }, by);
    await createOperator(service.ctx, { username: 'rita', role: 'reviewer', password: TEST_PASSWORD }, by);
    const appId = (await createApp(service.ctx.store.db, 'Harbour Pay', Date.now())).app_id;
    const applications = new Applications(service);
    serials = {
      submitted: await applications.inState(appId, 'SUBMITTED'),
      review: await applications.inState(appId, 'IN_REVIEW'),
      heldByRita: await applications.inState(appId, 'IN_REVIEW'),
      issued: await applications.inState(appId, 'CARD_ISSUED'),
      supplement: await applications.inState(appId, 'SUPPLEMENT_REQUIRED'),
      shipped: await applications.inState(appId, 'SHIPPED'),
    };
    for (const status of ['DELIVERED', 'REJECTED', 'RETURNED', 'EXPIRED'] as const)
      await applications.inState(appId, status);
    await claimApplication(service.ctx, serials.review, { username: 'adam', role: 'admin' }, by);
    await claimApplication(service.ctx, serials.heldByRita, { username: 'rita', role: 'reviewer' }, by);
    await enrolFactor(service, 'rita');
  });

  // A test's pages are closed when it ends: an open queue or application page keeps polling.
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });

  after(async () => {
    await browser?.close();
    await service?.close();
    assert.deepEqual(pageErrors.flat(), [], 'no script errors or CSP violations in any page');
  });

  for (const language of ['en', 'zh'] as const) {
    test(`${language}: no WCAG 2.2 AA violation on any page or dialog`, async () => {
      const page = await openPage(language);
      await page.goto(`${service.baseUrl}/console/login`);
      await page.locator('form.signin-form').waitFor();
      await assertAccessible(page, `${language} sign-in`);
      await assertNoRawWords(page, `${language} sign-in`);
      // The code field waits until the service asks for a code: not shown, not in the Tab order.
      assert.equal(await page.locator('input[name="otp"]').isVisible(), false);
      // The console fetches nothing from elsewhere: the walk-through's example image host included.
      const elsewhere: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).host !== new URL(service.baseUrl).host) elsewhere.push(request.url());
      });
      await signIn(page, service.baseUrl, 'adam');
      // Each page once, then each dialog it opens, on the same visit: Escape leaves the page as it was.
      const dialogs = dialogsByPage();
      for (const target of allPages()) {
        await follow(page, target);
        await assertAccessible(page, `${language} ${target[0]}`);
        await assertNoRawWords(page, `${language} ${target[0]}`);
        for (const [where, open] of dialogs.get(target[0]) ?? []) {
          await open(page);
          await page.getByRole('dialog').waitFor();
          await assertAccessible(page, `${language} ${where} dialog`);
          await assertNoRawWords(page, `${language} ${where} dialog`);
          await page.keyboard.press('Escape');
          await page.getByRole('dialog').waitFor({ state: 'detached' });
        }
        dialogs.delete(target[0]);
      }
      assert.deepEqual([...dialogs.keys()], [], 'every dialog is opened from a page of the walk');
      // Opened for review: every field and image in the clear, still labelled, nothing fetched.
      await follow(page, applicationPage(serials.review));
      await page.locator('[data-focus-key="claim-open"]').click();
      await page.getByRole('dialog').locator('select[name="purpose"]').selectOption('identity_check');
      await page.getByRole('dialog').locator('button[type="submit"]').click();
      await page.locator('.value.revealed').first().waitFor();
      await assertAccessible(page, `${language} application opened for review`);
      await assertNoRawWords(page, `${language} application opened for review`);
      assert.deepEqual(elsewhere, [], 'no request to another host');
    });
  }

  /** Where the walks below leave a screenshot of every page and dialog: a test artifact, git ignores it. */
  const SHOTS = fileURLToPath(new URL('../../.tmp/console-screenshots/', import.meta.url));
  const shotName = (language: string, width: number, where: string) =>
    join(SHOTS, `${language}-${width}-${where.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}.png`);

  for (const language of ['en', 'zh'] as const) {
    test(`${language}: no text broken inside a word at 1280 and 1920 pixels, on any page or dialog`, async (t) => {
      mkdirSync(SHOTS, { recursive: true });
      for (const width of [1280, 1920]) {
        const page = await openPage(language, width);
        await signInOverApi(page, service.baseUrl, 'adam');
        const dialogs = dialogsByPage();
        for (const target of allPages()) {
          await visit(page, target);
          await assertNoBrokenWords(page, `${language} ${width} ${target[0]}`);
          await page.screenshot({ path: shotName(language, width, target[0]), fullPage: true });
          for (const [where, open] of dialogs.get(target[0]) ?? []) {
            await open(page);
            await page.getByRole('dialog').waitFor();
            await assertNoBrokenWords(page, `${language} ${width} ${where} dialog`);
            await page.screenshot({ path: shotName(language, width, `${where} dialog`) });
            await page.keyboard.press('Escape');
            await page.getByRole('dialog').waitFor({ state: 'detached' });
          }
        }
      }
      t.diagnostic(`screenshots in ${SHOTS}`);
    });
  }

  /** Every dialog of the console, by the page it opens on, and how an admin opens it there. */
  const dialogsByPage = (): Map<string, [string, (page: Page) => Promise<void>][]> => {
    const click = (selector: string) => (page: Page) => page.locator(selector).first().click();
    const onApplication = (serial: string) => applicationPage(serial)[0];
    const dialogs: [string, string, (page: Page) => Promise<void>][] = [
      [onApplication(serials.submitted), 'reveal purpose', click('button.reveal')],
      [onApplication(serials.submitted), 'reject', click('button[data-action="reject"]')],
      [onApplication(serials.review), 'approve', click('button[data-action="approve"]')],
      [onApplication(serials.review), 'request information', click('button[data-action="supplement"]')],
      [onApplication(serials.review), 'open for review', click('.claim-actions button.primary')],
      [onApplication(serials.shipped), 'return', click('button[data-action="return"]')],
      [onApplication(serials.issued), 'ship', click('button[data-action="ship"]')],
      [onApplication(serials.heldByRita), 'reassign', click('[data-focus-key="claim-reassign"]')],
      ['/console/apps', 'disable app', click('tr[data-app] button.danger-outline')],
      [
        '/console/apps',
        'new app secret',
        async (page: Page) => {
          await page.locator('form.inline-form input').first().fill('Lotus Wallet');
          await page.locator('form.inline-form button[type="submit"]').click();
        },
      ],
      ['/console/apps', 'rotate secret', click('tr[data-app] button')],
      ['/console/operators', 'set password', click('tr[data-operator] button')],
      ['/console/operators', 'reset second factor', click('button[data-focus-key="reset-rita"]')],
      [
        '/console/mfa',
        'start over enrolment',
        async (page: Page) => {
          await page.locator('.mfa-secret').waitFor();
          await click('.mfa-body .small button')(page);
        },
      ],
    ];
    const byPage = new Map<string, [string, (page: Page) => Promise<void>][]>();
    for (const [path, where, open] of dialogs) byPage.set(path, [...(byPage.get(path) ?? []), [where, open]]);
    return byPage;
  };

  test('every status has a badge style; an application names its partner and its assigned card', async () => {
    const page = await openPage('en');
    await signInOverApi(page, service.baseUrl, 'adam');
    await page.goto(`${service.baseUrl}/console/?status=`);
    await page.locator('.count-chip[data-status="RETURNED"]').waitFor();
    await page.locator('.queue-table tbody tr[data-serial]').first().waitFor();
    const unstyled = (await page.evaluate(`(() => {
      const page = getComputedStyle(document.body).backgroundColor;
      return [...document.querySelectorAll('.queue-table .badge[data-status]')]
        .filter((badge) => { const bg = getComputedStyle(badge).backgroundColor; return bg === page || /rgba\\(0, 0, 0, 0\\)|transparent/.test(bg); })
        .map((badge) => badge.dataset.status);
    })()`)) as string[];
    assert.deepEqual(unstyled, [], 'badges without a style of their own');
    const shown = (await page.evaluate(
      `[...new Set([...document.querySelectorAll('.queue-table .badge[data-status]')].map((b) => b.dataset.status))].sort()`,
    )) as string[];
    for (const status of ['EXPIRED', 'RETURNED', 'SUPPLEMENT_REQUIRED'])
      assert.ok(shown.includes(status), status);

    await visit(page, applicationPage(serials.submitted));
    await page.locator('.app-meta', { hasText: 'Harbour Pay' }).waitFor();
    await page.locator('[data-field-row="card_no"] dt', { hasText: 'Assigned card number' }).waitFor();
  });

  test('the focus ring has 3:1 against white and the page background', async () => {
    const page = await openPage('en');
    await signInOverApi(page, service.baseUrl, 'adam');
    await page.goto(`${service.baseUrl}/console/`);
    await page.waitForSelector('header.topbar');
    const colours = (await page.evaluate(`(() => {
      const probe = document.createElement('button');
      probe.className = 'button';
      document.querySelector('main').append(probe);
      probe.focus({ focusVisible: true });
      const ring = getComputedStyle(probe).outlineColor;
      probe.remove();
      return { ring, page: getComputedStyle(document.body).backgroundColor };
    })()`)) as { ring: string; page: string };
    for (const against of ['rgb(255, 255, 255)', colours.page]) {
      const ratio = contrast(colours.ring, against);
      assert.ok(ratio >= 3, `focus ring ${colours.ring} against ${against}: ${ratio.toFixed(2)}:1`);
    }
  });

  test("the sign-in footer's text has 4.5:1 on its own background, however wide the window", async () => {
    const page = await openPage('en');
    for (const width of [1024, 1920, 2560]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${service.baseUrl}/console/login`);
      await page.locator('.signin-footer').waitFor();
      const { colour, background } = (await page.evaluate(`(() => {
        const style = getComputedStyle(document.querySelector('.signin-footer'));
        return { colour: style.color, background: style.backgroundColor };
      })()`)) as { colour: string; background: string };
      assert.doesNotMatch(background, /rgba\(.*, 0\)|transparent/, 'an opaque background of its own');
      const ratio = contrast(colour, background);
      assert.ok(ratio >= 4.5, `at ${width} px: ${ratio.toFixed(2)}:1`);
      await assertAccessible(page, `sign-in at ${width} px`);
    }
  });

  for (const language of ['en', 'zh'] as const) {
    test(`${language}: no page scrolls sideways at 320 CSS px`, async () => {
      const page = await openPage(language, 320);
      await page.goto(`${service.baseUrl}/console/login`);
      await page.locator('form.signin-form').waitFor();
      const overflow = async (where: string) => {
        // Measured once the page has settled (a table may still be filling in).
        let widths: [number, number] = [0, 0];
        for (let attempt = 0; attempt < 20; attempt++) {
          widths = (await page.evaluate(
            '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
          )) as [number, number];
          if (widths[0] <= widths[1]) return;
          await page.waitForTimeout(100);
        }
        assert.fail(
          `${where}: ${widths[0]} px wide in a ${widths[1]} px window; too wide: ${await tooWide(page)}`,
        );
      };
      await overflow('sign-in');
      await signInOverApi(page, service.baseUrl, 'adam');
      for (const target of allPages()) {
        await visit(page, target);
        await overflow(target[0]);
      }
    });
  }
});

/** The outermost elements that reach past the window's right edge, outside any scrolling box. */
async function tooWide(page: Page): Promise<string> {
  return (await page.evaluate(`(() => {
    const width = document.documentElement.clientWidth;
    const scrolls = (el) => { for (let p = el.parentElement; p; p = p.parentElement) { if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(p).overflowX) && p.getBoundingClientRect().right <= width + 1) return true; } return false; };
    const wide = [...document.querySelectorAll('body *')].filter((el) => (el.getBoundingClientRect().right > width + 1 || el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === 'visible') && !scrolls(el));
    return wide.filter((el) => !wide.includes(el.parentElement)).map((el) => el.tagName.toLowerCase() + '.' + [...el.classList].join('.') + ' ' + Math.round(el.getBoundingClientRect().right)).join(', ');
  })()`)) as string;
}

/** WCAG's contrast ratio of two `rgb(...)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (colour: string) => {
    const [r, g, bl] = (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high! + 0.05) / (low! + 0.05);
}

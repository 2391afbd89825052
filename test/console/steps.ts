import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { TEST_PASSWORD } from '../helpers/operators.ts';
import { budgetMs } from '../helpers/budget.ts';
import { SESSION_COOKIE } from '../../src/http/admin/operatorAuth.ts';

/** Steps the console tests share: sign-in, keyboard moves, and checks every page must pass. */

export const SCREENSHOTS = new URL('../../docs/screenshots/', import.meta.url);

export async function signIn(page: Page, baseUrl: string, username: string, path = '/console/') {
  await page.goto(`${baseUrl}${path}`);
  await page.waitForURL(/\/console\/login/);
  await page.getByLabel(/^(User name|用户名)$/).fill(username);
  await page.getByLabel(/^(Password|密码)$/).fill(TEST_PASSWORD);
  await page.getByRole('button', { name: /^(Sign in|登录)$/ }).click();
  await page.waitForSelector('header.topbar');
}

/**
 * Signs the page's context in over the admin API, as the sign-in form does, for tests of what comes
 * after sign-in (the form itself is tested in console.e2e, keyboard.e2e and security.e2e): a session
 * of its own each time, without loading the sign-in page. The caller then opens the page it needs.
 */
export async function signInOverApi(page: Page, baseUrl: string, username: string): Promise<void> {
  const reply = await fetch(`${baseUrl}/admin/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: TEST_PASSWORD }),
  });
  assert.equal(reply.status, 200, `sign-in of ${username} over the API`);
  const { token } = ((await reply.json()) as { data: { token: string } }).data;
  await page
    .context()
    .addCookies([{ name: SESSION_COOKIE, value: token, url: baseUrl, httpOnly: true, sameSite: 'Strict' }]);
}

/** Whether the focused element matches a CSS selector. */
export async function focusedMatches(page: Page, selector: string): Promise<boolean> {
  return (await page.evaluate(
    `document.activeElement?.matches(${JSON.stringify(selector)}) ?? false`,
  )) as boolean;
}

/**
 * Waits until a JavaScript expression is true in the page. (Playwright's waitForFunction would eval
 * the string inside the page, which the console's CSP rightly refuses; this asks from outside.) It
 * ends when the expression holds; its ceiling grows with the machine's load (budget.ts).
 */
export async function waitUntil(page: Page, expression: string, timeoutMs = budgetMs(4_000)): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!((await page.evaluate(expression)) as boolean)) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for: ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Presses Tab until the focus is on an element matching `selector`, as a keyboard user would. */
export async function tabTo(page: Page, selector: string, maxPresses = 60): Promise<void> {
  for (let i = 0; i < maxPresses; i++) {
    if (await focusedMatches(page, selector)) return;
    await page.keyboard.press('Tab');
  }
  assert.fail(`Tab never reached ${selector}`);
}

/** Every form control on the page has a label (a <label for>, a wrapping label or aria-label). */
export async function assertLabelled(page: Page, where: string): Promise<void> {
  const unlabelled = (await page.evaluate(`[...document.querySelectorAll('input, select, textarea')]
    .filter((el) => el.type !== 'hidden' && el.labels.length === 0 && !el.getAttribute('aria-label'))
    .map((el) => el.outerHTML.slice(0, 120))`)) as string[];
  assert.deepEqual(unlabelled, [], `${where}: form fields without a label`);
}

/**
 * Writes a screenshot to docs/screenshots/ only when asked (`npm run screenshots`): a test run must
 * not change the checkout.
 */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<void> {
  if (process.env['WRITE_SCREENSHOTS'] !== '1') return;
  // Let fonts and images settle so the pictures are complete.
  await page.evaluate('document.fonts.ready');
  await page.waitForTimeout(150);
  await page.screenshot({ path: new URL(name, SCREENSHOTS).pathname, fullPage });
}

/**
 * Words meant for developers on an operator's screen: a raw field or code key (`mob_no_of`,
 * `wrong_code`) or JSON, in any text the page shows. Identifiers the console marks as such
 * (`translate="no"`: serials, app ids, event types) are what they are and are skipped.
 */
export async function rawWords(page: Page): Promise<string[]> {
  return (await page.evaluate(`(() => {
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const element = node.parentElement;
      if (element === null || element.closest('[translate="no"], script, style, noscript, [hidden]')) continue;
      const text = node.textContent;
      found.push(...(text.match(/\\b[a-z]+(?:_[a-z]+)+\\b/g) ?? []));
      if (/[{[]\\s*"|"\\s*:\\s*["{[\\d]/.test(text)) found.push(text.trim().slice(0, 80));
    }
    for (const element of document.querySelectorAll('[aria-label], [placeholder], [title]')) {
      for (const name of ['aria-label', 'placeholder', 'title']) {
        const text = element.getAttribute(name) ?? '';
        if (!element.closest('[translate="no"]')) found.push(...(text.match(/\\b[a-z]+(?:_[a-z]+)+\\b/g) ?? []));
      }
    }
    return found;
  })()`)) as string[];
}

export async function assertNoRawWords(page: Page, where: string): Promise<void> {
  assert.deepEqual(await rawWords(page), [], `${where}: raw keys or JSON on the page`);
}

/**
 * Text broken inside a word, as the browser laid it out (not as the CSS reads): a word of Latin
 * letters or digits up to 24 characters split across lines ("imag e/png", "900 ×12 00"), a longer
 * token (a hash, a URL) left with fewer than 12 characters a line, or Chinese standing one
 * character a line. Measured with ranges over the page's text nodes, so a style that looks fine in
 * the stylesheet but squeezes a column is caught where it happens.
 */
export async function brokenWords(page: Page): Promise<string[]> {
  return (await page.evaluate(`(() => {
    const found = [];
    const range = document.createRange();
    const lines = (node, start, end) => {
      const tops = new Set();
      for (let i = start; i < end; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getBoundingClientRect();
        if (rect.width > 0) tops.add(Math.round(rect.top));
      }
      return tops.size;
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const element = node.parentElement;
      if (element === null || element.closest('script, style, textarea, option, [hidden]') !== null) continue;
      if (element.getClientRects().length === 0) continue;
      const where = element.tagName.toLowerCase() + (element.className ? '.' + String(element.className).split(' ')[0] : '');
      for (const match of node.data.matchAll(/[\\p{L}\\p{N}]+/gu)) {
        const word = match[0];
        const start = match.index;
        if (/\\p{Script=Han}/u.test(word)) {
          const count = lines(node, start, start + word.length);
          if (word.length >= 2 && count >= word.length) found.push(where + ': "' + word + '" one character a line');
        } else if (word.length <= 24) {
          if (word.length >= 2 && lines(node, start, start + word.length) > 1) found.push(where + ': "' + word + '" broken');
        } else if (lines(node, start, start + word.length) > Math.ceil(word.length / 12)) {
          found.push(where + ': "' + word.slice(0, 16) + '…" in short lines');
        }
      }
    }
    return [...new Set(found)];
  })()`)) as string[];
}

export async function assertNoBrokenWords(page: Page, where: string): Promise<void> {
  assert.deepEqual(await brokenWords(page), [], `${where}: text broken inside a word`);
}

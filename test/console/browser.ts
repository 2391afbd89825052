import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * Debian's Chromium, headless, driven by playwright-core (never a browser the test tool downloads).
 * Each launch gets a fresh, temporary profile (playwright makes it and removes it on close).
 */
export const CHROMIUM = '/usr/bin/chromium';

const ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface TestBrowser {
  browser: Browser;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: apt-get install chromium fonts-wqy-microhei (as .ci/run does)`);
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  return { browser, close: () => browser.close() };
}

/** A tiny SVG standing in for a document image (partners' image hosts are not reachable here). */
export function documentImage(label: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200" viewBox="0 0 320 200">
<rect width="320" height="200" rx="14" fill="#e9eef7" stroke="#9fb3d9" stroke-width="3"/>
<rect x="22" y="40" width="80" height="100" rx="6" fill="#c8d4ea"/>
<circle cx="62" cy="78" r="20" fill="#9fb3d9"/><rect x="38" y="104" width="48" height="26" rx="10" fill="#9fb3d9"/>
<rect x="120" y="48" width="160" height="12" rx="6" fill="#9fb3d9"/><rect x="120" y="72" width="120" height="12" rx="6" fill="#b7c6e3"/>
<rect x="120" y="96" width="140" height="12" rx="6" fill="#b7c6e3"/><rect x="120" y="120" width="90" height="12" rx="6" fill="#b7c6e3"/>
<text x="22" y="178" font-family="sans-serif" font-size="16" fill="#4a5f86">${label}</text></svg>`;
}

/**
 * A browser context for one operator: a desktop window, the language preset, the applicants'
 * image host answered locally, and every page error or console error collected.
 */
export async function newOperatorContext(
  browser: Browser,
  options: { language?: 'en' | 'zh' } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    deviceScaleFactor: 1,
    locale: options.language === 'zh' ? 'zh-CN' : 'en-US',
  });
  await context.route('https://img.example.com/**', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'image/svg+xml',
      body: documentImage(new URL(route.request().url()).pathname.split('/').pop() ?? ''),
    }),
  );
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // 401 and 403 answers are expected in some steps; the browser logs them as failed resources.
    if (message.type() === 'error' && !/status of 40[13]/.test(message.text())) errors.push(message.text());
  });
  return { context, page, errors };
}

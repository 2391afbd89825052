import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext } from 'playwright-core';
import { SYSTEM } from '../../src/audit/actor.ts';
import { createOperator } from '../../src/operators/operators.ts';
import { importList } from '../../src/screening/importList.ts';
import { skipWithout } from '../helpers/components.ts';
import { TEST_PASSWORD } from '../helpers/operators.ts';
import { startService, type TestService } from '../helpers/service.ts';
import { launchBrowser, newOperatorContext, type TestBrowser } from './browser.ts';
import { signInOverApi } from './steps.ts';

/**
 * The banner over every page while screening is off (no list in force) or stale, in English and
 * Chinese, and gone once a fresh list is in force (issue 53).
 */
const LIST = `<?xml version="1.0" encoding="UTF-8"?>
<!-- A test-made entry; nobody here is a listed person. -->
<CONSOLIDATED_LIST><INDIVIDUALS><INDIVIDUAL><DATAID>1</DATAID><FIRST_NAME>GAO</FIRST_NAME>
<SECOND_NAME>BANNER</SECOND_NAME><REFERENCE_NUMBER>TSi.BANNER</REFERENCE_NUMBER>
</INDIVIDUAL></INDIVIDUALS></CONSOLIDATED_LIST>`;

describe('the screening banner in the console', { skip: skipWithout('chromium') }, () => {
  let service: TestService;
  let browser: TestBrowser;
  const contexts: BrowserContext[] = [];

  const bannerOf = async (language: 'en' | 'zh', path = '/console/') => {
    const opened = await newOperatorContext(browser.browser, { language });
    contexts.push(opened.context);
    await signInOverApi(opened.page, service.baseUrl, 'vera');
    await opened.page.goto(`${service.baseUrl}${path}`);
    await opened.page.waitForSelector('main h1');
    // The banner fills itself once the readiness is read: wait for that request to answer.
    await opened.page.waitForLoadState('networkidle');
    const banner = opened.page.locator('.screening-banner');
    return {
      hidden: await banner.isHidden(),
      text: (await banner.textContent()) ?? '',
      errors: opened.errors,
    };
  };

  before(async () => {
    service = await startService('sqlite', { SCREENING_REQUIRED: 'true', SCREENING_MAX_AGE_DAYS: '2' });
    browser = await launchBrowser();
    await createOperator(
      service.ctx,
      { username: 'vera', role: 'viewer', password: TEST_PASSWORD },
      { actor: SYSTEM, source: 'test' },
    );
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await service?.close();
  });

  test('no list in force: the banner says so on every page, in English and Chinese', async () => {
    const en = await bannerOf('en');
    assert.equal(en.hidden, false);
    assert.match(en.text, /Sanctions screening is not in force\. No sanctions list has been imported/);
    assert.match(en.text, /not ready until a list is imported/);
    const audit = await bannerOf('en', '/console/audit');
    assert.equal(audit.hidden, false, 'on another page too');
    const zh = await bannerOf('zh');
    assert.equal(zh.hidden, false);
    assert.match(zh.text, /制裁筛查未生效。.*尚未导入任何制裁名单/);
    assert.deepEqual([...en.errors, ...zh.errors], []);
  });

  test('a fresh list: no banner; the list grows stale: the banner names it', async () => {
    await importList(service.ctx, {
      list: 'un',
      source: (async function* () {
        yield LIST;
      })(),
      actor: 'system',
      origin: 'test',
    });
    assert.equal((await bannerOf('en')).hidden, true);
    await service.ctx.store.db
      .updateTable('screening_lists')
      .set((eb) => ({ imported_at: eb('imported_at', '-', 5 * 86_400_000) }))
      .execute();
    const en = await bannerOf('en');
    assert.match(en.text, /The un list was last imported 5 days ago, more than the 2 days allowed\./);
    const zh = await bannerOf('zh');
    assert.match(zh.text, /un 名单最近一次导入是 5 天前，超过允许的 2 天。/);
  });
});

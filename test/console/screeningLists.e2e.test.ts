import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext } from 'playwright-core';
import { SYSTEM } from '../../src/audit/actor.ts';
import { createOperator } from '../../src/operators/operators.ts';
import { importList } from '../../src/screening/importList.ts';
import { skipWithout } from '../helpers/components.ts';
import { TEST_PASSWORD } from '../helpers/operators.ts';
import { newPartner, startService, type TestService } from '../helpers/service.ts';
import { screenPending, submitOver, unListOf, type TestEntry } from '../screening/screeningHelpers.ts';
import { launchBrowser, newOperatorContext, type TestBrowser } from './browser.ts';
import { signInOverApi } from './steps.ts';

/**
 * The console's Screening page shows what the newest import of each list changed and what its
 * re-screen found, in English and Chinese (issue 53): one entry added, one removed, one changed, the
 * application newly hit and the one no longer hit, each a link to its page.
 */
const A: TestEntry = {
  dataId: 5321,
  first: 'ZHUO',
  second: 'HANQIAO',
  reference: 'TSi.A',
  original: '卓汉桥',
};
const C: TestEntry = {
  dataId: 5323,
  first: 'LUO',
  second: 'WEIDONG',
  reference: 'TSi.C',
  original: '罗卫东',
};
const D: TestEntry = {
  dataId: 5324,
  first: 'HE',
  second: 'JIANFENG',
  reference: 'TSi.D',
  original: '贺建峰',
};

describe('the import changes on the console screening page', { skip: skipWithout('chromium') }, () => {
  let service: TestService;
  let browser: TestBrowser;
  const contexts: BrowserContext[] = [];
  const serials: Record<'onA' | 'onD', string> = { onA: '', onD: '' };
  let versionId = '';

  const load = async (list: TestEntry[]) =>
    importList(service.ctx, {
      list: 'un',
      source: Readable.from([unListOf(list)]),
      actor: 'operator:test',
      origin: 'test',
    });

  before(async () => {
    service = await startService('sqlite');
    browser = await launchBrowser();
    await createOperator(
      service.ctx,
      { username: 'vera', role: 'viewer', password: TEST_PASSWORD },
      { actor: SYSTEM, source: 'test' },
    );
    const partner = await newPartner(service, 'screening page partner');
    await load([A, C]);
    serials.onA = await submitOver(service, partner, 532_001, { name: '卓汉桥', name_en: 'ZHUO HANQIAO' });
    serials.onD = await submitOver(service, partner, 532_002, { name: '贺建峰', name_en: 'HE JIANFENG' });
    await screenPending(service, 'the first import and the submissions');
    versionId = (await load([{ ...C, aliases: ['LO WAI TUNG'] }, D])).version_id;
    await screenPending(service, 'the second re-screen');
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await service?.close();
  });

  const pageOf = async (language: 'en' | 'zh') => {
    const opened = await newOperatorContext(browser.browser, { language });
    contexts.push(opened.context);
    await signInOverApi(opened.page, service.baseUrl, 'vera');
    await opened.page.goto(`${service.baseUrl}/console/screening`);
    const section = opened.page.locator(`section.import-changes[data-version="${versionId}"]`);
    await section.waitFor();
    const kind = async (name: string) =>
      ((await section.locator(`dd[data-kind="${name}"]`).textContent()) ?? '').trim();
    return {
      page: opened.page,
      summary: ((await section.locator('.import-summary').textContent()) ?? '').trim(),
      added: await kind('added'),
      removed: await kind('removed'),
      changed: await kind('changed'),
      newlyHit: await kind('newly-hit'),
      noLongerHit: await kind('no-longer-hit'),
      rows: await opened.page.locator('.imports-table tbody tr[data-version]').count(),
      errors: opened.errors,
    };
  };

  test('in English: the counts, the references and the applications, linked', async () => {
    const en = await pageOf('en');
    assert.equal(
      en.summary,
      '1 added, 1 removed, 1 changed · Re-screen: 1 applications newly hit, 1 no longer hit',
    );
    assert.deepEqual([en.added, en.removed, en.changed], ['TSi.D', 'TSi.A', 'TSi.C']);
    assert.equal(en.newlyHit, serials.onD);
    assert.equal(en.noLongerHit, serials.onA);
    assert.equal(en.rows, 2, 'both imports in the table');
    await en.page.locator('dd[data-kind="no-longer-hit"] a').click();
    await en.page.waitForURL(`**/console/applications/${serials.onA}`);
    assert.deepEqual(en.errors, []);
  });

  test('in Chinese', async () => {
    const zh = await pageOf('zh');
    assert.equal(zh.summary, '新增 1，删除 1，变更 1 · 重新筛查：新命中 1 个申请，不再命中 1 个');
    assert.deepEqual([zh.added, zh.removed, zh.changed], ['TSi.D', 'TSi.A', 'TSi.C']);
    assert.equal(await zh.page.locator('h1').textContent(), '制裁与政治公众人物名单');
    assert.deepEqual(zh.errors, []);
  });
});

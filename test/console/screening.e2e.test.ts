import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { pino } from 'pino';
import { SYSTEM } from '../../src/audit/actor.ts';
import { submitApplication } from '../../src/applications/commands/submitApplication.ts';
import { createApp } from '../../src/partners/credentials.ts';
import { createOperator } from '../../src/operators/operators.ts';
import { importList } from '../../src/screening/importList.ts';
import { screeningIndexFor } from '../../src/screening/indexCache.ts';
import { screenApplications } from '../../src/screening/screenApplications.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { skipWithout } from '../helpers/components.ts';
import { partnerOf, TEST_PASSWORD } from '../helpers/operators.ts';
import { startService, type TestService } from '../helpers/service.ts';
import { launchBrowser, newOperatorContext, type TestBrowser } from './browser.ts';
import { assertLabelled, signInOverApi, waitUntil } from './steps.ts';

/**
 * A sanctions hit in the console, in Chromium: a reviewer sees it beside the applicant (the
 * entry's aliases, the matched fields), clears it with a note and cannot confirm it herself; an
 * admin confirms, and the hit is cleared. The panel in Chinese too.
 */
const LIST = `<?xml version="1.0" encoding="UTF-8"?>
<!-- A test-made entry; nobody here is a listed person. -->
<CONSOLIDATED_LIST><INDIVIDUALS><INDIVIDUAL><DATAID>1</DATAID><FIRST_NAME>ZHUO</FIRST_NAME>
<SECOND_NAME>HANQIAO</SECOND_NAME><REFERENCE_NUMBER>TSi.WEB</REFERENCE_NUMBER>
<NAME_ORIGINAL_SCRIPT>卓汉桥</NAME_ORIGINAL_SCRIPT><NATIONALITY><VALUE>China</VALUE></NATIONALITY>
<INDIVIDUAL_ALIAS><QUALITY>Good</QUALITY><ALIAS_NAME>Cheuk Hon Kiu</ALIAS_NAME></INDIVIDUAL_ALIAS>
</INDIVIDUAL></INDIVIDUALS></CONSOLIDATED_LIST>`;

/** A test-made PEP (OpenSanctions' FollowTheMoney entities): a Person, its Position and Occupancy. */
const PEP_LIST = [
  {
    id: 'NK-webpep',
    schema: 'Person',
    properties: { name: ['LOU WENSHAN'], topics: ['role.pep'], nationality: ['cn'] },
  },
  {
    id: 'NK-webpos',
    schema: 'Position',
    properties: { name: ['Deputy Test Mayor of Testville'], country: ['cn'] },
  },
  {
    id: 'NK-webocc',
    schema: 'Occupancy',
    properties: {
      holder: ['NK-webpep'],
      post: ['NK-webpos'],
      startDate: ['2018-03-01'],
      endDate: ['2023-02-28'],
    },
  },
]
  .map((entity) => JSON.stringify(entity))
  .join('\n');

describe('a screening hit in the console', { skip: skipWithout('chromium') }, () => {
  let service: TestService;
  let browser: TestBrowser;
  let serial: string;
  let pepSerial: string;
  const contexts: BrowserContext[] = [];
  const errors: string[][] = [];

  const openAs = async (
    username: string,
    language: 'en' | 'zh' = 'en',
    section = 'screening',
  ): Promise<Page> => {
    const opened = await newOperatorContext(browser.browser, { language });
    contexts.push(opened.context);
    errors.push(opened.errors);
    await signInOverApi(opened.page, service.baseUrl, username);
    const shown = section === 'screening' ? serial : pepSerial;
    await opened.page.goto(`${service.baseUrl}/console/applications/${shown}`);
    await opened.page.waitForSelector(`section.${section}`);
    return opened.page;
  };
  const hitState = async () => ({
    ...(await service.ctx.store.db
      .selectFrom('screening_hits')
      .select(['state', 'resolved_by', 'confirmed_by'])
      .executeTakeFirstOrThrow()),
  });

  before(async () => {
    service = await startService('sqlite');
    browser = await launchBrowser();
    const { ctx } = service;
    for (const [username, role] of [
      ['rita', 'reviewer'],
      ['adam', 'admin'],
    ] as const)
      await createOperator(
        ctx,
        { username, role, password: TEST_PASSWORD },
        { actor: SYSTEM, source: 'test' },
      );
    const appId = (await createApp(ctx.store.db, 'Harbour Pay', Date.now())).app_id;
    await importList(ctx, {
      list: 'un',
      source: (async function* () {
        yield LIST;
      })(),
      actor: 'system',
      origin: 'test',
    });
    await importList(ctx, {
      list: 'opensanctions',
      source: (async function* () {
        yield PEP_LIST;
      })(),
      actor: 'system',
      origin: 'test',
    });
    const applicant = uniqueApplicant(42, appId, { name: '卓汉桥', name_en: 'ZHUO HANQIAO' });
    serial = (await submitApplication(ctx, partnerOf(appId), applicant)).busi_water_no;
    const pep = uniqueApplicant(43, appId, { name: '娄文山', name_en: 'LOU WENSHAN' });
    pepSerial = (await submitApplication(ctx, partnerOf(appId), pep)).busi_water_no;
    const rows = await ctx.store.db
      .selectFrom('applications')
      .select(['busi_water_no', 'status', 'payload_enc'])
      .where('busi_water_no', 'in', [serial, pepSerial])
      .execute();
    await screenApplications(ctx, await screeningIndexFor(ctx.store), rows, pino({ level: 'silent' }));
  });

  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await service?.close();
    assert.deepEqual(errors.flat(), [], 'no script errors or CSP violations');
  });

  test('a reviewer clears the hit with a note, cannot confirm it herself; an admin confirms', async () => {
    const rita = await openAs('rita');
    const panel = rita.locator('section.screening');
    assert.match(await panel.innerText(), /卓汉桥/);
    assert.match(await panel.innerText(), /Cheuk Hon Kiu/, "the entry's aliases are shown");
    assert.match(await panel.innerText(), /Unresolved: approval, issue and shipping are held/);
    // Words, not codes: the list by its publisher's name, the score as a share, the fields apart.
    const hit = await panel.locator('.screening-hit p').first().innerText();
    assert.match(hit, /UN Security Council list, entry \S+ · match \d+%/);
    assert.doesNotMatch(hit, /\bun \S+ · score/);
    const fields = await panel.locator('.screening-hit mark').allInnerTexts();
    assert.ok(fields.length > 1, 'the hit matched more than the name');
    assert.match(
      await panel.innerText(),
      new RegExp(`Matched fields: ${fields.join(', ')}`),
      'fields set apart',
    );
    assert.ok((await panel.locator('mark').count()) >= 1, 'the matched fields are highlighted');
    assert.match(await rita.locator('.risk-flags').innerText(), /Sanctions list match/);
    await assertLabelled(rita, 'screening panel');
    await panel
      .getByLabel('Why this is not the listed person')
      .fill('Different place of birth; photo does not match');
    await panel.getByRole('button', { name: 'Clear as false positive' }).click();
    await waitUntil(rita, `document.querySelector('.screening-hit.state-clearing') !== null`);
    assert.match(await rita.locator('section.screening').innerText(), /a second operator must confirm/);
    assert.equal(await rita.getByRole('button', { name: 'Confirm clearing' }).count(), 0);
    assert.deepEqual(await hitState(), { state: 'clearing', resolved_by: 'rita', confirmed_by: null });

    const adam = await openAs('adam', 'zh');
    assert.match(await adam.locator('section.screening h2').innerText(), /制裁名单筛查/);
    assert.match(
      await adam.locator('section.screening').innerText(),
      /联合国安理会制裁名单，条目 \S+ · 相似度 \d+%/,
    );
    await adam.getByRole('button', { name: '确认排除' }).click();
    await waitUntil(adam, `document.querySelector('.screening-hit.state-cleared') !== null`);
    assert.deepEqual(await hitState(), { state: 'cleared', resolved_by: 'rita', confirmed_by: 'adam' });
  });

  test('a PEP match is shown with its position, country and dates, in English and Chinese; nothing is held', async () => {
    const rita = await openAs('rita', 'en', 'pep-matches');
    const panel = rita.locator('section.pep-matches');
    const text = await panel.innerText();
    assert.match(text, /LOU WENSHAN/);
    assert.match(text, /politically exposed person/);
    assert.match(text, /Deputy Test Mayor of Testville, CN \(2018-03-01 – 2023-02-28\)/);
    assert.match(text, /nothing is held/);
    assert.equal(await rita.locator('section.screening').count(), 0, 'no sanctions hit to resolve');
    await assertLabelled(rita, 'PEP panel');
    const adam = await openAs('adam', 'zh', 'pep-matches');
    assert.match(await adam.locator('section.pep-matches h2').innerText(), /政治公众人物匹配/);
    assert.match(await adam.locator('section.pep-matches').innerText(), /职位/);
  });
});

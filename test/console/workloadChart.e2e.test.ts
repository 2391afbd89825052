import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectedWorkload, makeKnownWorkload } from '../helpers/knownWorkload.ts';
import { newOperator } from '../helpers/operators.ts';
import { startService, type TestService } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';
import { launchBrowser, newOperatorContext, type TestBrowser } from './browser.ts';

/**
 * The backlog chart against what happened (not against the API it draws from): a known history
 * under a controlled clock draws exactly its arrivals and decisions, on every store.
 */
describe('the workload chart in Chromium', () => {
  let browser: TestBrowser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(() => browser?.close());

  for (const storeName of storeNames()) {
    test(`on ${storeName}: five arrivals in one hour, three decisions in the next`, async () => {
      const service: TestService = await startService(storeName, {
        REVIEW_SLA_SECONDS: 'SUBMITTED:14400,IN_REVIEW:3600',
      });
      try {
        const known = await makeKnownWorkload(service);
        const viewer = await newOperator(service, 'viewer');
        const { context, page, errors } = await newOperatorContext(browser.browser);
        try {
          await page.goto(`${service.baseUrl}/console/dashboard`);
          await page.getByLabel('User name', { exact: true }).fill(viewer.username);
          await page.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
          await page.getByRole('button', { name: 'Sign in', exact: true }).click();
          await page.waitForSelector('svg.backlog-chart rect.bar', { state: 'attached' });
          const bars = (await page.evaluate(
            `[...document.querySelectorAll('svg.backlog-chart rect.bar')].map((r) => ({ kind: r.dataset.kind, hour: Number(r.dataset.hour), value: Number(r.dataset.value) }))`,
          )) as { kind: 'arrivals' | 'decisions'; hour: number; value: number }[];
          assert.equal(bars.length, 2 * 168);
          const drawn = bars
            .filter((b) => b.value > 0)
            .sort((a, b) => a.hour - b.hour || (a.kind < b.kind ? -1 : 1));
          const expected = expectedWorkload(known).backlog.flatMap((b) =>
            (['arrivals', 'decisions'] as const)
              .filter((kind) => b[kind] > 0)
              .map((kind) => ({ kind, hour: b.hour, value: b[kind] })),
          );
          assert.deepEqual(drawn, expected);
          assert.deepEqual(errors, []);
        } finally {
          await context.close();
        }
      } finally {
        await service.close();
      }
    });
  }
});

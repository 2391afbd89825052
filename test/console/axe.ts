import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/**
 * axe-core (Deque's accessibility engine) run inside the page. It goes in through the DevTools
 * protocol (`page.evaluate`), which the console's CSP does not govern, so the page under test keeps
 * its real policy. The rule set is WCAG 2.2 level A and AA; "label in name" (2.5.3) is still marked
 * experimental in axe, so it is switched on by name.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** The violations axe finds on the page as it is now, one line each (rule, help, elements). */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!((await page.evaluate('typeof window.axe === "object"')) as boolean)) await page.evaluate(AXE_SOURCE);
  const options = {
    runOnly: { type: 'tag', values: WCAG_22_AA },
    rules: { 'label-content-name-mismatch': { enabled: true } },
    resultTypes: ['violations'],
  };
  return (await page.evaluate(`axe.run(document, ${JSON.stringify(options)}).then((result) =>
    result.violations.map((v) => v.id + ' (' + v.help + '): ' +
      v.nodes.map((n) => n.target.join(' ') + (n.failureSummary ? ' [' + n.failureSummary.replace(/\\s+/g, ' ').slice(0, 160) + ']' : '')).join(' | ')))`)) as string[];
}

/** No WCAG 2.2 AA violation on the page. */
export async function assertAccessible(page: Page, where: string): Promise<void> {
  assert.deepEqual(await axeViolations(page), [], `${where}: WCAG 2.2 AA violations`);
}

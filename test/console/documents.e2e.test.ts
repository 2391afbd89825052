import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext } from 'playwright-core';
import { createOperator } from '../../src/operators/operators.ts';
import { SYSTEM } from '../../src/audit/actor.ts';
import { PATHS } from '../../src/http/paths.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { skipWithout } from '../helpers/components.ts';
import { pdfDocument, pngImage } from '../helpers/documentImages.ts';
import { startDocumentServer, type DocumentServer } from '../helpers/documentServer.ts';
import { settledDocuments, startDocumentService, type DocumentService } from '../helpers/documentService.ts';
import { move, TEST_PASSWORD } from '../helpers/operators.ts';
import { newCaller, nowSeconds, post, type TestCaller } from '../helpers/service.ts';
import { launchBrowser, newOperatorContext, type TestBrowser } from './browser.ts';
import { signIn, waitUntil } from './steps.ts';

/**
 * The console shows the kept documents from the service, in Chromium: the partner's server is
 * stopped before the reviewer looks, and still every image draws (its `src` the admin API's kept
 * copy, within `img-src 'self' data:`), the PDF is a download link, and a document not kept shows
 * its state, with no request ever leaving for the partner's host.
 */

describe('kept documents in the console (Chromium)', { skip: skipWithout('chromium') }, () => {
  let service: DocumentService;
  let images: DocumentServer;
  let browser: TestBrowser;
  let caller: TestCaller;
  const contexts: BrowserContext[] = [];

  const submit = async (n: number, urls: Record<string, string>) => {
    const reply = await post(
      service.baseUrl,
      PATHS.apply,
      { ...uniqueApplicant(n, caller.appId), ...urls, timestamp: nowSeconds() },
      { token: caller.token },
    );
    assert.equal(reply.status, 200, reply.text);
    const serial = (reply.body.data as { busi_water_no: string }).busi_water_no;
    await settledDocuments(service, caller, serial);
    return serial;
  };

  before(async () => {
    images = await startDocumentServer();
    service = await startDocumentService('sqlite');
    browser = await launchBrowser();
    caller = await newCaller(service);
    await createOperator(
      service.ctx,
      { username: 'rita', role: 'reviewer', password: TEST_PASSWORD },
      { actor: SYSTEM, source: 'test' },
    );
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await browser.close();
    await service.close();
  });

  test('every kept image draws from the service after the partner server is gone', async () => {
    const image = (path: string, width: number) =>
      images.route(path, { kind: 'bytes', body: pngImage(width, 320) });
    const kept = await submit(8_000, {
      id_card_img: image('/front.png', 480),
      id_card_back_img: image('/back.png', 481),
      passport_img: image('/passport.png', 482),
      sign_applicant: image('/sign.png', 483),
      pay_voucher: images.route('/voucher.pdf', { kind: 'bytes', body: pdfDocument() }),
    });
    const failed = await submit(8_001, {
      id_card_img: images.route('/page.html', { kind: 'bytes', body: Buffer.from('<html>hello</html>') }),
      id_card_back_img: image('/back2.png', 484),
      passport_img: image('/passport2.png', 485),
      sign_applicant: image('/sign2.png', 486),
      pay_voucher: image('/voucher2.png', 487),
    });
    await images.close();
    const partnerRequests = images.requests.length;
    await move(service, kept, 'IN_REVIEW', caller.appId);

    const { context, page, errors } = await newOperatorContext(browser.browser);
    contexts.push(context);
    const foreign: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(service.baseUrl)) foreign.push(request.url());
    });
    await signIn(page, service.baseUrl, 'rita');
    const response = await page.goto(`${service.baseUrl}/console/applications/${kept}`);
    assert.match(response?.headers()['content-security-policy'] ?? '', /img-src 'self' data:;/);
    await page.waitForSelector('[data-image="id_card_img"][data-document="kept"]');
    assert.equal(await page.locator('.image-card img').count(), 0, 'nothing drawn before the opening');

    await page.getByRole('button', { name: 'Claim for review' }).click();
    await page.getByRole('button', { name: 'Open for review' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Purpose').selectOption('identity_check');
    await dialog.getByRole('button', { name: 'Reveal', exact: true }).click();
    for (const field of ['id_card_img', 'id_card_back_img', 'passport_img', 'sign_applicant']) {
      const img = page.locator(`[data-image="${field}"] img`);
      await img.waitFor();
      assert.equal(await img.getAttribute('src'), `/admin/v1/applications/${kept}/documents/${field}`);
      await waitUntil(page, `document.querySelector('[data-image="${field}"] img').naturalWidth > 0`);
    }
    const pdf = page.locator('[data-image="pay_voucher"] a.document-download');
    assert.equal(await pdf.getAttribute('href'), `/admin/v1/applications/${kept}/documents/pay_voucher`);

    await page.goto(`${service.baseUrl}/console/applications/${failed}`);
    const state = page.locator('[data-image="id_card_img"][data-document="failed"] .document-state');
    await state.waitFor();
    assert.equal(await state.getAttribute('data-reason'), 'not_a_document');
    assert.match((await state.textContent()) ?? '', /not an image or PDF/);

    assert.deepEqual(foreign, [], 'the browser asked nothing of any other host');
    assert.equal(images.requests.length, partnerRequests, 'the partner server was never asked again');
    assert.deepEqual(errors, []);
  });
});

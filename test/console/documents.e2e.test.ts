import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { BrowserContext } from 'playwright-core';
import { createOperator } from '../../src/operators/operators.ts';
import { SYSTEM } from '../../src/audit/actor.ts';
import { PATHS } from '../../src/http/paths.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { skipWithout } from '../helpers/components.ts';
import { pngImage, sha256 } from '../helpers/documentImages.ts';
import { pdfDocument } from '../helpers/encodedDocuments.ts';
import { startDocumentServer, type DocumentServer, type Route } from '../helpers/documentServer.ts';
import {
  queryStatus,
  settledDocuments,
  startDocumentService,
  type DocumentService,
} from '../helpers/documentService.ts';
import { move, TEST_PASSWORD } from '../helpers/operators.ts';
import { newPartner, nowSeconds, post, type TestPartner } from '../helpers/service.ts';
import { launchBrowser, newOperatorContext, type TestBrowser } from './browser.ts';
import { signInOverApi, waitUntil } from './steps.ts';

/**
 * The console shows the kept documents from the service, in Chromium: the partner's server is
 * stopped before the reviewer looks, and still every image draws (its `src` the preview the service
 * drew, within `img-src 'self' data:`) beside the original's download (an attachment) and its
 * SHA-256, the PDF is a download link only, and a document not kept shows
 * its state, with no request ever leaving for the partner's host. While an amend's newer document
 * is being fetched or has failed, the copy kept of the one before is shown, marked as such, in
 * both languages.
 */

describe('kept documents in the console (Chromium)', { skip: skipWithout('chromium') }, () => {
  let service: DocumentService;
  let images: DocumentServer;
  let browser: TestBrowser;
  let partner: TestPartner;
  const contexts: BrowserContext[] = [];

  const submit = async (n: number, urls: Record<string, string>) => {
    const reply = await post(
      service.baseUrl,
      PATHS.apply,
      { ...uniqueApplicant(n, partner.appId), ...urls, timestamp: nowSeconds() },
      { token: partner.token },
    );
    assert.equal(reply.status, 200, reply.text);
    const serial = (reply.body.data as { busi_water_no: string }).busi_water_no;
    // Each kept image has its preview drawn first, one at a time: a loaded machine takes its time.
    await settledDocuments(service, partner, serial, 60_000);
    return serial;
  };

  before(async () => {
    images = await startDocumentServer();
    // A fetch the test holds in flight stays pending (the default here, 10 s, could end it first).
    service = await startDocumentService('sqlite', { DOCUMENT_TIMEOUT_MS: '60000' });
    browser = await launchBrowser();
    partner = await newPartner(service);
    await createOperator(
      service.ctx,
      { username: 'rita', role: 'reviewer', password: TEST_PASSWORD },
      { actor: SYSTEM, source: 'test' },
    );
  });
  // A test's pages are closed when it ends: an open queue or application page keeps polling.
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });
  after(async () => {
    await browser.close();
    await service.close();
  });

  test('every kept image draws from the service after the partner server is gone', async () => {
    const bodies = new Map<number, Buffer>();
    const image = (path: string, width: number) => {
      bodies.set(width, pngImage(width, 320));
      return images.route(path, { kind: 'bytes', body: bodies.get(width)! });
    };
    const kept = await submit(8_000, {
      id_card_img: image('/front.png', 480),
      id_card_back_img: image('/back.png', 481),
      passport_img: image('/passport.png', 482),
      sign_applicant: image('/sign.png', 483),
      pay_voucher: images.route('/voucher.pdf', { kind: 'bytes', body: await pdfDocument() }),
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
    await move(service, kept, 'IN_REVIEW', partner.appId);

    const { context, page, errors } = await newOperatorContext(browser.browser);
    contexts.push(context);
    const foreign: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(service.baseUrl)) foreign.push(request.url());
    });
    await signInOverApi(page, service.baseUrl, 'rita');
    const response = await page.goto(`${service.baseUrl}/console/applications/${kept}`);
    assert.match(response?.headers()['content-security-policy'] ?? '', /img-src 'self' data:;/);
    await page.waitForSelector('[data-image="id_card_img"][data-document="kept"]');
    assert.equal(await page.locator('.image-card img').count(), 0, 'nothing drawn before the opening');

    await page.getByRole('button', { name: 'Claim for review' }).click();
    await page.getByRole('button', { name: 'Open for review' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Purpose').selectOption('identity_check');
    await dialog.getByRole('button', { name: 'Reveal', exact: true }).click();
    for (const [i, field] of [
      'id_card_img',
      'id_card_back_img',
      'passport_img',
      'sign_applicant',
    ].entries()) {
      // The preview the service drew, never the partner's bytes; the original is a download beside it.
      const img = page.locator(`[data-image="${field}"] img`);
      await img.waitFor();
      const original = `/admin/v1/applications/${kept}/documents/${field}`;
      assert.equal(await img.getAttribute('src'), `${original}/preview`);
      await waitUntil(
        page,
        `document.querySelector('[data-image="${field}"] img').naturalWidth === ${480 + i}`,
      );
      const download = page.locator(`[data-image="${field}"] a.document-download`);
      assert.equal(await download.getAttribute('href'), original);
      assert.equal(await download.textContent(), 'Download original');
      assert.equal(
        await page.locator(`[data-image="${field}"] .document-sha256 code`).textContent(),
        sha256(bodies.get(480 + i)!),
        'the SHA-256 in full',
      );
      // The link's answer is an attachment: the browser saves it, never draws it.
      const answer = await page.evaluate(async (url) => {
        const r = await fetch(url);
        await r.arrayBuffer();
        return [r.headers.get('content-disposition'), r.headers.get('content-security-policy')];
      }, original);
      assert.deepEqual(answer, [
        `attachment; filename="${kept}-${field}.png"`,
        "default-src 'none'; sandbox",
      ]);
    }
    // A PDF: no preview, only its download.
    assert.equal(await page.locator('[data-image="pay_voucher"] img').count(), 0);
    assert.match(
      (await page.locator('[data-image="pay_voucher"] .image-frame').textContent()) ?? '',
      /No preview/,
    );
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

  test('an amended document being fetched, then failed: the previous copy is shown, marked so, in both languages', async (t) => {
    const partnerServer = await startDocumentServer();
    // Closed even when a step fails: a fetch held open would keep the test process alive.
    t.after(() => partnerServer.close());
    const image = (path: string, width: number) =>
      partnerServer.route(path, { kind: 'bytes', body: pngImage(width, 320) });
    const serial = await submit(8_002, {
      id_card_img: image('/front.png', 490),
      id_card_back_img: image('/back.png', 491),
      passport_img: image('/passport.png', 492),
      sign_applicant: image('/sign.png', 493),
      pay_voucher: image('/voucher.png', 494),
    });
    await move(service, serial, 'IN_REVIEW', partner.appId);
    await move(service, serial, 'SUPPLEMENT_REQUIRED', partner.appId); // asks for id_card_img

    // The partner sends the front again; its server holds the fetch of the new image in flight.
    let answer!: (route: Route) => void;
    const retaken = partnerServer.route('/front-retaken.png', {
      kind: 'held',
      until: new Promise<Route>((resolve) => (answer = resolve)),
    });
    const amend = await post(
      service.baseUrl,
      PATHS.amend,
      { app_id: partner.appId, timestamp: nowSeconds(), busi_water_no: serial, id_card_img: retaken },
      { token: partner.token },
    );
    assert.equal(amend.status, 200, amend.text);
    const deadline = Date.now() + 20_000;
    while (!partnerServer.requests.some((r) => r.path === '/front-retaken.png')) {
      assert.ok(Date.now() < deadline, 'the new image was never asked for');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal((await queryStatus(service, partner, serial)).documents['id_card_img']?.state, 'pending');

    const card = '[data-image="id_card_img"][data-copy="previous"]';
    const en = await newOperatorContext(browser.browser, { language: 'en' });
    const zh = await newOperatorContext(browser.browser, { language: 'zh' });
    contexts.push(en.context, zh.context);
    await signInOverApi(en.page, service.baseUrl, 'rita');
    await signInOverApi(zh.page, service.baseUrl, 'rita');
    const application = `${service.baseUrl}/console/applications/${serial}`;
    const noteOf = async (page: typeof en.page, state: string) => {
      await page.goto(application);
      const figure = page.locator(`${card}[data-document="${state}"]`);
      await figure.waitFor();
      return {
        note: (await figure.locator('.document-previous').textContent()) ?? '',
        state: (await figure.locator(`.document-state[data-state="${state}"]`).textContent()) ?? '',
      };
    };

    // Pending: the note, the state, and the kept copy's facts (the earlier image's pixels).
    assert.deepEqual(await noteOf(en.page, 'pending'), {
      note: 'Previous copy: the amended document is not kept',
      state: 'Being fetched…',
    });
    assert.match((await en.page.locator(`${card} .document-facts`).textContent()) ?? '', /490×320/);
    assert.equal(
      await en.page.locator('[data-image="id_card_back_img"]').getAttribute('data-copy'),
      null,
      'a field not amended is its own copy',
    );
    assert.deepEqual(await noteOf(zh.page, 'pending'), {
      note: '此前的副本：补正后的文件尚未留存',
      state: '正在获取…',
    });

    // Opened for review, the image drawn is the previous copy, served as such by the admin API.
    await en.page.getByRole('button', { name: 'Claim for review' }).click();
    await en.page.getByRole('button', { name: 'Open for review' }).click();
    const dialog = en.page.getByRole('dialog');
    await dialog.getByLabel('Purpose').selectOption('identity_check');
    const served = en.page.waitForResponse((r) =>
      r.url().endsWith(`/${serial}/documents/id_card_img/preview`),
    );
    await dialog.getByRole('button', { name: 'Reveal', exact: true }).click();
    assert.equal((await served).headers()['x-document-copy'], 'previous');
    await en.page.locator(`${card} img`).waitFor();
    await waitUntil(en.page, `document.querySelector('${card} img').naturalWidth === 490`);

    // The new image is not a document: it fails for good, and the previous copy stays shown.
    answer({ kind: 'bytes', body: Buffer.from('<html>retaken</html>'), contentType: 'text/html' });
    const outcomes = await settledDocuments(service, partner, serial, 60_000);
    assert.deepEqual(outcomes['id_card_img'], { state: 'failed', reason: 'not_a_document' });
    assert.deepEqual(await noteOf(en.page, 'failed'), {
      note: 'Previous copy: the amended document is not kept',
      state: 'Not kept: not an image or PDF',
    });
    assert.deepEqual(await noteOf(zh.page, 'failed'), {
      note: '此前的副本：补正后的文件尚未留存',
      state: '未留存：不是图片或 PDF',
    });
    assert.match((await zh.page.locator(`${card} .document-facts`).textContent()) ?? '', /490×320/);

    assert.deepEqual(en.errors, []);
    assert.deepEqual(zh.errors, []);
  });
});

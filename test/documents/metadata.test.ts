import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fetchDocument, refusedAnswer, type FetchOptions } from '../../src/documents/fetcher.ts';
import { DocumentFailure } from '../../src/documents/outcome.ts';
import { PATHS } from '../../src/http/paths.ts';
import { addressesAllowed, checkEndpointUrl, checkUrlShape } from '../../src/network/endpointUrl.ts';
import { isMetadataAddress } from '../../src/network/publicHost.ts';
import { send } from '../../src/webhooks/send.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { pngImage } from '../helpers/documentImages.ts';
import { startDocumentServer, type DocumentServer } from '../helpers/documentServer.ts';
import { settledDocuments, startDocumentService, type DocumentService } from '../helpers/documentService.ts';
import { newPartner, nowSeconds, post, type TestPartner } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * Issue 54: link-local and cloud metadata addresses are refused whatever DOCUMENT_ALLOW_PRIVATE and
 * WEBHOOK_ALLOW_PRIVATE say (both are on throughout): at submit, at webhook registration and
 * delivery, at the fetcher's first hop, after every redirect and in every DNS answer.
 */

/** The metadata services, as URLs in every form the URL parser accepts for them. */
const METADATA_URLS = [
  'http://169.254.169.254/latest/meta-data/',
  'http://169.254.170.2/v2/credentials',
  'http://169.254.0.1/',
  'http://2852039166/latest/meta-data/',
  'http://0xa9.0xfe.0xa9.0xfe/',
  'http://0251.0376.0251.0376/',
  'http://169.254.169.254./',
  'http://100.100.100.200/latest/meta-data/',
  'http://[fd00:ec2::254]/latest/meta-data/',
  'http://[fe80::1]/',
  'http://[febf:ffff::1]/',
  'http://[::ffff:169.254.169.254]/',
  'http://[::ffff:a9fe:a9fe]/',
  'http://[::169.254.169.254]/',
  'http://[64:ff9b::a9fe:a9fe]/',
  'http://[2002:a9fe:a9fe::1]/',
  'http://[::ffff:100.100.100.200]/',
];

/** Neighbours that are private but not metadata: with the switches on, they pass. */
const NEIGHBOURS = [
  'http://127.0.0.1:8080/',
  'http://10.0.0.1/',
  'http://100.100.100.201/',
  'http://[fd00:ec2::253]/',
];

const allowAll: FetchOptions = {
  maxBytes: 1024 * 1024,
  connectTimeoutMs: 2_000,
  timeoutMs: 5_000,
  allowPrivate: true,
  // Even a rule that lets every address through does not open the metadata service.
  addressAllowed: () => true,
};

async function reason(url: string, options: FetchOptions = allowAll): Promise<string> {
  try {
    await fetchDocument(url, options, async (body) => {
      for await (const _ of body);
    });
  } catch (error) {
    if (error instanceof DocumentFailure) return error.reason;
    throw error;
  }
  return 'fetched';
}

describe('the metadata service is never reached', () => {
  let images: DocumentServer;
  before(async () => {
    images = await startDocumentServer();
  });
  after(() => images.close());

  test('every form of a metadata address is one; private neighbours are not', () => {
    for (const url of METADATA_URLS) {
      const host = new URL(url).hostname;
      assert.equal(isMetadataAddress(host.startsWith('[') ? host.slice(1, -1) : host), true, url);
      assert.deepEqual(
        checkUrlShape('url', url, true).map((p) => p.error),
        ['urlPrivateHost'],
        url,
      );
    }
    for (const url of NEIGHBOURS) assert.deepEqual(checkUrlShape('url', url, true), [], url);
    assert.equal(isMetadataAddress('fe80::1%eth0'), true);
    assert.equal(isMetadataAddress('8.8.8.8'), false);
  });

  test('a DNS answer holding a metadata address is refused, with private addresses allowed', () => {
    const answer = (...addresses: string[]) =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    for (const addresses of [
      answer('169.254.169.254'),
      answer('127.0.0.1', '169.254.169.254'),
      answer('fd00:ec2::254'),
      answer('::ffff:169.254.169.254'),
      answer('100.100.100.200'),
    ]) {
      assert.equal(addressesAllowed(addresses, true), false, JSON.stringify(addresses));
      assert.match(refusedAnswer(addresses, () => true) ?? '', /metadata/);
    }
    assert.equal(addressesAllowed(answer('127.0.0.1', '10.0.0.1'), true), true);
    assert.equal(
      refusedAnswer(answer('127.0.0.1'), () => true),
      null,
    );
  });

  test('the fetcher refuses them at the first hop and after a redirect, the switch on', async () => {
    for (const url of METADATA_URLS) assert.equal(await reason(url), 'refused_address', url);
    for (const [i, location] of METADATA_URLS.entries()) {
      const hop = images.route(`/to-metadata-${i}`, { kind: 'redirect', location });
      assert.equal(await reason(hop), 'refused_address', location);
      // Two hops in: a redirect to a redirect to it.
      const twice = images.route(`/twice-${i}`, { kind: 'redirect', location: hop, status: 307 });
      assert.equal(await reason(twice), 'refused_address', location);
    }
    // The same server's image, not redirected, is fetched: the refusal is the address's.
    assert.equal(
      await reason(images.route('/fine.png', { kind: 'bytes', body: pngImage(400, 400) })),
      'fetched',
    );
  });

  test('webhooks: registration and delivery refuse them with WEBHOOK_ALLOW_PRIVATE', async () => {
    for (const url of METADATA_URLS) {
      assert.deepEqual(
        (await checkEndpointUrl('url', url, true)).map((p) => p.error),
        ['urlPrivateHost'],
        url,
      );
      const sent = await send(url, {}, '{}', { signal: AbortSignal.timeout(2_000), allowPrivate: true });
      assert.deepEqual(sent, { statusCode: null, error: 'refused: urlPrivateHost' }, url);
    }
  });
});

for (const storeName of storeNames()) {
  describe(`metadata addresses over HTTP, both switches on (${storeName})`, () => {
    let service: DocumentService;
    let images: DocumentServer;
    let partner: TestPartner;
    let n = 0;

    before(async () => {
      images = await startDocumentServer();
      service = await startDocumentService(storeName, { WEBHOOK_ALLOW_PRIVATE: 'true' });
      partner = await newPartner(service);
    });
    after(async () => {
      await service.close();
      await images.close();
    });

    test('a submit naming a metadata URL is refused (url_private_host) on the field', async () => {
      for (const url of METADATA_URLS.slice(0, 10)) {
        const body = { ...uniqueApplicant(n++, partner.appId), passport_img: url, timestamp: nowSeconds() };
        const reply = await post(service.baseUrl, PATHS.apply, body, { token: partner.token });
        assert.equal(reply.status, 422, `${url}: ${reply.text}`);
        assert.equal(reply.body.code, 42233, `${url}: ${reply.text}`);
        assert.match(String(reply.body.msg), /passport_img/);
      }
    });

    test('a webhook endpoint at a metadata URL is refused at registration', async () => {
      for (const url of METADATA_URLS.slice(0, 10)) {
        const reply = await post(
          service.baseUrl,
          PATHS.webhookRegister,
          { app_id: partner.appId, timestamp: nowSeconds(), url },
          { token: partner.token },
        );
        assert.equal(reply.status, 422, `${url}: ${reply.text}`);
        assert.equal(reply.body.code, 42233, `${url}: ${reply.text}`);
      }
    });

    test('a document redirected to the metadata service fails refused_address; the others are kept', async () => {
      const image = (name: string) =>
        images.route(`/${storeName}/${name}.png`, { kind: 'bytes', body: pngImage(400, 400) });
      const body = {
        ...uniqueApplicant(n++, partner.appId),
        id_card_img: image('id'),
        passport_img: images.route(`/${storeName}/to-metadata`, {
          kind: 'redirect',
          location: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
        }),
        sign_applicant: images.route(`/${storeName}/to-alibaba`, {
          kind: 'redirect',
          location: 'http://100.100.100.200/latest/meta-data/',
        }),
        pay_voucher: image('voucher'),
        timestamp: nowSeconds(),
      };
      const reply = await post(service.baseUrl, PATHS.apply, body, { token: partner.token });
      assert.equal(reply.status, 200, reply.text);
      const serial = (reply.body.data as { busi_water_no: string }).busi_water_no;
      const documents = await settledDocuments(service, partner, serial);
      assert.equal(documents.id_card_img?.state, 'kept');
      assert.equal(documents.pay_voucher?.state, 'kept');
      assert.equal(documents.passport_img?.reason, 'refused_address');
      assert.equal(documents.sign_applicant?.reason, 'refused_address');
    });
  });
}

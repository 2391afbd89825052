import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PATHS } from '../../src/http/paths.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import {
  newPartner,
  nowSeconds,
  post,
  startService,
  type TestPartner,
  type TestService,
} from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * The status view lists every image an application carries while they are pending (issue 55:
 * `id_card_back_img` was missing). Here no relay runs, so the service never starts on the images:
 * the window between the submit and the relay, held open.
 */

const IMAGES = ['id_card_img', 'passport_img', 'sign_applicant', 'pay_voucher'];

for (const storeName of storeNames()) {
  describe(`pending images in the status view on ${storeName}`, () => {
    let service: TestService;
    let partner: TestPartner;
    before(async () => {
      service = await startService(storeName);
      partner = await newPartner(service);
    });
    after(() => service.close());

    const submit = async (n: number, extra: Record<string, unknown>) => {
      const body = { ...uniqueApplicant(n, partner.appId), ...extra };
      if (extra['id_card_back_img'] === undefined)
        delete (body as Record<string, unknown>)['id_card_back_img'];
      const reply = await post(service.baseUrl, PATHS.apply, body, { token: partner.token });
      assert.equal(reply.status, 200, reply.text);
      return (reply.body.data as { busi_water_no: string }).busi_water_no;
    };
    const documentsOf = async (path: string, body: Record<string, unknown>) => {
      const reply = await post(
        service.baseUrl,
        path,
        { app_id: partner.appId, timestamp: nowSeconds(), ...body },
        { token: partner.token },
      );
      assert.equal(reply.status, 200, reply.text);
      return reply.body.data as Record<string, unknown>;
    };

    test('an application with the back image shows all five pending, in the query and the list', async () => {
      const serial = await submit(930_001, { id_card_back_img: 'https://img.example.com/back.jpg' });
      const queried = (await documentsOf(PATHS.query, { busi_water_no: serial }))['documents'];
      const expected = Object.fromEntries(
        [...IMAGES, 'id_card_back_img'].map((field) => [field, { state: 'pending' }]),
      );
      assert.deepEqual(queried, expected);
      const listed = (await documentsOf(PATHS.list, {}))['items'] as {
        busi_water_no: string;
        documents: unknown;
      }[];
      assert.deepEqual(listed.find((i) => i.busi_water_no === serial)?.documents, expected);
    });

    test('an application without it shows the four it carries', async () => {
      const serial = await submit(930_002, { id_card_back_img: undefined });
      const queried = (await documentsOf(PATHS.query, { busi_water_no: serial }))['documents'];
      assert.deepEqual(queried, Object.fromEntries(IMAGES.map((field) => [field, { state: 'pending' }])));
    });
  });
}

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PATHS } from '../../src/http/paths.ts';
import { ADMIN, call, newOperator, type TestOperator } from '../helpers/operators.ts';
import {
  newPartner,
  nowSeconds,
  post,
  startService,
  type TestPartner,
  type TestService,
} from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';
import { screeningRunner, screeningSettled, submitOver, unList, uploadList } from './screeningHelpers.ts';

/**
 * A sandbox simulation is the partner's own request: refusing it on a hit would tell the partner
 * what screening found, and it makes no card (the number is drawn at submission; a simulated
 * CARD_ISSUED or SHIPPED only records a state, marked simulated). So it is not held, and says
 * nothing; the hit stays open, and every operator's move stays held (docs/SCREENING.md).
 */
const LIST = unList({
  dataId: 3,
  first: 'QIU',
  second: 'JINGHAN',
  reference: 'TSi.SANDBOX',
  original: '邱景涵',
});

for (const storeName of storeNames()) {
  describe(`a sandbox simulation and a screening hit on ${storeName}`, () => {
    let service: TestService;
    let partner: TestPartner;
    let admin: TestOperator;
    let reviewer: TestOperator;

    before(async () => {
      service = await startService(storeName, { SANDBOX: 'true' });
      partner = await newPartner(service, 'sandbox partner');
      admin = await newOperator(service, 'admin');
      reviewer = await newOperator(service, 'reviewer');
    });
    after(() => service.close());

    const as = (operator: TestOperator, method: string, path: string, body?: unknown) =>
      call(service, method, `${ADMIN}${path}`, {
        token: operator.token,
        ...(body === undefined ? {} : { body }),
      });
    const simulate = (serial: string, status: string) =>
      post(
        service.baseUrl,
        PATHS.simulate,
        { app_id: partner.appId, timestamp: nowSeconds(), busi_water_no: serial, status },
        { token: partner.token },
      );
    const hitsOf = async (serial: string) =>
      (await as(reviewer, 'GET', `/applications/${serial}`)).body.data as {
        screening_hits: { state: string }[];
        history: { status: string; details: Record<string, unknown> | null }[];
      };

    test('is not held and says nothing; the hit stays open and still holds the operators', async () => {
      const runner = screeningRunner(service);
      try {
        await uploadList(service, admin.token, LIST);
        const simulated = await submitOver(service, partner, 910_001, {
          name: '邱景涵',
          name_en: 'QIU JINGHAN',
        });
        const operated = await submitOver(service, partner, 910_002, {
          name: '邱景涵',
          name_en: 'QIU JINGHAN',
        });
        await screeningSettled(service, 'submission screening');
        assert.equal((await hitsOf(simulated)).screening_hits[0]?.state, 'unresolved');

        // The operators' moves are held as everywhere: 40940 on approve.
        assert.equal((await as(reviewer, 'POST', `/applications/${operated}/review`, {})).status, 200);
        const held = await as(reviewer, 'POST', `/applications/${operated}/approve`, {});
        assert.equal(held.status, 409, held.text);
        assert.equal(held.body.code, 40940);

        // The partner's simulation: every move answered as without a hit, no word of screening.
        for (const status of ['IN_REVIEW', 'APPROVED', 'CARD_ISSUED']) {
          const reply = await simulate(simulated, status);
          assert.equal(reply.status, 200, reply.text);
          assert.equal((reply.body.data as { status: string }).status, status);
          assert.ok(!/sanction|screening|40940/i.test(reply.text), reply.text);
        }
        const view = await hitsOf(simulated);
        assert.equal(view.screening_hits[0]!.state, 'unresolved', 'a simulation resolves nothing');
        const last = view.history.at(-1)!;
        assert.equal(last.status, 'CARD_ISSUED');
        assert.equal(last.details?.['simulated'], true, 'the history marks the move simulated');
        // An operator cannot carry a simulated application further while the hit is open.
        const ship = await as(reviewer, 'POST', `/applications/${simulated}/ship`, {
          carrier: 'SF Express',
          tracking_no: 'SF1234567890',
        });
        assert.equal(ship.status, 409, ship.text);
        assert.equal(ship.body.code, 40940);
      } finally {
        await runner.stop();
      }
    });
  });
}

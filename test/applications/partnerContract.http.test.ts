import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { StatusView } from '../../src/applications/views/queryApplication.ts';
import { generateCardNumber } from '../../src/cards/cardNumber.ts';
import { ERRORS } from '../../src/errors/catalogue.ts';
import { PATHS } from '../../src/http/paths.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { ADMIN, call, newOperator, type TestOperator } from '../helpers/operators.ts';
import {
  newPartner,
  nowSeconds,
  post,
  startService,
  type Reply,
  type TestPartner,
  type TestService,
} from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * Two promises of the partner API held over HTTP on every store: the amend is held to its schema
 * like every other operation (`app_id` and `timestamp` required and typed, so no amend skips the
 * replay window or the app check), and the validate-only call answers what the submit would,
 * its conflicts with stored applications included.
 */

let next = 60_000;
const fieldsOf = (reply: Reply) =>
  ((reply.body.data as { errors?: { field: string; code: number }[] } | null)?.errors ?? []).map(
    (e) => `${e.field} ${e.code}`,
  );

for (const storeName of storeNames()) {
  describe(`partner contract on ${storeName}`, () => {
    let service: TestService;
    let partner: TestPartner;
    let other: TestPartner;
    let reviewer: TestOperator;

    before(async () => {
      service = await startService(storeName);
      partner = await newPartner(service);
      other = await newPartner(service, 'other partner');
      reviewer = await newOperator(service, 'reviewer');
    });
    after(() => service.close());

    const send = (who: TestPartner, path: string, body: Record<string, unknown>) =>
      post(service.baseUrl, path, body, { token: who.token });
    const submit = async (body: Record<string, unknown>) => {
      const reply = await send(partner, PATHS.apply, body);
      assert.equal(reply.status, 200, reply.text);
      return (reply.body.data as { busi_water_no: string }).busi_water_no;
    };
    const statusOf = async (serial: string) =>
      (
        (
          await send(partner, PATHS.query, {
            app_id: partner.appId,
            timestamp: nowSeconds(),
            busi_water_no: serial,
          })
        ).body.data as StatusView
      ).status;

    test('an amend without app_id or timestamp, or with either of the wrong type, is a 422 and changes nothing', async () => {
      const applicant = uniqueApplicant(next++, partner.appId);
      const serial = await submit(applicant);
      const admin = (action: string, body: Record<string, unknown> = {}) =>
        call(service, 'POST', `${ADMIN}/applications/${serial}/${action}`, { token: reviewer.token, body });
      assert.equal((await admin('review')).status, 200);
      const asked = await admin('supplement', {
        reason_codes: ['document_unreadable'],
        requested_fields: ['id_card_img'],
      });
      assert.equal(asked.status, 200, asked.text);
      const fields = { busi_water_no: serial, id_card_img: 'https://img.example.com/c/front-sharp.jpg' };

      const cases: [string, Record<string, unknown>, string[]][] = [
        ['no app_id', { timestamp: nowSeconds(), ...fields }, [`app_id ${ERRORS.fieldRequired.code}`]],
        ['no timestamp', { app_id: partner.appId, ...fields }, [`timestamp ${ERRORS.fieldRequired.code}`]],
        [
          'app_id a number',
          { app_id: 12345, timestamp: nowSeconds(), ...fields },
          [`app_id ${ERRORS.fieldType.code}`],
        ],
        [
          'timestamp a string',
          { app_id: partner.appId, timestamp: 'abc', ...fields },
          [`timestamp ${ERRORS.fieldType.code}`],
        ],
        [
          'neither',
          { ...fields },
          [`app_id ${ERRORS.fieldRequired.code}`, `timestamp ${ERRORS.fieldRequired.code}`],
        ],
        [
          'a field of the wrong type',
          { app_id: partner.appId, timestamp: nowSeconds(), ...fields, id_card_img: 7 },
          [`id_card_img ${ERRORS.fieldType.code}`],
        ],
      ];
      for (const [what, body, expected] of cases) {
        const reply = await send(partner, PATHS.amend, body);
        assert.equal(reply.status, 422, `${what}: ${reply.text}`);
        assert.deepEqual(fieldsOf(reply).sort(), expected.sort(), what);
        assert.equal(await statusOf(serial), 'SUPPLEMENT_REQUIRED', `${what}: nothing changed`);
      }
      // The replay window and the app check hold for the amend as for every call.
      const stale = await send(partner, PATHS.amend, {
        app_id: partner.appId,
        timestamp: nowSeconds() - 3600,
        ...fields,
      });
      assert.equal(stale.body.code, ERRORS.timestampSkew.code, stale.text);
      const foreign = await send(partner, PATHS.amend, {
        app_id: other.appId,
        timestamp: nowSeconds(),
        ...fields,
      });
      assert.equal(foreign.body.code, ERRORS.appMismatch.code, foreign.text);
      assert.equal(await statusOf(serial), 'SUPPLEMENT_REQUIRED');

      const amended = await send(partner, PATHS.amend, {
        app_id: partner.appId,
        timestamp: nowSeconds(),
        ...fields,
      });
      assert.equal(amended.status, 200, amended.text);
      assert.equal(await statusOf(serial), 'IN_REVIEW');
    });

    test('validate answers the 409 the submit answers: the same document, the same reference, the same card number', async () => {
      const reference = `VAL-${next}`;
      const cardNo = generateCardNumber(service.ctx.config.card);
      const held = uniqueApplicant(next++, partner.appId);
      await submit({ ...held, external_id: reference, card_no: cardNo });

      const both = async (body: Record<string, unknown>) => {
        const validated = await send(partner, PATHS.validate, { ...body, timestamp: nowSeconds() });
        const submitted = await send(partner, PATHS.apply, { ...body, timestamp: nowSeconds() });
        return { validated, submitted };
      };
      const conflicts: [string, Record<string, unknown>, number][] = [
        ['the same document', { ...held }, ERRORS.duplicateApplication.code],
        [
          'the same reference',
          { ...uniqueApplicant(next++, partner.appId), external_id: reference },
          ERRORS.externalIdTaken.code,
        ],
        [
          'the same card number',
          { ...uniqueApplicant(next++, partner.appId), card_no: cardNo },
          ERRORS.cardNoTaken.code,
        ],
      ];
      for (const [what, body, code] of conflicts) {
        const { validated, submitted } = await both(body);
        assert.equal(validated.status, 409, `${what}: ${validated.text}`);
        assert.equal(validated.body.code, code, what);
        assert.deepEqual(
          { status: validated.status, body: validated.body },
          { status: submitted.status, body: submitted.body },
          `${what}: validate answers what the submit answers`,
        );
      }
      // Another app's holder is not named, by either call.
      const foreign = await send(other, PATHS.validate, {
        ...held,
        app_id: other.appId,
        timestamp: nowSeconds(),
      });
      assert.equal(foreign.status, 409, foreign.text);
      assert.equal(foreign.body.data, null);

      // Valid and free: 200 and nothing stored, so the submit that follows goes through.
      const fresh = uniqueApplicant(next++, partner.appId);
      const validated = await send(partner, PATHS.validate, fresh);
      assert.equal(validated.status, 200, validated.text);
      assert.deepEqual(validated.body.data, { valid: true });
      const again = await send(partner, PATHS.validate, { ...fresh, timestamp: nowSeconds() });
      assert.equal(again.status, 200, again.text);
      await submit({ ...fresh, timestamp: nowSeconds() });
      const after = await send(partner, PATHS.validate, { ...fresh, timestamp: nowSeconds() });
      assert.equal(after.body.code, ERRORS.duplicateApplication.code, after.text);
    });
  });
}

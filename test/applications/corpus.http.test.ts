import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ApplicationRequest } from '../../src/record/schema.ts';
import { ERRORS, type ErrorName } from '../../src/errors/catalogue.ts';
import { PATHS } from '../../src/http/paths.ts';
import { CORPUS } from '../corpus/applicants.ts';
import { SECOND_ROUND } from '../corpus/secondRound.ts';
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
 * The corpus of realistic applicants (test/corpus/) against the validate-only call over HTTP, on
 * every store: each case gets exactly its expected answer. A refused case is also submitted: the
 * submit answers exactly as the validate-only call did. A case of the second round (issue 25)
 * that is accepted is submitted too, and must be stored (then cancelled, so that the next case of
 * the same applicant is no duplicate). No message echoes an identity value.
 */

const IDENTITY_FIELDS = [
  'cert_id',
  'name',
  'name_en',
  'email',
  'mob_no',
  'office_tel_no',
  'consignee_mob_no',
] as const;

interface Case {
  readonly id: string;
  readonly who: string;
  readonly application: ApplicationRequest;
  readonly expect: 'accepted' | readonly (readonly [string, ErrorName])[];
  readonly why: string;
  /** Submit an accepted case too (the second round). */
  readonly submitAccepted: boolean;
}

const CASES: readonly Case[] = [
  ...CORPUS.map((c) => ({ ...c, submitAccepted: false })),
  ...SECOND_ROUND.map((c) => ({ ...c, why: c.source, submitAccepted: true })),
];

describe('the corpus', () => {
  test('has at least 150 cases from every population, each saying who and why', () => {
    assert.ok(CORPUS.length >= 150, `${CORPUS.length} cases`);
    for (const population of ['mainland', 'hongkong', 'macao', 'taiwan', 'abroad'])
      assert.ok(CORPUS.filter((c) => c.population === population).length >= 10, population);
    for (const c of CASES) assert.ok(c.who.length > 0 && c.why.length > 0, c.id);
    assert.equal(new Set(CASES.map((c) => c.id)).size, CASES.length);
  });

  test('every population of the second round has accepted and refused cases', () => {
    const populations = new Set(SECOND_ROUND.map((c) => c.population));
    for (const population of populations) {
      const cases = SECOND_ROUND.filter((c) => c.population === population);
      assert.ok(cases.length >= 8, `${population}: ${cases.length} cases`);
      assert.ok(
        cases.some((c) => c.expect === 'accepted'),
        `${population}: none accepted`,
      );
      assert.ok(
        cases.some((c) => c.expect !== 'accepted'),
        `${population}: none refused`,
      );
    }
  });
});

for (const storeName of storeNames()) {
  describe(`the corpus on ${storeName}, over HTTP`, () => {
    let service: TestService;
    let partner: TestPartner;

    before(async () => {
      service = await startService(storeName);
      partner = await newPartner(service);
    });
    after(() => service.close());

    const body = (c: Case) => ({ ...c.application, app_id: partner.appId, timestamp: nowSeconds() });

    for (const c of CASES) {
      const answer =
        c.expect === 'accepted' ? 'accepted' : c.expect.map(([f, e]) => `${f}:${ERRORS[e].code}`).join(' ');
      test(`${c.id} ${c.who} -> ${answer} (${c.why})`, async () => {
        const validated = await post(service.baseUrl, PATHS.validate, body(c), { token: partner.token });
        if (c.expect === 'accepted') {
          assert.equal(validated.status, 200, validated.text);
          assert.deepEqual(validated.body.data, { valid: true });
          if (c.submitAccepted) await submitThenCancel(c);
          return;
        }
        assert.equal(validated.status, 422, validated.text);
        const errors = (validated.body.data as { errors: { field: string; code: number; message: string }[] })
          .errors;
        assert.deepEqual(
          errors.map((e) => [e.field, e.code]),
          c.expect.map(([field, error]) => [field, ERRORS[error].code]),
          validated.text,
        );
        for (const field of IDENTITY_FIELDS) {
          const value = c.application[field];
          if (typeof value === 'string' && value.length >= 4)
            assert.ok(!validated.text.includes(value), `${field} echoed: ${validated.text}`);
        }
        // The submit answers exactly what the validate-only call did (nothing is stored: it is refused).
        const submitted = await post(service.baseUrl, PATHS.apply, body(c), { token: partner.token });
        assert.deepEqual(submitted.body, validated.body);
        assert.equal(submitted.status, 422);
      });
    }

    /** An accepted case is stored by the submit; cancelled, its document is free for the next case. */
    async function submitThenCancel(c: Case): Promise<void> {
      const submitted = await post(service.baseUrl, PATHS.apply, body(c), { token: partner.token });
      assert.equal(submitted.status, 200, submitted.text);
      const { busi_water_no } = submitted.body.data as { busi_water_no: string };
      const cancelled = await post(
        service.baseUrl,
        PATHS.cancel,
        { app_id: partner.appId, timestamp: nowSeconds(), busi_water_no },
        { token: partner.token },
      );
      assert.equal(cancelled.status, 200, cancelled.text);
    }
  });
}

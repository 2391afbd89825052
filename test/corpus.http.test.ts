import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ERRORS } from '../src/errors/catalogue.ts';
import { PATHS } from '../src/http/paths.ts';
import { CORPUS, type CorpusCase } from './corpus/applicants.ts';
import {
  newCaller,
  nowSeconds,
  post,
  startService,
  type TestCaller,
  type TestService,
} from './helpers/service.ts';
import { storeNames } from './helpers/stores.ts';

/**
 * The corpus of realistic applicants (test/corpus/applicants.ts) against the validate-only call over
 * HTTP, on every store: each case gets exactly its expected answer. A refused case is also submitted:
 * the submit answers exactly as the validate-only call did. No message echoes an identity value.
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

describe('the corpus', () => {
  test('has at least 150 cases from every population, each saying who and why', () => {
    assert.ok(CORPUS.length >= 150, `${CORPUS.length} cases`);
    for (const population of ['mainland', 'hongkong', 'macao', 'taiwan', 'abroad'])
      assert.ok(CORPUS.filter((c) => c.population === population).length >= 10, population);
    for (const c of CORPUS) assert.ok(c.who.length > 0 && c.why.length > 0, c.id);
    assert.equal(new Set(CORPUS.map((c) => c.id)).size, CORPUS.length);
  });
});

for (const storeName of storeNames()) {
  describe(`the corpus on ${storeName}, over HTTP`, () => {
    let service: TestService;
    let caller: TestCaller;

    before(async () => {
      service = await startService(storeName);
      caller = await newCaller(service);
    });
    after(() => service.close());

    const body = (c: CorpusCase) => ({ ...c.application, app_id: caller.appId, timestamp: nowSeconds() });

    for (const c of CORPUS) {
      const answer =
        c.expect === 'accepted' ? 'accepted' : c.expect.map(([f, e]) => `${f}:${ERRORS[e].code}`).join(' ');
      test(`${c.id} ${c.who} -> ${answer} (${c.why})`, async () => {
        const validated = await post(service.baseUrl, PATHS.validate, body(c), { token: caller.token });
        if (c.expect === 'accepted') {
          assert.equal(validated.status, 200, validated.text);
          assert.deepEqual(validated.body.data, { valid: true });
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
        const submitted = await post(service.baseUrl, PATHS.apply, body(c), { token: caller.token });
        assert.deepEqual(submitted.body, validated.body);
        assert.equal(submitted.status, 422);
      });
    }
  });
}

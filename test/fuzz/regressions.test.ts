import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PATHS } from '../../src/http/paths.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { newCaller, startService, type TestCaller, type TestService } from '../helpers/service.ts';
import { send } from '../chaos/support/http.ts';

/**
 * Failures the hostile-input fuzzer found, kept as plain cases. Each names the generated request
 * that broke a promise and what was fixed.
 */
describe('fuzz regressions', () => {
  let service: TestService;
  let caller: TestCaller;
  let n = 0;
  before(async () => {
    service = await startService('sqlite');
    caller = await newCaller(service, 'fuzz regressions');
  });
  after(() => service.close());

  const submitWith = (extra: string) => {
    const text = JSON.stringify(uniqueApplicant(n++, caller.appId));
    return send(service.baseUrl, PATHS.validate, {
      raw: `${text.slice(0, -1)},${extra}}`,
      token: caller.token,
    });
  };

  // Found: an unknown key was named as written, so `"cert_id[0]"` read as a path into cert_id, `""`
  // as the whole body, and a 10,000-character key came back whole, three times over. Fixed in
  // validation/schemaValidator.ts (fieldPath names keys as the JSON body reader does).
  test('an unknown key that looks like a path is quoted, not read as another field', async () => {
    const reply = await submitWith('"cert_id[0]":1');
    assert.equal(reply.status, 422, reply.text);
    const errors = (reply.json as { data: { errors: { field: string }[] } }).data.errors;
    assert.deepEqual(
      errors.map((e) => e.field),
      ['["cert_id[0]"]'],
    );
  });

  test('an empty unknown key is named as a key, not as the body', async () => {
    const reply = await submitWith('"":1');
    assert.equal(reply.status, 422, reply.text);
    assert.match((reply.json as { msg: string }).msg, /^\[""\]: /);
  });

  test('a very long unknown key is shortened in the answer', async () => {
    const key = 'k'.repeat(10_000);
    const reply = await submitWith(`"${key}":1`);
    assert.equal(reply.status, 422, reply.text);
    assert.ok(!reply.text.includes(key), 'the key is not echoed whole');
    assert.ok(reply.text.length < 1000, `a short answer (${reply.text.length} bytes)`);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { post, startService, type TestService } from '../../helpers/service.ts';
import { ADMIN, newOperator, TEST_PASSWORD } from '../../helpers/operators.ts';

/** Password guessing at the operator login is limited like app secrets at the token exchange. */
describe('admin login attempts', () => {
  let service: TestService;
  before(async () => {
    service = await startService('sqlite', { AUTH_FAILURE_BURST: '3', AUTH_FAILURES_PER_MINUTE: '1' });
  });
  after(() => service.close());

  test('after the allowed failures a user name is refused with 429 and Retry-After, even with the right password', async () => {
    const { username } = await newOperator(service, 'reviewer');
    const login = (password: string) => post(service.baseUrl, `${ADMIN}/login`, { username, password });
    for (let i = 0; i < 3; i++) {
      const failed = await login('wrong password');
      assert.equal(failed.status, 401, failed.text);
    }
    const refused = await login(TEST_PASSWORD);
    assert.equal(refused.status, 429, refused.text);
    assert.equal(refused.body.code, 42903);
    assert.match(refused.body.msg, /^password: too many failed attempts/);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
  });
});

describe('admin login attempts, successes', () => {
  let service: TestService;
  before(async () => {
    service = await startService('sqlite', { AUTH_FAILURE_BURST: '3', AUTH_FAILURES_PER_MINUTE: '1' });
  });
  after(() => service.close());

  test('successful logins never use up the allowance', async () => {
    const { username } = await newOperator(service, 'viewer');
    const login = (password: string) => post(service.baseUrl, `${ADMIN}/login`, { username, password });
    for (let i = 0; i < 6; i++) assert.equal((await login(TEST_PASSWORD)).status, 200);
    assert.equal((await login('wrong password')).status, 401);
    assert.equal((await login('wrong password')).status, 401);
    assert.equal((await login(TEST_PASSWORD)).status, 200);
  });
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isPrivateAddress } from './publicHost.ts';
import { checkUrlShape } from './endpointUrl.ts';

test('resolved addresses: private, loopback, link-local and special ones are refused', () => {
  for (const address of [
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
  ]) {
    assert.equal(isPrivateAddress(address), true, address);
  }
  for (const address of ['93.184.216.34', '8.8.8.8', '2606:2800:220:1:248:1893:25c8:1946']) {
    assert.equal(isPrivateAddress(address), false, address);
  }
});

test('URL shape: https without credentials; http and private hosts only when allowed', () => {
  const errors = (url: string, allowPrivate = false) =>
    checkUrlShape('url', url, allowPrivate).map((p) => p.error);
  assert.deepEqual(errors('https://hooks.example.com/cardapply?x=1'), []);
  assert.deepEqual(errors('http://hooks.example.com/'), ['urlNotHttps']);
  assert.deepEqual(errors('http://127.0.0.1:8080/', true), []);
  assert.deepEqual(errors('https://a:b@hooks.example.com/'), ['urlCredentials']);
  assert.deepEqual(errors('https://intranet/'), ['urlPrivateHost']);
  assert.deepEqual(errors('https://2130706433/'), ['urlPrivateHost']);
  assert.deepEqual(errors(`https://example.com/${'a'.repeat(2048)}`), ['fieldTooLong']);
  assert.deepEqual(errors('https:// example.com/'), ['urlNotHttps']);
});

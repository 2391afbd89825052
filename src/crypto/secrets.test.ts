import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { hashSecret, newAppId, newSecret, secretMatches } from './secrets.ts';

describe('ids and secrets', () => {
  test('newAppId', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const id = newAppId();
      assert.match(id, /^app_[0-9a-f]{16}$/);
      ids.add(id);
    }
    assert.equal(ids.size, 1000);
  });

  test('newSecret has 256 bits after its prefix', () => {
    const s = newSecret('sk');
    assert.match(s, /^sk_[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(s.slice(3), 'base64url').length, 32);
    assert.match(newSecret('at'), /^at_/);
    assert.notEqual(newSecret('sk'), newSecret('sk'));
    for (const bad of ['', 'SK', 'sk_', 'toolongprefix', 's k']) assert.throws(() => newSecret(bad));
  });

  test('hashSecret and secretMatches', () => {
    const s = newSecret('sk');
    const h = hashSecret(s);
    assert.match(h, /^[0-9a-f]{64}$/);
    assert.equal(hashSecret('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(secretMatches(s, h), true);
    assert.equal(secretMatches(s + 'x', h), false);
    assert.equal(secretMatches(s, h.slice(1)), false);
    assert.equal(secretMatches(s, ''), false);
    assert.equal(secretMatches(s, h.toUpperCase()), false);
  });
});

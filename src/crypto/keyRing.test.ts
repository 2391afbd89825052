import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { parseEncryptionKeys } from './keyRing.ts';

const key = () => randomBytes(32).toString('base64');
const K1 = key();
const K2 = key();

describe('parseEncryptionKeys', () => {
  test('the last key is current', () => {
    const ring = parseEncryptionKeys(`k1:${K1},k2:${K2}`);
    assert.equal(ring.currentKeyId, 'k2');
    assert.deepEqual(ring.keyIds, ['k1', 'k2']);
    assert.equal(parseEncryptionKeys(` old_1:${K1} ,\n new-2:${K2}\n`).currentKeyId, 'new-2');
    // base64url and unpadded keys are accepted too.
    const raw = randomBytes(32);
    assert.equal(parseEncryptionKeys(`a:${raw.toString('base64url')}`).currentKeyId, 'a');
  });

  test('errors name the entry and the rule, never the key', () => {
    const short = randomBytes(16).toString('base64');
    const cases: [string, RegExp][] = [
      ['', /no keys given/],
      ['   ', /no keys given/],
      [`k1:${K1},`, /entry 2 is empty/],
      [`k1:${K1},,k2:${K2}`, /entry 2 is empty/],
      [`k1${K1}`, /entry 1 is not of the form id:base64/],
      [`:${K1}`, /entry 1: key id must be/],
      [`k.1:${K1}`, /entry 1: key id must be/],
      [`${'a'.repeat(33)}:${K1}`, /entry 1: key id must be/],
      [`k1:${K1},k1:${K2}`, /entry 2: key id "k1" appears more than once/],
      [`k1:${K1},k2:${short}`, /entry 2 \(key "k2"\): key must be 32 bytes, got 16/],
      [`k1:${K1},k2:${K2}!`, /entry 2 \(key "k2"\): key is not base64/],
      [`k1:${K1},k2:`, /entry 2 \(key "k2"\): key is not base64/],
    ];
    for (const [spec, message] of cases) {
      assert.throws(
        () => parseEncryptionKeys(spec),
        (err: Error) => {
          assert.match(err.message, /^ENCRYPTION_KEYS: /);
          assert.match(err.message, message);
          for (const k of [K1, K2, short]) assert.ok(!err.message.includes(k), 'leaks key material');
          return true;
        },
      );
    }
    assert.throws(() => parseEncryptionKeys(`k1:${K1}`, { indexKey: randomBytes(16) }), /at least 32 bytes/);
  });
});

describe('KeyRing', () => {
  const ring = parseEncryptionKeys(`k1:${K1},k2:${K2}`);

  test('round-trips any string with its aad', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string(), (text, aad) => {
        const token = ring.encrypt(text, aad);
        assert.match(token, /^k2\.[A-Za-z0-9_-]+$/);
        assert.equal(ring.keyIdOf(token), 'k2');
        assert.equal(ring.decrypt(token, aad), text);
      }),
    );
  });

  test('the same plaintext encrypts differently each time', () => {
    assert.notEqual(ring.encrypt('x', 'a'), ring.encrypt('x', 'a'));
  });

  test('reads tokens of older keys after rotation, writes with the new one', () => {
    const before = parseEncryptionKeys(`k1:${K1}`);
    const old = before.encrypt('110101199003077777', 'app:1:cert_id');
    assert.equal(ring.keyIdOf(old), 'k1');
    assert.equal(ring.decrypt(old, 'app:1:cert_id'), '110101199003077777');
    assert.throws(() => before.decrypt(ring.encrypt('x', 'a'), 'a'), /key "k2" is not in the key ring/);
  });

  test('refuses a wrong aad, a wrong key, altered data and malformed tokens', () => {
    const token = ring.encrypt('secret value', 'row:1');
    assert.throws(() => ring.decrypt(token, 'row:2'), /authentication failed with key "k2"/);
    const other = parseEncryptionKeys(`k1:${K1},k2:${key()}`);
    assert.throws(() => other.decrypt(token, 'row:1'), /authentication failed/);
    const body = Buffer.from(token.slice(3), 'base64url');
    for (let i = 0; i < body.length; i++) {
      const altered = Buffer.from(body);
      altered[i]! ^= 1;
      assert.throws(() => ring.decrypt(`k2.${altered.toString('base64url')}`, 'row:1'), /authentication/);
    }
    assert.throws(
      () => ring.decrypt(`k2.${body.subarray(0, 27).toString('base64url')}`, 'row:1'),
      /too short/,
    );
    for (const bad of ['', 'nodot', '.abc', 'bad id.abc']) {
      assert.throws(() => ring.decrypt(bad, 'row:1'), /not an encrypted token/);
    }
    assert.throws(() => ring.decrypt('k9.AAAA', 'row:1'), /key "k9" is not in the key ring/);
  });

  test('never puts the plaintext in an error', () => {
    const token = ring.encrypt('6228480000000000', 'a');
    assert.throws(
      () => ring.decrypt(token, 'b'),
      (e: Error) => !e.message.includes('6228480000000000'),
    );
  });

  test('blind indexes are stable across rotation and separated by purpose', () => {
    const one = parseEncryptionKeys(`k1:${K1}`);
    const three = parseEncryptionKeys(`k1:${K1},k2:${K2},k3:${key()}`);
    const h = one.blindIndex('cert_id', '110101199003077777');
    assert.match(h, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(three.blindIndex('cert_id', '110101199003077777'), h);
    assert.equal(ring.blindIndex('cert_id', '110101199003077777'), h);
    assert.equal(three.indexKeyFingerprint, one.indexKeyFingerprint);
    assert.notEqual(one.blindIndex('card_no', '110101199003077777'), h);
    assert.notEqual(one.blindIndex('cert_id', '110101199003077778'), h);
    // Another first key, or an explicit index key, gives other indexes.
    const otherFirst = parseEncryptionKeys(`k0:${K2},k1:${K1}`);
    assert.notEqual(otherFirst.blindIndex('cert_id', '110101199003077777'), h);
    assert.notEqual(otherFirst.indexKeyFingerprint, one.indexKeyFingerprint);
    const indexKey = randomBytes(32);
    const a = parseEncryptionKeys(`k1:${K1}`, { indexKey });
    const b = parseEncryptionKeys(`k7:${K2}`, { indexKey });
    assert.equal(a.blindIndex('cert_id', 'x'), b.blindIndex('cert_id', 'x'));
    assert.notEqual(a.blindIndex('cert_id', 'x'), one.blindIndex('cert_id', 'x'));
  });

  test('blind indexes do not collide across purpose/value splits', () => {
    const r = parseEncryptionKeys(`k1:${K1}`);
    assert.notEqual(r.blindIndex('a', 'b:c'), r.blindIndex('a:b', 'c'));
  });
});

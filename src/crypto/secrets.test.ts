import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { hashPassword, hashSecret, newAppId, newSecret, secretMatches, verifyPassword } from './secrets.ts';

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

describe('passwords', () => {
  test('hash and verify', async () => {
    const stored = await hashPassword('correct horse battery staple');
    assert.match(stored, /^scrypt\$32768\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    assert.equal(await verifyPassword('correct horse battery staple', stored), true);
    assert.equal(await verifyPassword('correct horse battery stapl', stored), false);
    assert.equal(await verifyPassword('', stored), false);
    assert.notEqual(await hashPassword('x'), await hashPassword('x')); // salted
  });

  test('normalizes Unicode', async () => {
    const stored = await hashPassword('caf\u00e9');
    assert.equal(await verifyPassword('cafe\u0301', stored), true);
  });

  test('honours the parameters recorded in the stored value', async () => {
    const stored = await hashPassword('pw');
    const parts = stored.split('$');
    // A hash made with other parameters: recompute with N = 1024 through the same format.
    const { scryptSync } = await import('node:crypto');
    const salt = Buffer.from(parts[4]!, 'base64');
    const low = ['scrypt', 1024, 8, 1, parts[4], scryptSync('pw', salt, 32, { N: 1024 }).toString('base64')];
    assert.equal(await verifyPassword('pw', low.join('$')), true);
    assert.equal(await verifyPassword('pw2', low.join('$')), false);
  });

  test('refuses stored values that are not scrypt hashes', async () => {
    const stored = await hashPassword('pw');
    const parts = stored.split('$');
    const bad = [
      '',
      'plain',
      stored.replace('scrypt', 'bcrypt'),
      ['scrypt', 1000, 8, 1, parts[4], parts[5]].join('$'), // N not a power of two
      ['scrypt', 2 ** 24, 8, 1, parts[4], parts[5]].join('$'), // N too large
      ['scrypt', 32768, 0, 1, parts[4], parts[5]].join('$'),
      ['scrypt', 32768, 8, 99, parts[4], parts[5]].join('$'),
      ['scrypt', 32768, 8, 1, 'AA==', parts[5]].join('$'), // salt too short
    ];
    for (const b of bad) await assert.rejects(verifyPassword('pw', b), /verifyPassword/);
  });
});

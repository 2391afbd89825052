import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hashPassword, hashPasswordScrypt, needsRehash, verifyPassword } from './passwordHash.ts';

describe('password hashes', () => {
  test('argon2id: hash and verify, salted', async () => {
    const stored = await hashPassword('correct horse battery staple');
    assert.match(stored, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    assert.equal(await verifyPassword('correct horse battery staple', stored), true);
    assert.equal(await verifyPassword('correct horse battery stapl', stored), false);
    assert.equal(await verifyPassword('', stored), false);
    assert.notEqual(await hashPassword('x'), await hashPassword('x'));
    assert.equal(needsRehash(stored), false);
  });

  test('verifies a hash of the reference implementation (phc-winner-argon2 test vector)', async () => {
    // argon2 CLI: echo -n password | argon2 somesalt -id -t 2 -m 16 -p 1
    const known = '$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc';
    assert.equal(await verifyPassword('password', known), true);
    assert.equal(await verifyPassword('passwore', known), false);
    assert.equal(needsRehash(known), false); // at least today's parameters
    assert.equal(needsRehash(known.replace('m=65536', 'm=4096')), true);
  });

  test('normalizes Unicode', async () => {
    const stored = await hashPassword('caf\u00e9');
    assert.equal(await verifyPassword('cafe\u0301', stored), true);
  });

  test('earlier scrypt hashes still verify and ask to be replaced', async () => {
    const stored = await hashPasswordScrypt('pw', 2 ** 10);
    assert.equal(await verifyPassword('pw', stored), true);
    assert.equal(await verifyPassword('pw2', stored), false);
    assert.equal(needsRehash(stored), true);
  });

  test('refuses stored values that are neither scheme, or ask too much', async () => {
    const stored = await hashPasswordScrypt('pw', 2 ** 10);
    const parts = stored.split('$');
    const bad = [
      '',
      'plain',
      stored.replace('scrypt', 'bcrypt'),
      ['scrypt', 1000, 8, 1, parts[4], parts[5]].join('$'), // N not a power of two
      ['scrypt', 2 ** 24, 8, 1, parts[4], parts[5]].join('$'), // N too large
      ['scrypt', 1024, 8, 1, 'AA==', parts[5]].join('$'), // salt too short
      '$argon2id$v=19$m=99999999,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc',
      '$argon2id$v=19$m=65536,t=99,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc',
      '$argon2id$v=16$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc',
    ];
    for (const b of bad) await assert.rejects(verifyPassword('pw', b), /verifyPassword/);
  });
});

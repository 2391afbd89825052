import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { parseEncryptionKeys } from '../crypto/keyRing.ts';
import { appendKeyToFile, loadOrCreateKeyFile } from './keyFile.ts';

describe('key file', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'keyring-'));

  test('is created once with mode 0600 and one key k1, then read', () => {
    const d = join(dir(), 'nested', 'data');
    const spec = loadOrCreateKeyFile(d);
    assert.match(spec, /^k1:[A-Za-z0-9+/]{43}=$/);
    assert.equal(statSync(join(d, 'encryption-keys')).mode & 0o777, 0o600);
    assert.equal(loadOrCreateKeyFile(d), spec);
    assert.equal(parseEncryptionKeys(spec).currentKeyId, 'k1');
    rmSync(d, { recursive: true });
  });

  test('processes starting at once agree on one key', async () => {
    const d = dir();
    const script = `import { loadOrCreateKeyFile } from ${JSON.stringify(import.meta.resolve('./keyFile.ts'))};
      process.stdout.write(loadOrCreateKeyFile(${JSON.stringify(d)}));`;
    const run = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script]);
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        child.on('error', reject);
        child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}`))));
      });
    const specs = await Promise.all(Array.from({ length: 8 }, run));
    assert.equal(new Set(specs).size, 1);
    assert.equal(readFileSync(join(d, 'encryption-keys'), 'utf8').trim(), specs[0]);
    rmSync(d, { recursive: true });
  });

  test('appendKeyToFile adds the next key and makes it current', () => {
    const d = dir();
    const first = loadOrCreateKeyFile(d);
    const ring1 = parseEncryptionKeys(first);
    const token = ring1.encrypt('hello', 'aad');
    const { keyId, spec } = appendKeyToFile(d);
    assert.equal(keyId, 'k2');
    assert.equal(loadOrCreateKeyFile(d), spec);
    const ring2 = parseEncryptionKeys(spec);
    assert.equal(ring2.currentKeyId, 'k2');
    assert.equal(ring2.decrypt(token, 'aad'), 'hello');
    assert.equal(ring2.blindIndex('p', 'v'), ring1.blindIndex('p', 'v'));
    assert.equal(appendKeyToFile(d).keyId, 'k3');
    assert.equal(statSync(join(d, 'encryption-keys')).mode & 0o777, 0o600);
    assert.equal(readFileSync(join(d, 'encryption-keys'), 'utf8').trim().split('\n').length, 3);
    rmSync(d, { recursive: true });
  });

  test('appendKeyToFile refuses to run beside another rotation', () => {
    const d = dir();
    loadOrCreateKeyFile(d);
    writeFileSync(join(d, 'encryption-keys.lock'), '');
    assert.throws(() => appendKeyToFile(d), /another rotation is running/);
    rmSync(d, { recursive: true });
  });

  test('a broken key file is reported with its path, not its content', () => {
    const d = dir();
    writeFileSync(join(d, 'encryption-keys'), 'k1:c2hvcnQ=\n', { mode: 0o600 });
    const spec = loadOrCreateKeyFile(d);
    assert.throws(
      () => parseEncryptionKeys(spec, { source: join(d, 'encryption-keys') }),
      (e: Error) => e.message.includes('encryption-keys: entry 1') && !e.message.includes('c2hvcnQ='),
    );
    rmSync(d, { recursive: true });
  });
});

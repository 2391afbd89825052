import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { defaultIndexKeyOf, parseEncryptionKeys } from './keyRing.ts';
import {
  appendKeyToFile,
  loadOrCreateKeyFile,
  readIndexKeyFile,
  removeKeyFromFile,
} from '../keys/keyFile.ts';
import { LiveKeyRing } from './liveKeyRing.ts';
import { loadKeyFileRing } from '../keys/loadKeyRing.ts';
import { olderKeyIds } from '../keys/reencrypt.ts';

const key = () => randomBytes(32).toString('base64');

function withDir(work: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'cardapply-keys-'));
  try {
    work(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function liveRing(dir: string, errors: Error[] = []): LiveKeyRing {
  return LiveKeyRing.forDataDir(dir, () => loadKeyFileRing(dir), { onReloadError: (e) => errors.push(e) });
}

describe('current key and index key', () => {
  test('ENCRYPTION_CURRENT_KEY picks a key that is not the last; the others stay readable', () => {
    const spec = `k1:${key()},k2:${key()}`;
    const ring = parseEncryptionKeys(spec, { currentKeyId: 'k1' });
    assert.equal(ring.currentKeyId, 'k1');
    const token = ring.encrypt('x', 'aad');
    assert.equal(ring.keyIdOf(token), 'k1');
    assert.equal(parseEncryptionKeys(spec).decrypt(token, 'aad'), 'x');
    assert.deepEqual(olderKeyIds(ring), [], 'k2 is newer: never re-encrypted back to k1');
    assert.deepEqual(olderKeyIds(parseEncryptionKeys(spec)), ['k1']);
    assert.throws(() => parseEncryptionKeys(spec, { currentKeyId: 'k3' }), /current key "k3" is not among/);
  });

  test('the default index key, kept explicitly, gives the same blind indexes without the first key', () => {
    const k1 = key();
    const k2 = key();
    const before = parseEncryptionKeys(`k1:${k1},k2:${k2}`);
    const after = parseEncryptionKeys(`k2:${k2}`, { indexKey: defaultIndexKeyOf(`k1:${k1},k2:${k2}`) });
    assert.equal(after.blindIndex('cert', '00:X'), before.blindIndex('cert', '00:X'));
    assert.equal(after.indexKeyFingerprint, before.indexKeyFingerprint);
    assert.notEqual(parseEncryptionKeys(`k2:${k2}`).indexKeyFingerprint, before.indexKeyFingerprint);
  });
});

describe('LiveKeyRing', () => {
  test('follows a rotation of the key file: on an unknown key id, and on a look at the file', () => {
    withDir((dir) => {
      const live = liveRing(dir);
      assert.equal(live.currentKeyId, 'k1');
      const old = live.encrypt('secret', 'a');

      appendKeyToFile(dir); // another process rotates
      const other = loadKeyFileRing(dir);
      const fresh = other.encrypt('newer', 'b');
      assert.equal(live.decrypt(fresh, 'b'), 'newer', 'reloaded for the unknown key id');
      assert.equal(live.currentKeyId, 'k2');
      assert.equal(live.decrypt(old, 'a'), 'secret');

      appendKeyToFile(dir);
      assert.equal(live.refreshIfChanged(), true);
      assert.equal(live.currentKeyId, 'k3');
      assert.equal(live.refreshIfChanged(), false, 'unchanged file: nothing to do');
    });
  });

  test('retiring the first key keeps its index key in a file, and the blind indexes do not change', () => {
    withDir((dir) => {
      const live = liveRing(dir);
      const index = live.blindIndex('cert', '00:440305199003071236');
      appendKeyToFile(dir);
      live.refreshIfChanged();
      assert.throws(
        () =>
          removeKeyFromFile(dir, 'k2', (ring) => {
            if (ring.currentKeyId === 'k2') throw new Error('current');
          }),
        /current/,
      );
      const removed = removeKeyFromFile(dir, 'k1', () => {});
      assert.equal(removed.indexKeyWritten, true);
      assert.ok(readIndexKeyFile(dir) !== undefined);
      assert.equal(live.refreshIfChanged(), true);
      assert.deepEqual(live.keyIds, ['k2']);
      assert.equal(live.blindIndex('cert', '00:440305199003071236'), index);
      // Later rotations keep the index key file as it is.
      appendKeyToFile(dir);
      assert.equal(loadKeyFileRing(dir).blindIndex('cert', '00:440305199003071236'), index);
    });
  });

  test('a key file that would change the blind-index key is refused, and the ring in use stays', () => {
    withDir((dir) => {
      const errors: Error[] = [];
      const live = liveRing(dir, errors);
      loadOrCreateKeyFile(dir);
      writeFileSync(join(dir, 'encryption-keys'), `k9:${key()}\n`);
      assert.equal(live.refreshIfChanged(), false);
      assert.deepEqual(live.keyIds, ['k1']);
      assert.match(errors[0]?.message ?? '', /would change the blind-index key/);
    });
  });
});

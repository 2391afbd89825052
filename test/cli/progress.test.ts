import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, describe, test } from 'node:test';
import { createStoreTarget, storeNames } from '../helpers/stores.ts';

const BIN = fileURLToPath(new URL('../../bin/cardapply.js', import.meta.url));
const exec = promisify(execFile);

/** Long commands report on stderr (a summary when it is not a terminal) and keep stdout to the JSON. */
for (const storeName of storeNames()) {
  describe(`progress of long commands (${storeName})`, () => {
    const target = createStoreTarget(storeName);
    after(() => target.cleanup());
    const run = (...args: string[]) =>
      exec(process.execPath, [BIN, ...args], { env: { ...process.env, ...target.env } });

    test('migrate: one summary line on stderr, the JSON alone on stdout', async () => {
      const { stdout, stderr } = await run('migrate', '--json');
      assert.ok(Number(JSON.parse(stdout).applied) >= 5);
      assert.match(stderr, /^migrating: \d+ migrations in [0-9.]+ s/m);
    });

    test('keys reencrypt and retention run: a summary each, JSON unchanged', async () => {
      const reencrypt = await run('keys', 'reencrypt', '--json');
      assert.deepEqual(Object.keys(JSON.parse(reencrypt.stdout)).sort(), ['failed', 'moved', 'skipped']);
      assert.match(reencrypt.stderr, /^re-encrypting: 0 rows in /m);
      const retention = await run('retention', 'run', '--days', '30', '--dry-run', '--json');
      assert.equal(JSON.parse(retention.stdout).count, 0);
      assert.match(retention.stderr, /^finding: 0 applications in /m);
    });
  });
}

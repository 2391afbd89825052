import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, test } from 'node:test';
import { spawnService } from './helpers/process.ts';
import { createStoreTarget, storeNames } from './helpers/stores.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

/** The README's curl walk-through, run verbatim against a running service on each store. */
function walkthrough(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /<!-- walkthrough:start -->\s*```bash\n([\s\S]*?)```\s*<!-- walkthrough:end -->/.exec(
    readme,
  )?.[1];
  assert.ok(block, 'the README has a walk-through block');
  return block;
}

for (const storeName of storeNames()) {
  describe(`README walk-through on ${storeName}`, () => {
    test('creates an app, gets a token, submits, reads back SUBMITTED, sees its images failed and asks for them again', async () => {
      const target = createStoreTarget(storeName);
      // As the walk-through says to start it: an image that cannot be fetched fails at once.
      const service = await spawnService({ ...target.env, DOCUMENT_FETCH_HOURS: '0' });
      const workDir = mkdtempSync(join(tmpdir(), 'cardapply-readme-'));
      try {
        // `npx cardapply` resolves from the checkout; the shell runs where the README's files land.
        const script = `cd ${JSON.stringify(workDir)}\nexport PATH=${JSON.stringify(join(ROOT, 'node_modules/.bin'))}:$PATH\ncardapply() { node ${JSON.stringify(join(ROOT, 'bin/cardapply.js'))} "$@"; }\nnpx() { shift; cardapply "$@"; }\nset -euo pipefail\n${walkthrough()}`;
        const { stdout } = await run('bash', ['-c', script], {
          env: { ...process.env, ...target.env, BASE: service.baseUrl },
        });
        const lines = stdout.trim().split('\n');
        const submitted = JSON.parse(lines[0]!) as { code: number; data: { busi_water_no: string } };
        assert.equal(submitted.code, 0, stdout);
        const status = JSON.parse(lines[1]!) as {
          code: number;
          data: { status: string; card_no_masked: string };
        };
        assert.equal(status.code, 0, stdout);
        assert.equal(status.data.status, 'SUBMITTED');
        assert.match(status.data.card_no_masked, /^539966\*{6}[0-9]{4}$/);
        // Its files land in .walkthrough/ only, which git ignores: the app secret stays out of commits.
        assert.deepEqual(readdirSync(workDir), ['.walkthrough']);
        assert.deepEqual(readdirSync(join(workDir, '.walkthrough')).sort(), [
          'app.json',
          'status.json',
          'submitted.json',
        ]);
        await run('git', ['check-ignore', '--quiet', '--no-index', '.walkthrough/app.json'], { cwd: ROOT });
        // img.example.com does not resolve here: the documents fail, and the reviewer asks again.
        assert.equal(lines[2], 'failed unreachable', stdout);
        assert.equal(lines[3], 'SUPPLEMENT_REQUIRED', stdout);
      } finally {
        service.child.kill('SIGTERM');
        await service.exited;
        rmSync(workDir, { recursive: true, force: true });
        await target.cleanup();
      }
    });
  });
}

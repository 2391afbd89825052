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
    test('creates an app, gets a token, submits and reads back SUBMITTED', async () => {
      const target = createStoreTarget(storeName);
      const service = await spawnService(target.env);
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
        assert.deepEqual(readdirSync(join(workDir, '.walkthrough')).sort(), ['app.json', 'submitted.json']);
        await run('git', ['check-ignore', '--quiet', '--no-index', '.walkthrough/app.json'], { cwd: ROOT });
      } finally {
        service.child.kill('SIGTERM');
        await service.exited;
        rmSync(workDir, { recursive: true, force: true });
        await target.cleanup();
      }
    });
  });
}

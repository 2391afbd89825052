import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { spawnService, type ServiceProcess } from './helpers/process.ts';
import { TEST_PASSWORD } from './helpers/operators.ts';
import { createStoreTarget, storeNames, type StoreTarget } from './helpers/stores.ts';

/**
 * The examples, run the way their headers say (`npm run example:curl`, `npm run example:integration`)
 * against the service as a separate process on each store: each creates an app with the CLI,
 * submits, polls the status, receives its webhooks on a local server and verifies them.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

for (const storeName of storeNames()) {
  describe(`examples on ${storeName}`, () => {
    let target: StoreTarget;
    let service: ServiceProcess;
    let env: Record<string, string>;
    before(async () => {
      target = createStoreTarget(storeName);
      service = await spawnService({
        ...target.env,
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_POLL_INTERVAL_MS: '100',
      });
      env = {
        ...(process.env as Record<string, string>),
        ...target.env,
        BASE: service.baseUrl,
        // Node 24 of the checkout first, as under `npm test`; the CLI without npx's start-up time.
        PATH: `${join(ROOT, 'node_modules/.bin')}:${process.env['PATH'] ?? ''}`,
        CARDAPPLY: `${process.execPath} ${join(ROOT, 'bin/cardapply.js')}`,
      };
      // The examples' operator steps run as an admin: the store's first, made as the docs say.
      await run(
        process.execPath,
        [
          join(ROOT, 'bin/cardapply.js'),
          'operators',
          'create',
          '--username',
          'ada',
          '--role',
          'admin',
          '--password',
          TEST_PASSWORD,
        ],
        { env },
      );
      env['CARDAPPLY_OPERATOR'] = 'ada';
    });
    after(async () => {
      service.child.kill('SIGTERM');
      await service.exited;
      await target.cleanup();
    });

    test('examples/curl.sh: token, submit, poll, webhooks verified with openssl, cancel', async () => {
      const { stdout } = await run('npm', ['run', '--silent', 'example:curl'], {
        cwd: ROOT,
        env,
        timeout: 120_000,
      });
      const serial = /^submitted ([0-9A-Z]{32})$/m.exec(stdout)?.[1];
      assert.ok(serial, stdout);
      assert.match(stdout, /^status: SUBMITTED$/m);
      assert.match(stdout, /^webhook application\.submitted \(evt_\w+\): signature verified$/m);
      assert.match(stdout, /^status: CANCELLED$/m);
      assert.match(stdout, /^webhook application\.cancelled \(evt_\w+\): signature verified$/m);
      assert.match(stdout, /^1 application\.submitted\n2 application\.cancelled$/m);
      assert.match(stdout, new RegExp(`^done: ${serial}$`, 'm'));
    });

    test('examples/integration.ts: the typed client, a local receiver and verifyWebhook', async () => {
      const { stdout } = await run('npm', ['run', '--silent', 'example:integration'], {
        cwd: ROOT,
        env,
        timeout: 120_000,
      });
      const summary = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
        busi_water_no: string;
        statuses: string[];
        webhooks: string[];
        events: string[];
      };
      assert.match(summary.busi_water_no, /^[0-9A-Z]{32}$/);
      assert.equal(summary.statuses[0], 'SUBMITTED');
      assert.equal(summary.statuses.at(-1), 'CANCELLED');
      assert.deepEqual(summary.webhooks, ['application.submitted', 'application.cancelled']);
      assert.deepEqual(summary.events, summary.webhooks);
      assert.match(stdout, /cancel again: HTTP 409/);
    });
  });
}

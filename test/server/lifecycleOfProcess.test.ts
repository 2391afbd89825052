import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { PATHS } from '../../src/http/paths.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { spawnService } from '../helpers/process.ts';
import { nowSeconds, post } from '../helpers/service.ts';
import { TEST_PASSWORD } from '../helpers/operators.ts';
import { createStoreTarget, storeNames } from '../helpers/stores.ts';

const CLI = fileURLToPath(new URL('../../bin/cardapply.js', import.meta.url));
const run = promisify(execFile);

/** The process as operators run it: the CLI, start-up, and a graceful shutdown. */
for (const storeName of storeNames()) {
  describe(`service process on ${storeName}`, () => {
    test('the CLI creates an app whose secret works once exchanged; SIGTERM finishes the request in flight', async () => {
      const target = createStoreTarget(storeName);
      const env = { ...process.env, ...target.env };
      try {
        // The store's first admin, then the app as that admin.
        await run(
          process.execPath,
          [CLI, 'operators', 'create', '--username', 'ada', '--role', 'admin', '--password', TEST_PASSWORD],
          { env },
        );
        const { stdout } = await run(
          process.execPath,
          [CLI, 'apps', 'create', '--name', 'Partner A', '--json', '--operator', 'ada'],
          { env },
        );
        const created = JSON.parse(stdout) as { app_id: string; app_secret: string };
        assert.match(created.app_id, /^app_[0-9a-f]{16}$/);
        assert.match(created.app_secret, /^sk_/);

        const service = await spawnService(target.env);
        const token = await post(service.baseUrl, PATHS.token, { ...created, timestamp: nowSeconds() });
        assert.equal(token.status, 200, token.text);
        const accessToken = (token.body.data as { access_token: string }).access_token;

        // Send the headers and half the body, signal the process, then send the rest.
        const body = Buffer.from(JSON.stringify(uniqueApplicant(1, created.app_id)));
        const url = new URL(PATHS.apply, service.baseUrl);
        const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
          const req = request(
            url,
            {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                'content-length': body.length,
                authorization: accessToken,
              },
            },
            (res) => {
              let text = '';
              res.on('data', (chunk: Buffer) => (text += chunk.toString()));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
            },
          );
          req.on('error', reject);
          req.write(body.subarray(0, 100));
          setTimeout(() => {
            service.child.kill('SIGTERM');
            setTimeout(() => req.end(body.subarray(100)), 200);
          }, 200);
        });
        const reply = await answered;
        assert.equal(reply.status, 200, reply.text);
        assert.equal((JSON.parse(reply.text) as { code: number }).code, 0);
        assert.equal(await service.exited, 0);
        assert.ok(service.output.some((line) => line.includes('"msg":"stopped"')));
        // Checked once the process is gone: the submit path ran warm before the port opened
        // (server.ts), not in the first requests.
        const warmed = service.output.findIndex((line) => line.includes('"submit path warmed up"'));
        const listening = service.output.findIndex((line) => line.includes('"url"'));
        assert.ok(warmed !== -1 && warmed < listening, service.output.join('\n'));
      } finally {
        await target.cleanup();
      }
    });
  });
}

test('a bad setting stops the start with a message naming it', async () => {
  const target = createStoreTarget('sqlite');
  try {
    await assert.rejects(
      spawnService({ ...target.env, CARD_BIN: '12ab' }),
      /CARD_BIN: must be 6 to 8 digits/,
    );
  } finally {
    await target.cleanup();
  }
});

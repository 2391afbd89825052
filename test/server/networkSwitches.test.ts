import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { spawnService } from '../helpers/process.ts';
import { createStoreTarget, storeNames } from '../helpers/stores.ts';
import { spawnWorker, stopWorker } from '../helpers/worker.ts';

/**
 * The switches that let outgoing requests reach private hosts are not quiet (issue 55): the server
 * and `cardapply worker` each log a warning at start for every one that is on, naming it, and none
 * when they are off.
 */

const SWITCHES = ['WEBHOOK_ALLOW_PRIVATE', 'DOCUMENT_ALLOW_PRIVATE'] as const;

/** The settings named by the warnings among a process's log lines. */
function warnedSettings(output: readonly string[]): string[] {
  return output
    .map((line) => JSON.parse(line) as { level?: string; setting?: string; msg?: string })
    .filter((entry) => entry.level === 'warn' && entry.setting !== undefined)
    .map((entry) => {
      assert.match(entry.msg ?? '', new RegExp(`^${entry.setting} is on: .*tests and closed networks only$`));
      return entry.setting!;
    })
    .sort();
}

const cases: { name: string; env: Record<string, string>; warned: string[] }[] = [
  { name: 'both off', env: {}, warned: [] },
  { name: 'webhooks on', env: { WEBHOOK_ALLOW_PRIVATE: 'true' }, warned: ['WEBHOOK_ALLOW_PRIVATE'] },
  { name: 'documents on', env: { DOCUMENT_ALLOW_PRIVATE: 'true' }, warned: ['DOCUMENT_ALLOW_PRIVATE'] },
  {
    name: 'both on',
    env: { WEBHOOK_ALLOW_PRIVATE: 'true', DOCUMENT_ALLOW_PRIVATE: 'true' },
    warned: [...SWITCHES].sort(),
  },
];

for (const storeName of storeNames()) {
  describe(`the allow-private switches at start on ${storeName}`, () => {
    for (const { name, env, warned } of cases) {
      test(`the server, ${name}: warned of ${warned.join(', ') || 'nothing'}`, async () => {
        const target = createStoreTarget(storeName);
        const off = Object.fromEntries(SWITCHES.map((s) => [s, 'false']));
        const service = await spawnService({ ...target.env, ...off, ...env });
        try {
          assert.deepEqual(warnedSettings(service.output), warned, service.output.join('\n'));
        } finally {
          service.child.kill('SIGTERM');
          await service.exited;
          await target.cleanup();
        }
      });
    }

    test('cardapply worker, both on: warned of both', async () => {
      const target = createStoreTarget(storeName);
      const worker = await spawnWorker({
        ...target.env,
        WEBHOOK_ALLOW_PRIVATE: 'true',
        DOCUMENT_ALLOW_PRIVATE: 'true',
      });
      try {
        assert.deepEqual(warnedSettings(worker.output), [...SWITCHES].sort(), worker.output.join('\n'));
      } finally {
        await stopWorker(worker);
        await target.cleanup();
      }
    });
  });
}

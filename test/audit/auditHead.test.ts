import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { cardapply, cardapplyJson } from '../helpers/cli.ts';
import { spawnService } from '../helpers/process.ts';
import { createStoreTarget, storeNames } from '../helpers/stores.ts';
import { TEST_PASSWORD } from '../helpers/operators.ts';

/**
 * The audit chain's head leaves the database through the log: every AUDIT_HEAD_LOG_SECONDS and at
 * shutdown the service writes `audit_head` (`hash@id`), which `cardapply audit verify --head`
 * checks the trail against.
 */

const heads = (output: readonly string[]) =>
  output.flatMap((line) => {
    try {
      const parsed = JSON.parse(line) as { audit_head?: string; audit_seq?: number };
      return parsed.audit_head === undefined ? [] : [parsed];
    } catch {
      return [];
    }
  });

for (const storeName of storeNames()) {
  describe(`the audit chain's head in the log on ${storeName}`, () => {
    test('is logged at intervals and at shutdown, and verify accepts it', async () => {
      const target = createStoreTarget(storeName);
      try {
        const service = await spawnService({ ...target.env, AUDIT_HEAD_LOG_SECONDS: '10' });
        let stopped = false;
        try {
          // Audited changes from the CLI while the service runs: the first admin, who adds a viewer.
          for (const [name, role, ...by] of [
            ['ada', 'admin'],
            ['bob', 'viewer', '--operator', 'ada'],
          ])
            await cardapplyJson(
              target.env,
              'operators',
              'create',
              '--username',
              name!,
              '--role',
              role!,
              '--password',
              TEST_PASSWORD,
              ...by,
            );
          const deadline = Date.now() + 30_000;
          while (heads(service.output).length === 0 && Date.now() < deadline) await sleep(250);
          assert.ok(heads(service.output).length > 0, 'a head logged within the interval');
          await cardapplyJson(
            target.env,
            'operators',
            'create',
            '--username',
            'cy',
            '--role',
            'viewer',
            '--password',
            TEST_PASSWORD,
            '--operator',
            'ada',
          );
          service.child.kill('SIGTERM');
          stopped = true;
          assert.equal(await service.exited, 0);
        } finally {
          if (!stopped) service.child.kill('SIGKILL');
        }
        const last = heads(service.output).at(-1)!;
        assert.equal(last.audit_seq, 3, 'the shutdown line holds the head after the last change');
        const report = JSON.parse(
          await cardapply(target.env, 'audit', 'verify', '--json', '--head', last.audit_head!),
        ) as {
          ok: boolean;
          head: { seq: number };
        };
        assert.deepEqual([report.ok, report.head.seq], [true, 3]);
      } finally {
        await target.cleanup();
      }
    });
  });
}

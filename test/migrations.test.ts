import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, test } from 'node:test';
import type { MigrationStatus } from '../src/store/migrate.ts';
import { loadMigrations } from '../src/store/migrate.ts';
import { cardapplyJson } from './helpers/cli.ts';
import { createStoreTarget, storeNames } from './helpers/stores.ts';

/**
 * Forward-only migrations under a lock: processes started at once on a fresh store apply each
 * migration exactly once between them, and `cardapply migrate --status` shows them applied.
 */
const SCRIPT = fileURLToPath(new URL('./helpers/migrateOnce.ts', import.meta.url));
const exec = promisify(execFile);
const PROCESSES = 4;

for (const storeName of storeNames()) {
  describe(`migrations on ${storeName}`, () => {
    test(`${PROCESSES} processes migrating a fresh store at once apply each migration once`, async () => {
      const target = createStoreTarget(storeName);
      try {
        const env = { ...process.env, ...target.env };
        const outputs = await Promise.all(
          Array.from({ length: PROCESSES }, () => exec(process.execPath, [SCRIPT], { env })),
        );
        const applied = outputs.flatMap(({ stdout }) => JSON.parse(stdout) as number[]).sort((a, b) => a - b);
        const versions = loadMigrations(storeName).map((m) => m.version);
        assert.deepEqual(applied, versions, 'each version applied by exactly one process');

        const status = await cardapplyJson<MigrationStatus[]>(target.env, 'migrate', '--status');
        assert.deepEqual(
          status.map((m) => m.version),
          versions,
        );
        assert.ok(status.every((m) => m.appliedAt !== null));
        // Again: nothing left to apply.
        const again = await exec(process.execPath, [SCRIPT], { env });
        assert.deepEqual(JSON.parse(again.stdout), []);
      } finally {
        await target.cleanup();
      }
    });
  });
}

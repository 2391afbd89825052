import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { recordAudits, type AuditEntry } from '../../src/audit/auditTrail.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';
import { cardapply } from '../helpers/cli.ts';
import { createStoreTarget, storeNames } from '../helpers/stores.ts';

/**
 * `npm run test:size`: `cardapply audit verify` walks an untouched trail of 100,000 rows (the
 * command as operators run it, a process of its own) in under 30 seconds on each store. The trail is
 * written by the one writer, in batches of its own transactions, so every row is chained as in
 * service. AUDIT_ROWS changes the size.
 */
const ROWS = Number(process.env['AUDIT_ROWS'] ?? 100_000);
const BATCH = 2000;
const LIMIT_MS = 30_000;

for (const storeName of storeNames()) {
  describe(`an audit trail of ${ROWS} rows on ${storeName}`, () => {
    test('verifies in under 30 seconds', async (t) => {
      const target = createStoreTarget(storeName);
      const ctx = await openContext(loadConfig(target.env), createLogger({ logLevel: 'silent' }));
      try {
        const started = performance.now();
        for (let written = 0; written < ROWS; written += BATCH) {
          const entries: AuditEntry[] = Array.from({ length: Math.min(BATCH, ROWS - written) }, (_, i) => ({
            actor: `operator:op${(written + i) % 50}`,
            action: 'application.transition',
            targetType: 'application',
            targetId: `SERIAL${String(written + i).padStart(10, '0')}`,
            details: { from: 'IN_REVIEW', to: 'APPROVED' },
            source: 'admin-api 127.0.0.1',
            at: 1_700_000_000_000 + written + i,
          }));
          await ctx.store.transaction((trx) => recordAudits(trx, entries));
        }
        t.diagnostic(
          `${ROWS} chained rows written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
        );
      } finally {
        await ctx.store.close();
      }
      try {
        const started = performance.now();
        const report = JSON.parse(await cardapply(target.env, 'audit', 'verify', '--json')) as {
          ok: boolean;
          rows: number;
        };
        const ms = performance.now() - started;
        t.diagnostic(`cardapply audit verify: ${ROWS} rows in ${(ms / 1000).toFixed(1)} s`);
        assert.deepEqual([report.ok, report.rows], [true, ROWS]);
        assert.ok(ms < LIMIT_MS, `${(ms / 1000).toFixed(1)} s`);
      } finally {
        await target.cleanup();
      }
    });
  });
}

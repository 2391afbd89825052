import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createApp } from '../../src/partners/credentials.ts';
import { loadConfig } from '../../src/config.ts';
import { PATHS } from '../../src/http/paths.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { spawnService } from '../helpers/process.ts';
import { nowSeconds, post } from '../helpers/service.ts';
import { createStoreTarget, storeNames } from '../helpers/stores.ts';

/**
 * Acknowledged means durable: a service process killed with SIGKILL in the middle of concurrent
 * submissions loses none of the applications it acknowledged with code 0.
 */
const ROUNDS = 3;
const CONCURRENCY = 16;

for (const storeName of storeNames()) {
  describe(`crash on ${storeName}`, () => {
    test('every acknowledged application survives SIGKILL', async () => {
      const target = createStoreTarget(storeName);
      const config = loadConfig(target.env);
      const ctx = await openContext(config, createLogger({ logLevel: 'silent' }));
      const app = await createApp(ctx.store.db, 'crash partner', Date.now());
      const acknowledged: string[] = [];
      let n = 0;
      try {
        for (let round = 0; round < ROUNDS; round++) {
          const service = await spawnService(target.env);
          const token = await post(service.baseUrl, PATHS.token, { ...app, timestamp: nowSeconds() });
          const accessToken = (token.body.data as { access_token: string }).access_token;
          let killed = false;
          const worker = async () => {
            while (!killed) {
              try {
                const reply = await post(service.baseUrl, PATHS.apply, uniqueApplicant(n++, app.app_id), {
                  token: accessToken,
                });
                if (reply.body.code === 0)
                  acknowledged.push((reply.body.data as { busi_water_no: string }).busi_water_no);
              } catch {
                return; // the connection died with the process: that request was never acknowledged
              }
            }
          };
          const workers = Array.from({ length: CONCURRENCY }, worker);
          // Kill at a moment that varies by round, with requests in flight.
          const killAt = acknowledged.length + 40 + round * 25;
          while (acknowledged.length < killAt) await new Promise((r) => setTimeout(r, 2));
          service.child.kill('SIGKILL');
          killed = true;
          await Promise.all(workers);
          await service.exited;
        }

        // Every acknowledged serial is in the store, once, and readable over HTTP after a restart.
        const rows = await ctx.store.db
          .selectFrom('applications')
          .select(['busi_water_no', 'card_no_hash'])
          .execute();
        const stored = new Set(rows.map((r) => r.busi_water_no));
        const missing = acknowledged.filter((s) => !stored.has(s));
        assert.deepEqual(
          missing,
          [],
          `${missing.length} of ${acknowledged.length} acknowledged applications lost`,
        );
        assert.equal(new Set(rows.map((r) => r.card_no_hash)).size, rows.length, 'card numbers are unique');

        const service = await spawnService(target.env);
        try {
          const token = await post(service.baseUrl, PATHS.token, { ...app, timestamp: nowSeconds() });
          const accessToken = (token.body.data as { access_token: string }).access_token;
          for (const serial of acknowledged.slice(-20)) {
            const reply = await post(
              service.baseUrl,
              PATHS.query,
              { app_id: app.app_id, timestamp: nowSeconds(), busi_water_no: serial },
              { token: accessToken },
            );
            assert.equal(reply.status, 200, reply.text);
          }
        } finally {
          service.child.kill('SIGTERM');
          await service.exited;
        }
        if (storeName === 'sqlite') {
          const { sql } = await import('kysely');
          const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(ctx.store.db);
          assert.equal(check.rows[0]?.integrity_check, 'ok');
        }
      } finally {
        await ctx.store.close();
        await target.cleanup();
      }
    });
  });
}

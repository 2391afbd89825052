import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createApp } from '../../src/callers/credentials.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { spawnService, type ServiceProcess } from '../helpers/process.ts';
import { createStoreTarget, storeNames } from '../helpers/stores.ts';
import { findLeaks, identityValues } from './support/leaks.ts';
import { startLoad } from './support/load.ts';
import { killHard, stopGracefully, tokenFor, unreadable } from './support/service.ts';
import { inspectStore, type PostgresLocation } from './support/storeChecks.ts';
import { report, scale, seededRandom, seedOf, sleep } from './support/summary.ts';

/**
 * Crash: the service process is killed with SIGKILL at a random moment under concurrent submission
 * load, round after round on one store. After every restart each application acknowledged with
 * code 0 so far is in the store and readable over HTTP, no serial or card number occurs twice, and
 * the store passes its own integrity check. Three rounds per store in `npm test`, ten in
 * `npm run test:chaos`. CHAOS_SEED replays the kill moments of a run.
 */
const ROUNDS = scale(3, 10);
const CONCURRENCY = 16;

for (const storeName of storeNames()) {
  describe(`chaos: crash on ${storeName}`, () => {
    test(`${ROUNDS} SIGKILLs under load lose nothing acknowledged`, async (t) => {
      const seed = seedOf();
      const random = seededRandom(seed);
      const target = createStoreTarget(storeName);
      const postgres: PostgresLocation | undefined =
        storeName === 'postgres' ? { url: target.directUrl!, schema: target.schema! } : undefined;
      const ctx = await openContext(loadConfig(target.env), createLogger({ logLevel: 'silent' }));
      const app = await createApp(ctx.store.db, 'crash partner', Date.now());
      const acknowledged: string[] = [];
      const identity: string[] = [];
      const logs: string[] = [];
      const killMoments: number[] = [];
      let n = 0;
      let service: ServiceProcess | undefined;

      const verify = async (after: string) => {
        const state = await inspectStore(ctx, postgres);
        const missing = acknowledged.filter((s) => !state.serials.has(s));
        assert.deepEqual(
          missing,
          [],
          `${after}: ${missing.length} of ${acknowledged.length} acknowledged lost`,
        );
        assert.equal(state.duplicateSerials, 0, `${after}: duplicate serials`);
        assert.equal(state.duplicateCardHashes, 0, `${after}: duplicate card number hashes`);
        assert.equal(state.duplicateCardNumbers, 0, `${after}: duplicate card numbers`);
        assert.equal(state.integrity, 'ok', `${after}: ${state.integrityCheck} failed`);
        const token = await tokenFor(service!.baseUrl, app);
        const lost = await unreadable(service!.baseUrl, token, app.app_id, acknowledged);
        assert.deepEqual(lost, [], `${after}: acknowledged applications not readable over HTTP`);
        return state;
      };

      try {
        let state;
        for (let round = 1; round <= ROUNDS; round++) {
          service = await spawnService(target.env);
          if (round > 1) state = await verify(`after restart ${round - 1}`);
          const token = await tokenFor(service.baseUrl, app);
          const current = service;
          const load = startLoad({
            baseUrl: current.baseUrl,
            token,
            concurrency: CONCURRENCY,
            endOnConnectionError: true,
            next: () => uniqueApplicant(n++, app.app_id),
          });
          // A random moment, once the load is running: anywhere from the first commits on.
          const firstAck = Date.now();
          while (load.acknowledged.length === 0 && Date.now() - firstAck < 20_000) await sleep(2);
          const delay = Math.floor(random() * scale(800, 2000));
          killMoments.push(delay);
          await sleep(delay);
          await killHard(current);
          await load.stop();
          logs.push(...current.output);
          acknowledged.push(...load.acknowledged);
          for (const body of load.acknowledgedBodies) identity.push(...identityValues(body));
          assert.equal(load.statuses.get(500) ?? 0, 0, 'no 500 under load');
        }
        service = await spawnService(target.env);
        state = await verify(`after restart ${ROUNDS}`);
        await stopGracefully(service);
        logs.push(...service.output);

        const leaks = findLeaks({
          values: [...identity, ...state.cardNumbers],
          ...(storeName === 'sqlite' ? { sqliteDirs: [target.dataDir] } : { postgres: [postgres!] }),
          logs,
        });
        assert.deepEqual(leaks, [], 'identity data in the clear');
        report(t, {
          part: `crash/${storeName}`,
          figures: {
            seed,
            kills: ROUNDS,
            acknowledged: acknowledged.length,
            found: acknowledged.filter((s) => state.serials.has(s)).length,
            'stored in all': state.rows,
            'duplicate serials': state.duplicateSerials,
            'duplicate card numbers': state.duplicateCardNumbers,
            integrity: `${state.integrity} (${state.integrityCheck})`,
            'leaks found': leaks.length,
          },
          held: [
            `kill moments (ms after first ack): ${killMoments.join(', ')}`,
            'every acknowledged application found in the store and readable over HTTP after each restart',
          ],
        });
      } finally {
        if (service !== undefined) await killHard(service);
        await ctx.store.close();
        await target.cleanup();
      }
    });
  });
}

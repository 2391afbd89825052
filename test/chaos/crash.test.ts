import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createApp } from '../../src/partners/credentials.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { spawnService, type ServiceProcess } from '../helpers/process.ts';
import { createStoreTarget, storeNames } from '../helpers/stores.ts';
import { findLeaks, identityValues } from './support/leaks.ts';
import { startLoad } from './support/load.ts';
import { killHard, stopGracefully, tokenFor, unreadable } from './support/service.ts';
import { inspectStore, type PostgresLocation, type StoreState } from './support/storeChecks.ts';
import { report, scale, seededRandom, seedOf, sleep } from './support/summary.ts';

/**
 * Crash: the service process is killed with SIGKILL at a random moment under concurrent submission
 * load, round after round on one store, through every commit path there is (PostgreSQL's grouped
 * statements; SQLite's writer thread, which holds a batch almost all the time under this load, so
 * kills land mid-batch; idempotency keys on a share of the requests). After every restart each
 * application acknowledged with code 0 so far is in the store, the previous round's are readable
 * over HTTP (and a sample of older ones); every few rounds and at the end the store passes its own
 * integrity check and no serial or card number occurs twice.
 *
 * CHAOS_KILLS sets the number of kills per store: 3 in `npm test`, 200 in `npm run test:chaos`.
 * CHAOS_SEED replays the kill moments of a run.
 */
const KILLS = Number(process.env['CHAOS_KILLS'] ?? scale(3, 200));
const CONCURRENCY = 16;
/** The full checks (integrity, duplicates, every card number decrypted) run this often. */
const FULL_CHECK_EVERY = 20;
/** Older acknowledged applications read back over HTTP after each restart. */
const SAMPLE = 20;
/** Acknowledged applications whose identity values are searched for in files, dumps and logs. */
const LEAK_SAMPLE = 500;

for (const storeName of storeNames()) {
  describe(`chaos: crash on ${storeName}`, () => {
    test(`${KILLS} SIGKILLs under load lose nothing acknowledged`, async (t) => {
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
      let killsInFlight = 0;
      let fullChecks = 0;
      let n = 0;
      let service: ServiceProcess | undefined;
      let previousRound: string[] = [];

      const storedSerials = async () =>
        new Set(
          (await ctx.store.db.selectFrom('applications').select('busi_water_no').execute()).map(
            (row) => row.busi_water_no,
          ),
        );
      const fullCheck = async (after: string): Promise<StoreState> => {
        fullChecks++;
        const state = await inspectStore(ctx, postgres);
        assert.equal(state.duplicateSerials, 0, `${after}: duplicate serials`);
        assert.equal(state.duplicateCardHashes, 0, `${after}: duplicate card number hashes`);
        assert.equal(state.duplicateCardNumbers, 0, `${after}: duplicate card numbers`);
        assert.equal(state.integrity, 'ok', `${after}: ${state.integrityCheck} failed`);
        return state;
      };
      const verify = async (after: string, full: boolean) => {
        const stored = await storedSerials();
        const missing = acknowledged.filter((s) => !stored.has(s));
        assert.deepEqual(
          missing,
          [],
          `${after}: ${missing.length} of ${acknowledged.length} acknowledged lost`,
        );
        const sample = Array.from(
          { length: Math.min(SAMPLE, acknowledged.length) },
          () => acknowledged[Math.floor(random() * acknowledged.length)]!,
        );
        const token = await tokenFor(service!.baseUrl, app);
        const lost = await unreadable(service!.baseUrl, token, app.app_id, [...previousRound, ...sample]);
        assert.deepEqual(lost, [], `${after}: acknowledged applications not readable over HTTP`);
        if (full) await fullCheck(after);
      };

      try {
        for (let round = 1; round <= KILLS; round++) {
          service = await spawnService(target.env);
          if (round > 1) await verify(`after restart ${round - 1}`, (round - 1) % FULL_CHECK_EVERY === 0);
          const token = await tokenFor(service.baseUrl, app);
          const current = service;
          let requests = 0;
          const load = startLoad({
            baseUrl: current.baseUrl,
            token,
            concurrency: CONCURRENCY,
            endOnConnectionError: true,
            next: () => uniqueApplicant(n++, app.app_id),
            // One request in four carries an Idempotency-Key: its record commits with the submission.
            headers: (): Record<string, string> =>
              requests++ % 4 === 0 ? { 'idempotency-key': `crash-${seed}-${n}` } : {},
          });
          // A random moment, once the load is running: anywhere from the first commits on.
          const firstAck = Date.now();
          while (load.acknowledged.length === 0 && Date.now() - firstAck < 20_000) await sleep(2);
          const delay = Math.floor(random() * scale(800, 1000));
          killMoments.push(delay);
          await sleep(delay);
          if (load.inFlight > 0) killsInFlight++;
          await killHard(current);
          await load.stop();
          logs.push(...current.output.slice(-200));
          acknowledged.push(...load.acknowledged);
          previousRound = [...load.acknowledged];
          for (const body of load.acknowledgedBodies.slice(0, Math.ceil(LEAK_SAMPLE / KILLS)))
            identity.push(...identityValues(body));
          assert.equal(load.statuses.get(500) ?? 0, 0, 'no 500 under load');
        }
        service = await spawnService(target.env);
        await verify(`after restart ${KILLS}`, false);
        const state = await fullCheck('at the end');
        await stopGracefully(service);
        logs.push(...service.output);

        const leaks = findLeaks({
          values: [...identity, ...state.cardNumbers.slice(0, LEAK_SAMPLE)],
          ...(storeName === 'sqlite' ? { sqliteDirs: [target.dataDir] } : { postgres: [postgres!] }),
          logs,
        });
        assert.deepEqual(leaks, [], 'identity data in the clear');
        report(t, {
          part: `crash/${storeName}`,
          figures: {
            seed,
            kills: KILLS,
            'kills with submissions in flight': killsInFlight,
            acknowledged: acknowledged.length,
            found: acknowledged.filter((s) => state.serials.has(s)).length,
            'stored in all': state.rows,
            'duplicate serials': state.duplicateSerials,
            'duplicate card numbers': state.duplicateCardNumbers,
            'full checks': fullChecks,
            integrity: `${state.integrity} (${state.integrityCheck})`,
            'leaks found': leaks.length,
          },
          held: [
            `kill moments (ms after first ack), first 20: ${killMoments.slice(0, 20).join(', ')}`,
            'every acknowledged application found in the store after each restart; the last round and a sample readable over HTTP',
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

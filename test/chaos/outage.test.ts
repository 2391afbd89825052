import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { createApp } from '../../src/partners/credentials.ts';
import { loadConfig } from '../../src/config.ts';
import { PATHS } from '../../src/http/paths.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { startPrivatePostgres } from '../helpers/privatePostgres.ts';
import { spawnService } from '../helpers/process.ts';
import { nowSeconds } from '../helpers/service.ts';
import { TEST_ENCRYPTION_KEYS } from '../helpers/stores.ts';
import { isEnvelope, send, type Exchange } from './support/http.ts';
import { findLeaks, identityValues } from './support/leaks.ts';
import { startLoad } from './support/load.ts';
import { contractValidator } from './support/contract.ts';
import { connectInspector, INSPECT_OPTIONS } from './support/inspector.ts';
import { isAlive, residentBytes, stopGracefully, tokenFor, unreadable } from './support/service.ts';
import { isStoreUnavailable } from '../../src/store/errors.ts';
import { inspectStore } from './support/storeChecks.ts';
import { eventually, FULL, report, scale, sleep } from './support/summary.ts';
import { skipWithout } from '../helpers/components.ts';

/**
 * Store outage: a private PostgreSQL (never the shared one) is stopped in the middle of submission
 * load and started again. While it is down every request gets a 503 envelope with Retry-After,
 * /readyz says not ready, the process stays up and its memory stays bounded; once it is back the
 * same process serves again by itself, and nothing acknowledged is lost. The full run adds a
 * second outage in which the database crashes (SIGKILL of the postmaster) and recovers.
 */
const OUTAGE_MS = scale(3_000, 20_000);
const RECOVERY_LIMIT_MS = 30_000;
/**
 * The live heap (after a full collection) may not grow by more than this over an outage: thousands
 * of refused requests, each leaking even a little, would. Resident memory is reported, not judged:
 * V8 lets it grow before it collects (it levels off near 180 MiB above the start in a long outage).
 */
const HEAP_GROWTH_LIMIT = 16 * 1024 * 1024;

describe('chaos: store outage', { skip: skipWithout('postgresBinaries') }, () => {
  test('PostgreSQL going away and coming back: 503s, then recovery without a restart', async (t) => {
    const database = await startPrivatePostgres();
    const dataDir = mkdtempSync(join(tmpdir(), 'cardapply-outage-'));
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      DATABASE_SCHEMA: 'outage',
      ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
      LOG_LEVEL: 'info',
      // No sanctions list here: readiness is about the store (test/screening/readiness.http.test.ts).
      SCREENING_REQUIRED: 'false',
    };
    const ctx = await openContext(loadConfig(env), createLogger({ logLevel: 'silent' }));
    const app = await createApp(ctx.store.db, 'outage partner', Date.now());
    const service = await spawnService({ ...env, NODE_OPTIONS: INSPECT_OPTIONS });
    const pid = service.child.pid;
    const inspector = await connectInspector(service.output);
    const contract = await contractValidator(await (await fetch(`${service.baseUrl}/openapi.json`)).json());
    let n = 0;
    const identity: string[] = [];
    const figures: Record<string, number | string> = {};
    const held: string[] = [];
    let stopLoad = async () => {};
    try {
      let token = await tokenFor(service.baseUrl, app);
      const duringOutage: Exchange[] = [];
      let down = false;
      const load = startLoad({
        baseUrl: service.baseUrl,
        token: () => token,
        concurrency: 8,
        endOnConnectionError: false,
        next: () => uniqueApplicant(n++, app.app_id),
        onReply: (reply) => {
          if (down) duringOutage.push(reply);
        },
        timeoutMs: 15_000,
      });
      stopLoad = () => load.stop();

      const outages: ('stop' | 'kill')[] = FULL ? ['stop', 'kill'] : ['stop'];
      let outageNumber = 0;
      for (const how of outages) {
        outageNumber++;
        const label = `outage ${outageNumber} (${how})`;
        const ackedBefore = load.acknowledged.length;
        assert.ok(await eventually(() => load.acknowledged.length >= ackedBefore + 20, 20_000), 'load runs');
        const acknowledgedBefore = [...load.acknowledged];
        const rssBefore = residentBytes(pid) ?? 0;
        const heapBefore = await inspector.heapAfterGc();
        if (how === 'stop') database.stop();
        else database.kill();
        // Requests already past the store when it stopped may still succeed: judge from here on.
        await sleep(300);
        duringOutage.length = 0;
        down = true;
        let maxRss = rssBefore;
        const readiness: Exchange[] = [];
        const tokenAttempts: Exchange[] = [];
        const started = Date.now();
        while (Date.now() - started < OUTAGE_MS) {
          readiness.push(await send(service.baseUrl, '/readyz', { method: 'GET' }));
          tokenAttempts.push(
            await send(service.baseUrl, PATHS.token, {
              body: { app_id: app.app_id, app_secret: app.app_secret, timestamp: nowSeconds() },
            }),
          );
          maxRss = Math.max(maxRss, residentBytes(pid) ?? 0);
          await sleep(250);
        }
        // A full collection at the end of the outage, the load still being refused.
        const heapEnd = await inspector.heapAfterGc();
        down = false;
        const refused = [...duringOutage, ...tokenAttempts];

        assert.ok(isAlive(service), `${label}: the process stays up`);
        assert.ok(refused.length > 0, `${label}: requests were made during the outage`);
        const wrong = refused.filter(
          (r) =>
            r.status !== 503 ||
            !isEnvelope(r.json) ||
            r.json.code !== 50301 ||
            r.headers.get('retry-after') === null ||
            (r.json.data as { retry_after?: unknown } | null)?.retry_after === undefined,
        );
        assert.deepEqual(
          wrong.slice(0, 3).map((r) => `${r.status} ${r.headers.get('retry-after')} ${r.text.slice(0, 200)}`),
          [],
          `${label}: ${wrong.length} of ${refused.length} requests were not a 503 envelope with Retry-After`,
        );
        // The 503s are what the document promises (checked with Prism's validator).
        const violations = refused.flatMap((r) => contract.check(r));
        assert.deepEqual(violations.slice(0, 3), [], `${label}: 503 answers break /openapi.json`);
        const notReady = readiness.filter(
          (r) => r.status === 503 && (r.json as { data?: { ready?: boolean } }).data?.ready === false,
        );
        assert.equal(notReady.length, readiness.length, `${label}: /readyz says not ready throughout`);
        assert.ok(
          heapEnd - heapBefore < HEAP_GROWTH_LIMIT,
          `${label}: the live heap grew by ${Math.round((heapEnd - heapBefore) / 1048576)} MiB during the outage`,
        );
        database.start();
        const back = Date.now();
        const recovered = await eventually(
          async () => (await send(service.baseUrl, '/readyz', { method: 'GET' })).status === 200,
          RECOVERY_LIMIT_MS,
          100,
        );
        assert.ok(recovered, `${label}: /readyz ready again within ${RECOVERY_LIMIT_MS} ms`);
        const ackedAtReturn = load.acknowledged.length;
        assert.ok(
          await eventually(() => load.acknowledged.length >= ackedAtReturn + 20, RECOVERY_LIMIT_MS),
          `${label}: submissions are acknowledged again without a restart`,
        );
        const recoveryMs = Date.now() - back;
        assert.equal(service.child.pid, pid);
        token = await tokenFor(service.baseUrl, app);
        const state = await inspectStore(ctx, { url: database.url, schema: 'outage' });
        const lost = acknowledgedBefore.filter((s) => !state.serials.has(s));
        assert.deepEqual(lost, [], `${label}: acknowledged before the outage and lost`);
        figures[`${label}: refused with 503`] = refused.length;
        figures[`${label}: recovered in ms`] = recoveryMs;
        figures[`${label}: live heap growth MiB`] = Math.round((heapEnd - heapBefore) / 1048576);
        figures[`${label}: resident growth MiB`] = Math.round((maxRss - rssBefore) / 1048576);
      }
      await load.stop();
      for (const body of load.acknowledgedBodies) identity.push(...identityValues(body));

      const state = await inspectStore(ctx, { url: database.url, schema: 'outage' });
      const missing = load.acknowledged.filter((s) => !state.serials.has(s));
      assert.deepEqual(missing, [], 'every acknowledged application is stored');
      assert.equal(state.integrity, 'ok', state.integrityCheck);
      assert.deepEqual(await unreadable(service.baseUrl, token, app.app_id, load.acknowledged), []);
      assert.equal(load.statuses.get(500) ?? 0, 0, 'no 500 during the run');
      assert.equal(load.connectionErrors, 0, 'no dropped connection during the run');
      // A process with an inspector session waits for it to end before it exits.
      inspector.close();
      assert.equal(await stopGracefully(service), 0, 'a graceful stop afterwards');

      const leaks = findLeaks({
        values: [...identity, ...state.cardNumbers],
        postgres: [{ url: database.url, schema: 'outage' }],
        logs: service.output,
      });
      assert.deepEqual(leaks, [], 'identity data in the clear');
      held.push(
        '503 + Retry-After envelope (as /openapi.json documents) for every request while down; /readyz not ready; process up',
        'recovered by itself (same pid), nothing acknowledged lost',
      );
      report(t, {
        part: 'outage/postgres',
        figures: {
          outages: outages.length,
          'outage ms': OUTAGE_MS,
          acknowledged: load.acknowledged.length,
          found: load.acknowledged.filter((s) => state.serials.has(s)).length,
          ...figures,
          '5xx other than 503': [...load.statuses].filter(([s]) => s >= 500 && s !== 503).length,
          'leaks found': leaks.length,
        },
        held,
      });
    } finally {
      await stopLoad();
      inspector.close();
      if (isAlive(service)) service.child.kill('SIGKILL');
      await service.exited;
      await ctx.store.close().catch(() => undefined);
      database.cleanup();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('chaos: store outage, regressions', { skip: skipWithout('postgresBinaries') }, () => {
  // Found by the outage test: a pool client checked out inside a transaction has no 'error'
  // listener (pg-pool removes its idle listener while the client is in use), so the server's
  // "terminating connection due to administrator command" between two statements was an uncaught
  // 'error' event that crashed the process.
  test('PostgreSQL shutting down between two statements of a transaction: an error, not a crash', async () => {
    const database = await startPrivatePostgres();
    const dataDir = mkdtempSync(join(tmpdir(), 'cardapply-outage-'));
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      DATABASE_SCHEMA: 'outage',
      ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
      SCREENING_REQUIRED: 'false',
    };
    const ctx = await openContext(loadConfig(env), createLogger({ logLevel: 'silent' }));
    try {
      const failure = await ctx.store
        .transaction(async (trx) => {
          await sql`select 1`.execute(trx);
          database.stop();
          // Let the server's goodbye arrive while no statement runs on this connection.
          await sleep(300);
          await sql`select 1`.execute(trx);
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      assert.ok(failure !== undefined, 'the transaction failed');
      assert.ok(isStoreUnavailable(failure), `classified as store unavailable: ${String(failure)}`);
      database.start();
      assert.ok(
        await eventually(
          () =>
            ctx.store.ping().then(
              () => true,
              () => false,
            ),
          10_000,
        ),
        'the store answers again',
      );
    } finally {
      await ctx.store.close().catch(() => undefined);
      database.cleanup();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

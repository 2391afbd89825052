import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { describe, test } from 'node:test';
import { createApp } from '../../src/partners/credentials.ts';
import { loadConfig } from '../../src/config.ts';
import { PATHS } from '../../src/http/paths.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';
import { addEndpoint } from '../../src/webhooks/endpoints.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { sample, scrape } from '../helpers/metrics.ts';
import { spawnService } from '../helpers/process.ts';
import { budgetMs } from '../helpers/budget.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { nowSeconds, post } from '../helpers/service.ts';
import { createStoreTarget, storeNames } from '../helpers/stores.ts';

/**
 * WORKERS=2: one command, two service processes on one port (node:cluster), on each store. New
 * connections are answered by both; the webhook dispatcher runs once (every event delivered
 * exactly once); one METRICS_PORT shows the whole machine (every worker's counters summed); a
 * worker killed with SIGKILL is replaced while the other keeps serving; SIGTERM stops them all.
 */
const SUBMISSIONS = 30;

/** A POST on a connection of its own, so that the primary hands each to the next worker. */
function postFresh(url: string, path: string, body: unknown, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${url}${path}`,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    // Fail rather than hang if a connection is ever lost (the ceiling grows with the machine's load).
    const ceiling = budgetMs(5_000);
    request.setTimeout(ceiling, () => request.destroy(new Error(`no answer within ${ceiling} ms`)));
    request.end(JSON.stringify(body));
  });
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Waits for a condition (a log line, a count), failing only past a ceiling derived from the load. */
async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const ceiling = budgetMs(10_000);
  const deadline = Date.now() + ceiling;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`waited ${ceiling} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface LogLine {
  msg?: string;
  metrics_url?: string;
  worker_index?: number;
  pid?: number;
  operation?: string;
}

for (const storeName of storeNames()) {
  describe(`WORKERS=2 on ${storeName}`, () => {
    test('two processes serve one port; webhooks go out once; a dead worker is replaced', async () => {
      const target = createStoreTarget(storeName);
      const receiver = await startReceiver();
      const env = { ...target.env, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_INTERVAL_MS: '50' };
      const service = await spawnService({ ...env, WORKERS: '2', METRICS_PORT: '0' });
      const lines = () =>
        service.output.flatMap((line) => {
          try {
            return [JSON.parse(line) as LogLine];
          } catch {
            return [];
          }
        });
      const ctx = await openContext(loadConfig(env), createLogger({ logLevel: 'silent' }), {
        migrate: false,
      });
      try {
        // Each worker says so itself too (its log is written asynchronously).
        await until(() => lines().filter((l) => l.msg === 'worker listening').length === 2, 'both workers');
        const workers = lines().filter((l) => l.msg === 'worker listening');
        assert.deepEqual(workers.map((l) => l.worker_index).sort(), [0, 1]);
        const pids = [0, 1].map((i) => workers.find((l) => l.worker_index === i)!.pid!);
        assert.equal(new Set(pids).size, 2, 'two processes');

        const app = await createApp(ctx.store.db, 'two-worker partner', Date.now());
        const endpoint = await addEndpoint(ctx, { appId: app.app_id, url: receiver.url });
        receiver.secrets.push(endpoint.secret);
        const token = (
          (await post(service.baseUrl, PATHS.token, { ...app, timestamp: nowSeconds() })).body.data as {
            access_token: string;
          }
        ).access_token;

        const submit = (n: number) =>
          postFresh(service.baseUrl, PATHS.apply, uniqueApplicant(n, app.app_id), token);
        const statuses = await Promise.all(Array.from({ length: SUBMISSIONS }, (_, n) => submit(n)));
        assert.deepEqual(
          statuses.filter((s) => s !== 200),
          [],
        );
        await until(
          () => lines().filter((l) => l.operation === 'application.submit').length === SUBMISSIONS,
          'the request log lines',
        );
        const answeredBy = new Set(
          lines()
            .filter((l) => l.operation === 'application.submit')
            .map((l) => l.worker_index),
        );
        assert.deepEqual([...answeredBy].sort(), [0, 1], 'both workers answered submissions');

        // One scrape shows the machine: both workers' submissions, summed.
        const metricsUrl = lines().find((l) => l.msg === 'metrics listening')?.metrics_url;
        assert.ok(metricsUrl !== undefined, 'the primary serves METRICS_PORT');
        const samples = await scrape(metricsUrl);
        assert.equal(sample(samples, 'cardapply_applications_submitted_total'), SUBMISSIONS);
        assert.equal(
          sample(samples, 'cardapply_http_requests_total', {
            operation: 'application.submit',
            status_code: '200',
          }),
          SUBMISSIONS,
        );

        // One dispatcher for the machine: each event exactly once.
        await receiver.waitFor(
          () => receiver.received.length >= SUBMISSIONS,
          budgetMs(10_000),
          'every event',
        );
        // Once the store records every delivery as done, each after one attempt, no second
        // dispatcher can still be sending one: then the receiver's count is final.
        const deliveries = () =>
          ctx.store.db.selectFrom('deliveries').select(['status', 'attempt_count']).execute();
        await until(async () => {
          const rows = await deliveries();
          return rows.length >= SUBMISSIONS && rows.every((row) => row.status === 'delivered');
        }, 'every delivery recorded as delivered');
        assert.deepEqual(
          (await deliveries()).map((row) => row.attempt_count),
          Array.from({ length: SUBMISSIONS }, () => 1),
          'one delivery per event, one attempt each',
        );
        assert.equal(receiver.received.length, SUBMISSIONS, 'no event delivered twice');
        assert.ok(receiver.received.every((r) => r.verifiedBy === 0));

        // A worker killed outright is replaced; the other serves meanwhile. (A connection handed to
        // it in the instant before the primary sees it die is lost with it, as with any crash.)
        process.kill(pids[1]!, 'SIGKILL');
        await until(() => lines().some((l) => l.msg === 'worker died: starting another'), 'the primary');
        let next = SUBMISSIONS;
        for (let n = 0; n < 5; n++) assert.equal(await submit(next++), 200);
        await until(() => lines().filter((l) => l.msg === 'worker listening').length === 3, 'a new worker');
        const replacement = lines().filter((l) => l.msg === 'worker listening')[2]!;
        assert.equal(replacement.worker_index, 1, 'it takes the place of the dead one');
        assert.notEqual(replacement.pid, pids[1]);
        const before = lines().length;
        for (let n = 0; n < 10; n++) assert.equal(await submit(next++), 200);
        await until(
          () =>
            lines()
              .slice(before)
              .filter((l) => l.operation === 'application.submit').length === 10,
          'the request log lines',
        );
        assert.ok(
          lines()
            .slice(before)
            .some((l) => l.operation === 'application.submit' && l.worker_index === 1),
          'the new worker serves',
        );

        // SIGTERM to the primary stops every worker gracefully.
        service.child.kill('SIGTERM');
        assert.equal(await service.exited, 0);
        assert.ok(![pids[0]!, replacement.pid!].some(isAlive), 'no worker left behind');
      } finally {
        service.child.kill('SIGKILL');
        await ctx.store.close();
        await receiver.close();
        await target.cleanup();
      }
    });
  });
}

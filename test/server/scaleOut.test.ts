import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { createApp } from '../../src/partners/credentials.ts';
import { setRateLimit } from '../../src/partners/manageCredentials.ts';
import { loadConfig } from '../../src/config.ts';
import { ERRORS } from '../../src/errors/catalogue.ts';
import { PATHS } from '../../src/http/paths.ts';
import { createLogger } from '../../src/logger.ts';
import { loadMigrations } from '../../src/store/migrate.ts';
import { openContext } from '../../src/start.ts';
import { addEndpoint } from '../../src/webhooks/endpoints.ts';
import { budgetMs } from '../helpers/budget.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { sample, scrape } from '../helpers/metrics.ts';
import { spawnService, type ServiceProcess } from '../helpers/process.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { nowSeconds, post, type Reply } from '../helpers/service.ts';
import { createStoreTarget } from '../helpers/stores.ts';
import { SYSTEM } from '../../src/audit/actor.ts';
import { skipWithout } from '../helpers/components.ts';

/**
 * Three service processes on one PostgreSQL schema and one Redis, started at once on a fresh
 * schema, behind a round-robin client: they migrate once, and submissions, queries, duplicate
 * checks, events, webhook deliveries and rate limits behave as one service.
 */
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const INSTANCES = 3;
const SUBMISSIONS = 60;

class RoundRobin {
  #next = 0;
  readonly urls: string[];
  constructor(urls: string[]) {
    this.urls = urls;
  }
  next(): string {
    return this.urls[this.#next++ % this.urls.length]!;
  }
}

describe('scale-out', () => {
  test(
    'three instances on one PostgreSQL and one Redis behave as one service',
    { skip: skipWithout('postgres', 'redis') },
    async () => {
      const target = createStoreTarget('postgres');
      const env = {
        ...target.env,
        REDIS_URL,
        REDIS_KEY_PREFIX: `t${randomBytes(4).toString('hex')}:`,
        DATABASE_POOL_SIZE: '4',
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_POLL_INTERVAL_MS: '50',
      };
      const receiver = await startReceiver();
      // Started at once on a fresh schema: the migrations run exactly once between them.
      const processes: ServiceProcess[] = await Promise.all(
        Array.from({ length: INSTANCES }, () => spawnService(env)),
      );
      const ctx = await openContext(loadConfig(env), createLogger({ logLevel: 'silent' }), {
        migrate: false,
      });
      try {
        const status = await ctx.store.migrationStatus();
        assert.equal(status.length, loadMigrations('postgres').length);
        assert.ok(
          status.every((m) => m.appliedAt !== null),
          'all applied; every instance started',
        );
        const client = new RoundRobin(processes.map((p) => p.baseUrl));
        for (const url of client.urls) assert.equal((await fetch(`${url}/readyz`)).status, 200);

        const app = await createApp(ctx.store.db, 'scale-out partner', Date.now());
        const endpoint = await addEndpoint(ctx, { appId: app.app_id, url: receiver.url });
        receiver.secrets.push(endpoint.secret);
        const token = (
          (await post(client.next(), PATHS.token, { ...app, timestamp: nowSeconds() })).body.data as {
            access_token: string;
          }
        ).access_token;
        const call = (path: string, body: Record<string, unknown>, url = client.next()) =>
          post(url, path, { app_id: app.app_id, timestamp: nowSeconds(), ...body }, { token });

        // Submissions, spread over the instances.
        const serials: string[] = [];
        let n = 0;
        await Promise.all(
          Array.from({ length: 6 }, async () => {
            while (n < SUBMISSIONS) {
              const reply = await post(client.next(), PATHS.apply, uniqueApplicant(n++, app.app_id), {
                token,
              });
              assert.equal(reply.body.code, 0, reply.text);
              serials.push((reply.body.data as { busi_water_no: string }).busi_water_no);
            }
          }),
        );
        assert.equal(new Set(serials).size, SUBMISSIONS);

        // Every application is found through every instance.
        for (const serial of serials) {
          const reply = await call(PATHS.query, { busi_water_no: serial });
          assert.equal(reply.body.code, 0, reply.text);
        }

        // One document sent to all three at once: one application, two duplicates.
        const same = uniqueApplicant(SUBMISSIONS + 1, app.app_id);
        const raced = await Promise.all(client.urls.map((url) => post(url, PATHS.apply, same, { token })));
        assert.deepEqual(raced.map((r) => r.body.code).sort(), [
          0,
          ERRORS.duplicateApplication.code,
          ERRORS.duplicateApplication.code,
        ]);

        // Transitions on any instance.
        for (const serial of serials.slice(0, 10)) {
          const reply = await call(PATHS.cancel, { busi_water_no: serial });
          assert.equal(reply.body.code, 0, reply.text);
        }
        const expectedEvents = SUBMISSIONS + 1 + 10;

        // Every instance lists the same events.
        const eventIds: string[][] = [];
        for (const url of client.urls) {
          const ids: string[] = [];
          let cursor: string | undefined;
          do {
            const reply: Reply = await call(PATHS.events, { limit: 100, ...(cursor ? { cursor } : {}) }, url);
            assert.equal(reply.body.code, 0, reply.text);
            const page = reply.body.data as { items: { id: string }[]; next_cursor: string | null };
            ids.push(...page.items.map((e) => e.id));
            cursor = page.next_cursor ?? undefined;
          } while (cursor !== undefined);
          eventIds.push(ids.sort());
        }
        assert.equal(eventIds[0]!.length, expectedEvents);
        assert.deepEqual(eventIds[1], eventIds[0]);
        assert.deepEqual(eventIds[2], eventIds[0]);

        // Three dispatchers, each event delivered once.
        await receiver.waitFor(
          () => receiver.acknowledged().size === expectedEvents,
          budgetMs(10_000),
          'every event delivered',
        );
        assert.deepEqual([...receiver.acknowledged().keys()].sort(), eventIds[0]);
        assert.ok(
          [...receiver.acknowledged().values()].every((count) => count === 1),
          'each delivered once',
        );
        assert.ok(
          receiver.received.every((r) => r.verifiedBy >= 0),
          'every delivery signed',
        );

        // One rate limit for the app, shared through Redis: a burst of 10, not 10 per instance.
        const limited = await createApp(ctx.store.db, 'limited partner', Date.now());
        await setRateLimit(
          ctx,
          limited.app_id,
          { perSecond: 1, burst: 10 },
          { actor: SYSTEM, source: 'test' },
        );
        const limitedToken = (
          (await post(client.next(), PATHS.token, { ...limited, timestamp: nowSeconds() })).body.data as {
            access_token: string;
          }
        ).access_token;
        const started = Date.now();
        const flood = await Promise.all(
          Array.from({ length: 30 }, () =>
            post(
              client.next(),
              PATHS.query,
              { app_id: limited.app_id, timestamp: nowSeconds(), busi_water_no: serials[0] },
              { token: limitedToken },
            ),
          ),
        );
        const allowed = flood.filter((r) => r.status !== 429).length;
        const refill = Math.ceil((Date.now() - started) / 1000);
        assert.ok(
          allowed >= 10 && allowed <= 10 + refill,
          `allowed ${allowed} of 30 with a shared burst of 10`,
        );

        // The metrics of the three add up to the traffic.
        const all = await Promise.all(client.urls.map((url) => scrape(`${url}/metrics`)));
        const total = (name: string, labels: Record<string, string> = {}) =>
          all.reduce((sum, m) => sum + sample(m, name, labels), 0);
        assert.equal(total('cardapply_applications_submitted_total'), SUBMISSIONS + 1);
        assert.equal(total('cardapply_rate_limit_rejections_total', { limit: 'app' }), 30 - allowed);
        assert.equal(total('cardapply_webhook_deliveries_total', { outcome: 'delivered' }), expectedEvents);
        assert.ok(
          all.every((m) => sample(m, 'cardapply_applications_submitted_total') > 0),
          'every instance served',
        );
      } finally {
        for (const p of processes) p.child.kill('SIGTERM');
        await Promise.all(processes.map((p) => p.exited));
        await receiver.close();
        await ctx.store.close();
        await target.cleanup();
      }
    },
  );
});

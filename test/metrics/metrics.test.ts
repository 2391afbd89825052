import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createApp } from '../../src/partners/credentials.ts';
import { setRateLimit } from '../../src/partners/manageCredentials.ts';
import { ERRORS } from '../../src/errors/catalogue.ts';
import { loadConfig } from '../../src/config.ts';
import { PATHS } from '../../src/http/paths.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';
import { addEndpoint } from '../../src/webhooks/endpoints.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { sample, scrape } from '../helpers/metrics.ts';
import { move } from '../helpers/operators.ts';
import { spawnService } from '../helpers/process.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { newPartner, nowSeconds, post, startService } from '../helpers/service.ts';
import { createStoreTarget, storeNames } from '../helpers/stores.ts';
import { SYSTEM } from '../../src/audit/actor.ts';

/**
 * /metrics after known traffic: every count is what the traffic made, on each store; and with
 * METRICS_PORT, a separate listener in a real process, with webhook deliveries by outcome and the
 * age of the oldest undelivered event.
 */
const EMAIL_INVALID = String(ERRORS.emailInvalid.code);

for (const storeName of storeNames()) {
  describe(`metrics on ${storeName}`, () => {
    test('requests, submissions, transitions, validation failures and rate-limit refusals are counted', async () => {
      const service = await startService(storeName);
      try {
        const partner = await newPartner(service, 'metrics partner');
        const serials: string[] = [];
        for (let i = 0; i < 5; i++) {
          const reply = await post(service.baseUrl, PATHS.apply, uniqueApplicant(i, partner.appId), {
            token: partner.token,
          });
          assert.equal(reply.body.code, 0, reply.text);
          serials.push((reply.body.data as { busi_water_no: string }).busi_water_no);
        }
        for (let i = 0; i < 3; i++) {
          const bad = uniqueApplicant(10 + i, partner.appId, { email: 'not-an-email' });
          const reply = await post(service.baseUrl, PATHS.apply, bad, { token: partner.token });
          assert.equal(reply.status, 422);
          const codes = (reply.body.data as { errors: { code: number }[] }).errors.map((e) => e.code);
          assert.deepEqual(codes, [ERRORS.emailInvalid.code]);
        }
        await move(service, serials[0]!, 'IN_REVIEW', partner.appId);
        await move(service, serials[0]!, 'REJECTED', partner.appId);

        // An app of its own with a burst of 2: a flood of 6 sees 429s.
        const limited = await newPartner(service, 'limited partner');
        await setRateLimit(
          service.ctx,
          limited.appId,
          { perSecond: 1, burst: 2 },
          { actor: SYSTEM, source: 'test' },
        );
        const flood = await Promise.all(
          Array.from({ length: 6 }, () =>
            post(
              service.baseUrl,
              PATHS.query,
              { app_id: limited.appId, timestamp: nowSeconds(), busi_water_no: serials[1] },
              { token: limited.token },
            ),
          ),
        );
        const refused = flood.filter((r) => r.status === 429).length;
        assert.ok(refused >= 3, `a burst of 2 lets at most 3 of 6 through, refused ${refused}`);

        const m = await scrape(`${service.baseUrl}/metrics`);
        const requests = (operation: string, status: number) =>
          sample(m, 'cardapply_http_requests_total', { operation, status_code: String(status) });
        assert.equal(requests('application.submit', 200), 5);
        assert.equal(requests('application.submit', 422), 3);
        assert.equal(requests('auth.token', 200), 2);
        assert.equal(requests('application.query', 429), refused);
        assert.equal(
          sample(m, 'cardapply_http_request_duration_seconds_count', { operation: 'application.submit' }),
          8,
        );
        assert.equal(sample(m, 'cardapply_applications_submitted_total'), 5);
        assert.equal(
          sample(m, 'cardapply_application_transitions_total', { from: 'SUBMITTED', to: 'IN_REVIEW' }),
          1,
        );
        assert.equal(
          sample(m, 'cardapply_application_transitions_total', { from: 'IN_REVIEW', to: 'REJECTED' }),
          1,
        );
        assert.equal(sample(m, 'cardapply_validation_failures_total', { code: EMAIL_INVALID }), 3);
        assert.equal(sample(m, 'cardapply_rate_limit_rejections_total', { limit: 'app' }), refused);
        // Process metrics of the private registry.
        assert.ok(m.has('cardapply_process_cpu_user_seconds_total'));
        assert.ok(m.has('cardapply_nodejs_eventloop_lag_seconds'));
        // Store pool (PostgreSQL only) and the webhook queue, read from the store.
        if (storeName === 'postgres') {
          assert.ok(sample(m, 'cardapply_store_pool_connections', { state: 'total' }) >= 1);
        } else {
          assert.equal(m.has('cardapply_store_pool_connections{state="total"}'), false);
        }
        // The five submissions went through grouped commits (SQLite's writer thread, PostgreSQL's
        // batches), one at a time here: at least five units, each commit carrying one or more.
        const units = sample(m, 'cardapply_store_group_commit_units_total');
        const commits = sample(m, 'cardapply_store_group_commits_total');
        assert.ok(units >= 5, `units ${units}`);
        assert.ok(commits >= 1 && commits <= units, `commits ${commits}, units ${units}`);
        assert.equal(sample(m, 'cardapply_webhook_deliveries_pending'), 0);
        // No dispatcher runs in this in-process service: the submitted events wait, and age.
        assert.ok(m.has('cardapply_webhook_oldest_undelivered_event_age_seconds'));
        // Never anything a partner sent.
        const text = await (await fetch(`${service.baseUrl}/metrics`)).text();
        assert.equal(text.includes(partner.appId), false);
        assert.equal(text.includes(serials[0]!), false);
      } finally {
        await service.close();
      }
    });

    test('METRICS_PORT serves /metrics apart, with webhook deliveries by outcome and the oldest undelivered event', async () => {
      const target = createStoreTarget(storeName);
      const env = {
        ...target.env,
        METRICS_PORT: '0',
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_POLL_INTERVAL_MS: '50',
        WEBHOOK_TIMEOUT_MS: '1000',
        WEBHOOK_LEASE_MS: '2000',
        WEBHOOK_BACKOFF_BASE_MS: '50',
        WEBHOOK_BACKOFF_MAX_MS: '200',
      };
      const ctx = await openContext(loadConfig(env), createLogger({ logLevel: 'silent' }));
      let healthy = false;
      const receiver = await startReceiver([], () => ({ status: healthy ? 204 : 500 }));
      const service = await spawnService(env);
      try {
        const line = service.output.find((l) => l.includes('metrics_url'));
        assert.ok(line !== undefined, 'the metrics listener is logged');
        const metricsUrl = (JSON.parse(line) as { metrics_url: string }).metrics_url;
        assert.equal((await fetch(`${service.baseUrl}/metrics`)).status, 404, 'not on the main port');

        const app = await createApp(ctx.store.db, 'webhook metrics partner', Date.now());
        const appId = app.app_id;
        const endpoint = await addEndpoint(ctx, { appId, url: receiver.url });
        receiver.secrets.push(endpoint.secret);
        const exchanged = await post(service.baseUrl, PATHS.token, { ...app, timestamp: nowSeconds() });
        const partner = (exchanged.body.data as { access_token: string }).access_token;
        const first = await post(service.baseUrl, PATHS.apply, uniqueApplicant(0, appId), { token: partner });
        assert.equal(first.body.code, 0, first.text);

        // The receiver fails: attempts are retried, the event waits and ages.
        await receiver.waitFor(() => receiver.received.length >= 2, 10_000, 'two failed attempts');
        await new Promise((r) => setTimeout(r, 1100));
        const failing = await scrape(metricsUrl);
        assert.ok(sample(failing, 'cardapply_webhook_deliveries_total', { outcome: 'retry' }) >= 2);
        assert.equal(sample(failing, 'cardapply_webhook_deliveries_total', { outcome: 'delivered' }), 0);
        assert.equal(sample(failing, 'cardapply_webhook_deliveries_pending'), 1);
        assert.ok(sample(failing, 'cardapply_webhook_oldest_undelivered_event_age_seconds') >= 1);

        healthy = true;
        for (let i = 1; i <= 2; i++) {
          const reply = await post(service.baseUrl, PATHS.apply, uniqueApplicant(i, appId), {
            token: partner,
          });
          assert.equal(reply.body.code, 0, reply.text);
        }
        await receiver.waitFor(() => receiver.acknowledged().size === 3, 10_000, 'three events delivered');
        // Store-read gauges are cached for a few seconds: wait for a fresh reading.
        let done = await scrape(metricsUrl);
        for (let i = 0; i < 40 && sample(done, 'cardapply_webhook_deliveries_pending') !== 0; i++) {
          await new Promise((r) => setTimeout(r, 250));
          done = await scrape(metricsUrl);
        }
        assert.equal(sample(done, 'cardapply_webhook_deliveries_total', { outcome: 'delivered' }), 3);
        assert.equal(sample(done, 'cardapply_webhook_deliveries_pending'), 0);
        assert.equal(sample(done, 'cardapply_webhook_oldest_undelivered_event_age_seconds'), 0);
        assert.equal(sample(done, 'cardapply_applications_submitted_total'), 3);
      } finally {
        service.child.kill('SIGTERM');
        await service.exited;
        await receiver.close();
        await ctx.store.close();
        await target.cleanup();
      }
    });
  });
}

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { PATHS } from '../../src/http/paths.ts';
import { partnerAuthentication } from '../../src/http/partnerAuth.ts';
import { setConcurrencyLimit } from '../../src/partners/manageCredentials.ts';
import { SYSTEM } from '../../src/audit/actor.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { createStoreTarget, storeNames } from '../helpers/stores.ts';
import {
  newPartner,
  nowSeconds,
  post,
  startInstanceOn,
  type TestPartner,
  type TestService,
} from '../helpers/service.ts';

/**
 * The per-app concurrency cap (APP_CONCURRENCY_LIMIT) over real HTTP on each store. Requests are
 * held in progress deterministically by a test-only partner route behind the real authentication
 * hook, which waits until the test opens its gate; the refused and the passing requests are the
 * real submit operation.
 */
const LIMIT = 2;
const HELD = '/test/held';

let gate: { open: () => void; opened: Promise<void> };
function closeGate(): void {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  gate = { open, opened };
}

/** A request of `partner` that stays in progress until the gate opens (or the client gives up). */
function held(service: TestService, partner: TestPartner, signal?: AbortSignal): Promise<Response> {
  return fetch(`${service.baseUrl}${HELD}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: partner.token },
    body: JSON.stringify({ app_id: partner.appId, timestamp: nowSeconds() }),
    ...(signal === undefined ? {} : { signal }),
  });
}

/**
 * A submission whose headers announce a body that is never sent: the status it is answered with,
 * or undefined when no answer comes within `ms` (the service is waiting for the body).
 */
function bodiless(service: TestService, partner: TestPartner, ms: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = httpRequest(`${service.baseUrl}${PATHS.apply}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': '4000',
        authorization: `Bearer ${partner.token}`,
      },
    });
    const timer = setTimeout(() => {
      req.destroy();
      resolve(undefined);
    }, ms);
    req.on('response', (response) => {
      clearTimeout(timer);
      response.resume();
      req.destroy();
      resolve(response.statusCode);
    });
    req.on('error', () => undefined);
    req.flushHeaders();
  });
}

async function inFlightBecomes(service: TestService, appId: string, expected: number): Promise<void> {
  const concurrency = service.app.limits.concurrency;
  for (let i = 0; i < 200 && concurrency.inFlight(appId) !== expected; i++) await sleep(10);
  assert.equal(concurrency.inFlight(appId), expected, `requests of ${appId} in progress`);
}

for (const storeName of storeNames()) {
  describe(`per-app concurrency cap on ${storeName}`, () => {
    let service: TestService;
    let applicants = 0;
    const submit = (partner: TestPartner, body?: unknown) =>
      post(service.baseUrl, PATHS.apply, body ?? uniqueApplicant(applicants++, partner.appId), {
        token: partner.token,
      });

    before(async () => {
      const target = createStoreTarget(storeName);
      const instance = await startInstanceOn(target, { APP_CONCURRENCY_LIMIT: String(LIMIT) }, (app, ctx) => {
        void app.register(async (scope) => {
          scope.addHook('preValidation', partnerAuthentication(ctx));
          scope.post(HELD, { config: { operation: 'test.held' } }, async () => {
            await gate.opened;
            return { code: 0, data: null, msg: 'ok' };
          });
        });
      });
      service = {
        ...instance,
        close: async () => {
          await instance.close();
          await target.cleanup();
        },
      };
    });
    after(() => service.close());

    test('the excess of one app is refused at once with the envelope and Retry-After; another app passes', async () => {
      const flooder = await newPartner(service, 'flooder');
      const other = await newPartner(service, 'other');
      closeGate();
      const holding = [held(service, flooder), held(service, flooder)];
      await inFlightBecomes(service, flooder.appId, LIMIT);

      // Refused before validation: an empty application is a 429, not a list of missing fields.
      for (const language of ['en', 'zh']) {
        const refused = await post(
          service.baseUrl,
          PATHS.apply,
          { app_id: flooder.appId, timestamp: nowSeconds() },
          { token: flooder.token, headers: { 'accept-language': language } },
        );
        assert.equal(refused.status, 429, refused.text);
        assert.equal(refused.body.code, 42904);
        assert.equal(refused.headers.get('retry-after'), '1');
        assert.deepEqual(refused.body.data, { retry_after: 1 });
        assert.ok(refused.body.msg.startsWith('app_id: '), refused.body.msg);
        assert.ok(refused.body.msg.includes(flooder.appId) && refused.body.msg.includes(String(LIMIT)));
        if (language === 'zh') assert.match(refused.body.msg, /同时处理上限/);
        else assert.match(refused.body.msg, /in progress/);
      }
      const fresh = await submit(flooder);
      assert.equal(fresh.status, 429, fresh.text);

      const passed = await Promise.all([submit(other), submit(other)]);
      for (const reply of passed) assert.equal(reply.status, 200, reply.text);
      await inFlightBecomes(service, other.appId, 0);

      gate.open();
      for (const reply of await Promise.all(holding)) assert.equal(reply.status, 200);
      await inFlightBecomes(service, flooder.appId, 0);
      assert.equal((await submit(flooder)).status, 200);
      const metrics = await (await fetch(`${service.baseUrl}/metrics`)).text();
      assert.match(metrics, /cardapply_rate_limit_rejections_total\{limit="concurrency"\} 3/);
    });

    test('an app over its cap is refused before its body is read, once its token is known', async () => {
      const flooder = await newPartner(service, 'early');
      closeGate();
      const holding = [held(service, flooder), held(service, flooder)];
      await inFlightBecomes(service, flooder.appId, LIMIT);
      // A refused submission puts the token in the process's cache (TOKEN_CACHE_MS) if it is not
      // there; the bodiless one right after is refused on its headers alone. The cache can lapse
      // in between, once: then the next pair finds it fresh.
      let status: number | undefined;
      for (let attempt = 0; attempt < 3 && status === undefined; attempt++) {
        assert.equal((await submit(flooder)).status, 429);
        status = await bodiless(service, flooder, 1_500);
      }
      assert.equal(status, 429, 'refused without waiting for the body');
      gate.open();
      for (const reply of await Promise.all(holding)) assert.equal(reply.status, 200);
      await inFlightBecomes(service, flooder.appId, 0);
      // With a slot free, the same request waits for its body, as any other admitted request does.
      assert.equal(await bodiless(service, flooder, 300), undefined);
      await inFlightBecomes(service, flooder.appId, 0);
    });

    test("an app's own limit replaces the default for it alone, and --default brings the default back", async () => {
      const large = await newPartner(service, 'large');
      const by = { actor: SYSTEM, source: 'test' };
      const own = LIMIT + 2;
      await setConcurrencyLimit(service.ctx, large.appId, own, by);
      // The token's cached view of the app was dropped by the change: the next request reads it.
      closeGate();
      const holding = Array.from({ length: own }, () => held(service, large));
      await inFlightBecomes(service, large.appId, own);
      const refused = await submit(large);
      assert.equal(refused.status, 429, refused.text);
      assert.equal(refused.body.code, 42904);
      assert.ok(refused.body.msg.includes(String(own)), refused.body.msg);
      gate.open();
      for (const reply of await Promise.all(holding)) assert.equal(reply.status, 200);
      await inFlightBecomes(service, large.appId, 0);

      await setConcurrencyLimit(service.ctx, large.appId, null, by);
      closeGate();
      const back = [held(service, large), held(service, large)];
      await inFlightBecomes(service, large.appId, LIMIT);
      assert.equal((await submit(large)).status, 429);
      gate.open();
      await Promise.all(back);
      await inFlightBecomes(service, large.appId, 0);
    });

    test('aborted and timed-out requests give their slots back, each once', async () => {
      const partner = await newPartner(service, 'impatient');
      closeGate();
      const aborted = new AbortController();
      const gone = [
        held(service, partner, aborted.signal),
        held(service, partner, AbortSignal.timeout(300)),
      ].map((request) =>
        request.then(
          () => assert.fail('answered while held'),
          (error: unknown) => error,
        ),
      );
      await inFlightBecomes(service, partner.appId, LIMIT);
      aborted.abort();
      const reasons = await Promise.all(gone);
      assert.deepEqual(
        reasons.map((error) => (error as Error).name),
        ['AbortError', 'TimeoutError'],
      );
      // Freed when the connections closed, though their handlers still wait at the gate.
      await inFlightBecomes(service, partner.appId, 0);

      // Exactly zero, not below: the limit holds again, and the late handlers free nothing twice.
      closeGate();
      const holding = [held(service, partner), held(service, partner)];
      await inFlightBecomes(service, partner.appId, LIMIT);
      assert.equal((await submit(partner)).status, 429);
      gate.open();
      await Promise.all(holding);
      await inFlightBecomes(service, partner.appId, 0);
      assert.equal((await submit(partner)).status, 200);
    });
  });
}

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { setRateLimit } from '../../src/partners/manageCredentials.ts';
import { PATHS } from '../../src/http/paths.ts';
import { startInstances, type Instances } from '../helpers/instances.ts';
import {
  newPartner,
  nowSeconds,
  post,
  startService,
  type Reply,
  type TestPartner,
  type TestService,
} from '../helpers/service.ts';
import { SYSTEM } from '../../src/audit/actor.ts';
import { skipWithout } from '../helpers/components.ts';

/**
 * Rate limits over real HTTP: per app, in memory for one instance and shared through the real
 * Redis by several; the token exchange's limit on failed secrets. The store does not matter here
 * (the limits never touch it), so these run on SQLite.
 */

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const LIMITED = { RATE_LIMIT_PER_SECOND: '2', RATE_LIMIT_BURST: '10' };
const by = { actor: SYSTEM, source: 'test' };

/** A cheap authenticated request: a query for a serial that does not exist (404 when allowed). */
function query(baseUrl: string, partner: TestPartner): Promise<Reply> {
  return post(
    baseUrl,
    PATHS.query,
    { app_id: partner.appId, timestamp: nowSeconds(), busi_water_no: 'NOSUCHSERIAL' },
    { token: partner.token },
  );
}

/** The most a bucket of `burst` at 2/s can let through since `started`. */
function refilled(burst: number, started: number): number {
  return burst + Math.ceil(((Date.now() - started) / 1000) * 2);
}

function assertLimitHeaders(reply: Reply, limit: number): void {
  assert.equal(reply.headers.get('ratelimit-limit'), String(limit), reply.text);
  assert.match(reply.headers.get('ratelimit-remaining') ?? '', /^[0-9]+$/);
  assert.match(reply.headers.get('ratelimit-reset') ?? '', /^[0-9]+$/);
}

describe('rate limit in memory, one instance', () => {
  let service: TestService;
  before(async () => {
    service = await startService('sqlite', LIMITED);
  });
  after(() => service.close());

  test('a flood against one app sees 429s with Retry-After while another app still passes', async () => {
    const flooder = await newPartner(service, 'flooder');
    const bystander = await newPartner(service, 'bystander');
    const started = Date.now();
    const replies = await Promise.all(Array.from({ length: 40 }, () => query(service.baseUrl, flooder)));
    const limited = replies.filter((r) => r.status === 429);
    const passed = replies.filter((r) => r.status === 404);
    assert.equal(limited.length + passed.length, 40);
    assert.ok(passed.length >= 10 && passed.length <= refilled(10, started), `${passed.length} passed`);
    for (const reply of replies) assertLimitHeaders(reply, 10);
    for (const reply of limited) {
      assert.equal(reply.body.code, 42901);
      const retryAfter = Number(reply.headers.get('retry-after'));
      assert.ok(retryAfter >= 1 && retryAfter <= 1, `Retry-After ${retryAfter}`);
      assert.deepEqual(reply.body.data, { retry_after: retryAfter });
      assert.equal(reply.headers.get('ratelimit-remaining'), '0');
    }
    const other = await query(service.baseUrl, bystander);
    assert.equal(other.status, 404, other.text);
    assert.equal(other.headers.get('ratelimit-remaining'), '9');
  });

  test('every authenticated response carries the headers, errors included; the bucket refills', async () => {
    const partner = await newPartner(service);
    const first = await query(service.baseUrl, partner);
    assertLimitHeaders(first, 10);
    assert.equal(first.headers.get('ratelimit-remaining'), '9');
    assert.equal(first.headers.get('ratelimit-reset'), '1');
    const invalid = await post(
      service.baseUrl,
      PATHS.apply,
      { app_id: partner.appId, timestamp: nowSeconds() },
      {
        token: partner.token,
      },
    );
    assert.equal(invalid.status, 422);
    assertLimitHeaders(invalid, 10);
    const stale = await post(
      service.baseUrl,
      PATHS.query,
      { app_id: partner.appId, timestamp: 1, busi_water_no: 'X' },
      {
        token: partner.token,
      },
    );
    assert.equal(stale.status, 401);
    assertLimitHeaders(stale, 10);
    assert.equal(stale.headers.get('ratelimit-remaining'), '7');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const later = await query(service.baseUrl, partner);
    assert.equal(later.headers.get('ratelimit-remaining'), '8', 'two tokens back after a second at 2/s');
  });

  test("an operator's per-app limit replaces the default", async () => {
    const partner = await newPartner(service);
    await setRateLimit(service.ctx, partner.appId, { perSecond: 1, burst: 3 }, by);
    const started = Date.now();
    const replies = await Promise.all(Array.from({ length: 8 }, () => query(service.baseUrl, partner)));
    const passed = replies.filter((r) => r.status === 404).length;
    assert.ok(passed >= 3 && passed <= 3 + Math.ceil((Date.now() - started) / 1000), `${passed} passed`);
    assert.equal(replies.filter((r) => r.status === 429).length, 8 - passed);
    for (const reply of replies) assertLimitHeaders(reply, 3);
    await setRateLimit(service.ctx, partner.appId, null, by);
    const back = await query(service.baseUrl, partner);
    assertLimitHeaders(back, 10);
  });
});

describe('rate limit shared through Redis', { skip: skipWithout('redis') }, () => {
  let group: Instances;
  let prefix: string;
  before(async () => {
    prefix = `cardapply-test-${randomBytes(6).toString('hex')}:`;
    group = await startInstances('sqlite', 2, { ...LIMITED, REDIS_URL, REDIS_KEY_PREFIX: prefix });
  });
  after(async () => {
    await group.close();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  test('two instances enforce one limit', async () => {
    const [one, two] = group.instances.map((i) => i.baseUrl) as [string, string];
    const partner = await newPartner(group.instances[0]!);
    const started = Date.now();
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) => query(i % 2 === 0 ? one : two, partner)),
    );
    const passed = replies.filter((r) => r.status === 404).length;
    // One shared bucket of 10 (plus what refills meanwhile), not 10 per instance.
    assert.ok(passed >= 10 && passed <= refilled(10, started), `${passed} passed`);
    assert.equal(replies.filter((r) => r.status === 429).length, 40 - passed);
    const redis = new Redis(REDIS_URL);
    try {
      assert.equal(await redis.exists(`${prefix}ratelimit:app:${partner.appId}`), 1);
      assert.ok((await redis.pttl(`${prefix}ratelimit:app:${partner.appId}`)) > 0, 'an idle bucket expires');
    } finally {
      redis.disconnect();
    }
  });

  test('the token exchange limit on failed secrets is shared too', async () => {
    const partner = await newPartner(group.instances[0]!);
    const [one, two] = group.instances.map((i) => i.baseUrl) as [string, string];
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const reply = await post(i % 2 === 0 ? one : two, PATHS.token, {
        app_id: partner.appId,
        app_secret: 'sk_wrong',
        timestamp: nowSeconds(),
      });
      statuses.push(reply.status);
    }
    assert.deepEqual(statuses, [...Array(10).fill(401), 429, 429]);
  });
});

describe('rate limit when Redis is down', () => {
  let service: TestService;
  before(async () => {
    // Nothing listens on port 1: every Redis command fails at once.
    service = await startService('sqlite', { ...LIMITED, REDIS_URL: 'redis://127.0.0.1:1' });
  });
  after(() => service.close());

  test('requests are served and each instance limits on its own, with a warning', async () => {
    const partner = await newPartner(service);
    const started = Date.now();
    const replies = await Promise.all(Array.from({ length: 30 }, () => query(service.baseUrl, partner)));
    const passed = replies.filter((r) => r.status === 404).length;
    assert.ok(passed >= 10 && passed <= refilled(10, started), `${passed} passed`);
    assert.equal(replies.filter((r) => r.status === 429).length, 30 - passed);
    assert.ok(service.logs.some((line) => line.includes('rate limit store unavailable')));
  });
});

describe('failed secrets at the token exchange', () => {
  let service: TestService;
  before(async () => {
    service = await startService('sqlite', { AUTH_FAILURE_BURST: '3', AUTH_FAILURES_PER_MINUTE: '60' });
  });
  after(() => service.close());

  const exchange = (appId: string, secret: string) =>
    post(service.baseUrl, PATHS.token, { app_id: appId, app_secret: secret, timestamp: nowSeconds() });

  test('successful exchanges are not limited', async () => {
    const partner = await newPartner(service);
    for (let i = 0; i < 10; i++) assert.equal((await exchange(partner.appId, partner.secret)).status, 200);
  });

  test('after the burst of failures for an app_id, even the right secret waits', async () => {
    const partner = await newPartner(service);
    for (let i = 0; i < 3; i++) assert.equal((await exchange(partner.appId, 'sk_guess')).status, 401);
    const refused = await exchange(partner.appId, partner.secret);
    assert.equal(refused.status, 429, refused.text);
    assert.equal(refused.body.code, 42902);
    assert.equal(refused.headers.get('retry-after'), '1');
    assert.deepEqual(refused.body.data, { retry_after: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    assert.equal(
      (await exchange(partner.appId, partner.secret)).status,
      200,
      'one failure a second comes back',
    );
  });

  test('failures are also counted per client address, across app_ids', async () => {
    await new Promise((resolve) => setTimeout(resolve, 3100)); // let the address bucket refill
    for (let i = 0; i < 3; i++) {
      assert.equal((await exchange(`app_${randomBytes(8).toString('hex')}`, 'sk_guess')).status, 401);
    }
    const partner = await newPartner(service).catch((error: unknown) => error);
    assert.ok(partner instanceof Error && partner.message.includes('42902'), String(partner));
  });
});

describe('failed secrets behind a trusted load balancer', () => {
  let service: TestService;
  before(async () => {
    service = await startService('sqlite', { AUTH_FAILURE_BURST: '2', TRUST_PROXY: '127.0.0.1' });
  });
  after(() => service.close());

  test('the client address is taken from X-Forwarded-For of a trusted proxy', async () => {
    const guess = (address: string) =>
      post(
        service.baseUrl,
        PATHS.token,
        { app_id: `app_${randomBytes(8).toString('hex')}`, app_secret: 'sk_guess', timestamp: nowSeconds() },
        { headers: { 'x-forwarded-for': address } },
      );
    assert.equal((await guess('203.0.113.7')).status, 401);
    assert.equal((await guess('203.0.113.7')).status, 401);
    assert.equal((await guess('203.0.113.7')).status, 429);
    assert.equal((await guess('198.51.100.9')).status, 401, 'another client behind the same proxy');
  });
});

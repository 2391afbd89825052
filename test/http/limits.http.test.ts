import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { PATHS } from '../../src/http/paths.ts';
import { spawnService } from '../helpers/process.ts';
import { newPartner, nowSeconds, post, startService, type TestService } from '../helpers/service.ts';
import { createStoreTarget } from '../helpers/stores.ts';

/**
 * Connection limits against a real server over raw sockets: a client that sends its headers (or
 * its body) a byte at a time is cut off at the configured time-out and does not hold up others; an
 * idle keep-alive connection is closed; body size and nesting depth come from the configuration.
 */

const TIMEOUTS = { HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2000', KEEP_ALIVE_TIMEOUT_MS: '500' };

interface Dripped {
  /** When the server closed the connection, in ms after it was opened. */
  closedAfterMs: number;
  received: string;
  /** How much of the text was sent before the server closed. */
  sent: number;
}

/** Opens a connection and sends `text` one byte every `everyMs` until the server closes it. */
function drip(url: string, text: string, everyMs: number): Promise<Dripped> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(Number(port), hostname);
    let sent = 0;
    let received = '';
    const timer = setInterval(() => {
      if (sent < text.length && socket.writable) socket.write(text[sent++]!);
    }, everyMs);
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ closedAfterMs: Date.now() - started, received, sent });
    });
  });
}

const slowHeaders = `POST ${PATHS.apply} HTTP/1.1\r\nHost: localhost\r\nX-Slow: ${'a'.repeat(500)}`;

describe('connection limits on a running server', () => {
  let service: TestService;
  before(async () => {
    service = await startService('sqlite', { ...TIMEOUTS, JSON_MAX_DEPTH: '4', BODY_LIMIT_BYTES: '2048' });
  });
  after(() => service.close());

  test('slow-drip clients are cut off at the header time-out, and others are served meanwhile', async () => {
    const drips = Array.from({ length: 20 }, () => drip(service.baseUrl, slowHeaders, 50));
    const latencies: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = Date.now();
      const response = await fetch(`${service.baseUrl}/healthz`);
      assert.equal(response.status, 200);
      await response.text();
      latencies.push(Date.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(Math.max(...latencies) < 500, `others waited ${Math.max(...latencies)} ms`);
    for (const result of await Promise.all(drips)) {
      assert.ok(result.closedAfterMs >= 900, `cut after ${result.closedAfterMs} ms`);
      assert.ok(result.closedAfterMs < 2500, `cut after ${result.closedAfterMs} ms`);
      assert.ok(result.sent < slowHeaders.length, 'cut before the headers were complete');
      assert.match(result.received, /^HTTP\/1\.1 408 /);
    }
  });

  test('a body sent a byte at a time is cut off at the request time-out', async () => {
    const body = JSON.stringify({ app_id: 'x', timestamp: nowSeconds(), pad: 'p'.repeat(200) });
    const request =
      `POST ${PATHS.query} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\n\r\n`;
    const { hostname, port } = new URL(service.baseUrl);
    const result = await new Promise<Dripped>((resolve) => {
      const started = Date.now();
      const socket = connect(Number(port), hostname, () => socket.write(request));
      let sent = 0;
      let received = '';
      const timer = setInterval(() => {
        if (sent < body.length && socket.writable) socket.write(body[sent++]!);
      }, 50);
      socket.on('data', (chunk) => (received += chunk.toString('latin1')));
      socket.on('error', () => {});
      socket.on('close', () => {
        clearInterval(timer);
        resolve({ closedAfterMs: Date.now() - started, received, sent });
      });
    });
    assert.ok(
      result.closedAfterMs >= 1900 && result.closedAfterMs < 3500,
      `cut after ${result.closedAfterMs} ms`,
    );
    assert.ok(result.sent < body.length);
    assert.match(result.received, /^HTTP\/1\.1 408 /);
  });

  test('an idle keep-alive connection is closed after the keep-alive time-out', async () => {
    const { hostname, port } = new URL(service.baseUrl);
    const result = await new Promise<{ closedAfterMs: number; received: string }>((resolve) => {
      const socket = connect(Number(port), hostname, () =>
        socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n'),
      );
      let received = '';
      let answeredAt = 0;
      socket.on('data', (chunk) => {
        received += chunk.toString('latin1');
        answeredAt ||= Date.now();
      });
      socket.on('error', () => {});
      socket.on('close', () => resolve({ closedAfterMs: Date.now() - answeredAt, received }));
    });
    assert.match(result.received, /^HTTP\/1\.1 200 /);
    assert.match(result.received, /keep-alive: timeout=/i);
    // Node keeps the socket a little longer than it advertises (keepAliveTimeoutBuffer).
    assert.ok(
      result.closedAfterMs >= 400 && result.closedAfterMs < 2500,
      `closed after ${result.closedAfterMs} ms`,
    );
  });

  test('the body limit and the nesting depth come from the configuration', async () => {
    const partner = await newPartner(service);
    const large = await post(
      service.baseUrl,
      PATHS.query,
      { app_id: partner.appId, pad: 'x'.repeat(3000) },
      {
        token: partner.token,
      },
    );
    assert.equal(large.status, 413);
    assert.equal(large.body.msg, 'body: is larger than 2048 bytes');
    const deep = await post(
      service.baseUrl,
      PATHS.query,
      { a: { b: { c: { d: {} } } } },
      { token: partner.token },
    );
    assert.equal(deep.status, 400);
    assert.equal(deep.body.code, 40006);
    assert.equal(deep.body.msg, 'body: is nested deeper than 4 levels');
  });
});

describe('connection limits in the service process', () => {
  test('`npm start` applies the header time-out too', async () => {
    const target = createStoreTarget('sqlite');
    const service = await spawnService({ ...target.env, ...TIMEOUTS });
    try {
      const result = await drip(service.baseUrl, slowHeaders, 50);
      assert.ok(
        result.closedAfterMs >= 900 && result.closedAfterMs < 2500,
        `cut after ${result.closedAfterMs} ms`,
      );
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
      await target.cleanup();
    }
  });
});

describe('configuration of the limits', () => {
  const base = { DATA_DIR: '/tmp/unused' };

  test('safe defaults', () => {
    const config = loadConfig(base);
    assert.equal(config.bodyLimitBytes, 65_536);
    assert.equal(config.headersTimeoutMs, 10_000);
    assert.equal(config.requestTimeoutMs, 30_000);
    assert.equal(config.keepAliveTimeoutMs, 5_000);
    assert.equal(config.rateLimitPerSecond, 50);
    assert.equal(config.rateLimitBurst, 100);
    assert.deepEqual(config.protection, {
      idempotencyTtlSeconds: 86_400,
      idempotencyWaitMs: 5_000,
      idempotencyLeaseMs: 60_000,
      redisKeyPrefix: 'cardapply:',
      redisTimeoutMs: 250,
      authFailureBurst: 10,
      authFailuresPerMinute: 10,
      trustProxy: false,
      jsonMaxDepth: 32,
    });
  });

  test('a bad value stops the start with a message naming it', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ HEADERS_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '10000' }, /^HEADERS_TIMEOUT_MS: must not be more/],
      [{ IDEMPOTENCY_TTL_SECONDS: '3600' }, /^IDEMPOTENCY_TTL_SECONDS: must be between 86400/],
      [{ TRUST_PROXY: 'the load balancer' }, /^TRUST_PROXY: /],
      [{ REDIS_KEY_PREFIX: 'a b' }, /^REDIS_KEY_PREFIX: /],
      [{ JSON_MAX_DEPTH: '2' }, /^JSON_MAX_DEPTH: /],
      [{ AUTH_FAILURE_BURST: '0' }, /^AUTH_FAILURE_BURST: /],
    ];
    for (const [env, message] of cases) {
      assert.throws(
        () => loadConfig({ ...base, ...env }),
        (error: unknown) => {
          assert.ok(error instanceof ConfigError);
          assert.match(error.message, message);
          return true;
        },
      );
    }
    assert.equal(
      loadConfig({ ...base, TRUST_PROXY: '10.0.0.0/8, 192.168.1.1' }).protection.trustProxy,
      '10.0.0.0/8, 192.168.1.1',
    );
    assert.equal(loadConfig({ ...base, TRUST_PROXY: 'true' }).protection.trustProxy, true);
  });
});

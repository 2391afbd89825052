import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../config.ts';

test('webhook settings: defaults, and values that would break delivery are refused at start', () => {
  const { webhooks } = loadConfig({});
  assert.deepEqual(webhooks, {
    inProcess: true,
    concurrency: 8,
    pollIntervalMs: 1000,
    timeoutMs: 10_000,
    leaseMs: 60_000,
    backoffBaseMs: 5000,
    backoffMaxMs: 3_600_000,
    maxAgeSeconds: 86_400,
    allowPrivate: false,
  });
  assert.equal(loadConfig({ WEBHOOK_WORKER: 'false' }).webhooks.inProcess, false);
  assert.throws(() => loadConfig({ WEBHOOK_TIMEOUT_MS: '10000', WEBHOOK_LEASE_MS: '15000' }), {
    name: 'ConfigError',
    message: /WEBHOOK_LEASE_MS: must be at least twice WEBHOOK_TIMEOUT_MS/,
  });
  assert.throws(
    () => loadConfig({ WEBHOOK_BACKOFF_BASE_MS: '5000', WEBHOOK_BACKOFF_MAX_MS: '10' }),
    ConfigError,
  );
  assert.throws(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'maybe' }), /WEBHOOK_ALLOW_PRIVATE/);
  assert.throws(() => loadConfig({ WEBHOOK_CONCURRENCY: '0' }), /WEBHOOK_CONCURRENCY/);
});

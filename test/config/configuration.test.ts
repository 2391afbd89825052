import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { ENVIRONMENT } from '../../src/environment.ts';
import { DEFAULT_RISK_POLICY_URL } from '../../src/policies/riskPolicy.ts';
import {
  configurationMarkdown,
  CONFIGURATION_END,
  CONFIGURATION_START,
  tableCells,
} from '../../scripts/referenceDocs.ts';

const DECLARED = Object.keys(ENVIRONMENT.properties).sort();

/** The variables loadConfig reads from an environment. */
function variablesRead(env: Record<string, string>): string[] {
  const read = new Set<string>();
  const recording = new Proxy(env, {
    get(target, key) {
      if (typeof key === 'string') read.add(key);
      return target[key as string];
    },
  });
  loadConfig(recording);
  return [...read].sort();
}

/**
 * A value each declared variable must refuse, derived from its declaration where it has a rule
 * (an integer out of its bounds, a pattern it does not match), or chosen by hand otherwise.
 */
function badValues(): [string, Record<string, string>][] {
  const cases: [string, Record<string, string>][] = [];
  for (const [name, declaration] of Object.entries(ENVIRONMENT.properties)) {
    const d = declaration as { type?: string; maximum?: number; pattern?: string; anyOf?: unknown };
    if (d.type === 'integer') {
      cases.push([name, { [name]: 'twelve' }]);
      cases.push([name, { [name]: String((d.maximum ?? 0) + 1) }]);
    } else if (d.type === 'boolean') cases.push([name, { [name]: 'maybe' }]);
    else if (d.pattern !== undefined) cases.push([name, { [name]: '%%%' }]);
    else if (d.anyOf !== undefined) cases.push([name, { [name]: 'loud' }]);
  }
  const key = (byte: number) => Buffer.alloc(32, byte).toString('base64');
  cases.push(['ENCRYPTION_KEYS', { ENCRYPTION_KEYS: 'k1:notbase64' }]);
  cases.push(['ENCRYPTION_KEYS', { ENCRYPTION_KEYS: `k1:${key(1)},k1:${key(2)}` }]);
  cases.push(['ENCRYPTION_KEYS', { DATABASE_URL: 'postgres://localhost/x' }]);
  cases.push(['ENCRYPTION_CURRENT_KEY', { ENCRYPTION_KEYS: `k1:${key(1)}`, ENCRYPTION_CURRENT_KEY: 'k9' }]);
  cases.push(['ENCRYPTION_CURRENT_KEY', { ENCRYPTION_CURRENT_KEY: 'k1' }]);
  cases.push(['ENCRYPTION_INDEX_KEY', { ENCRYPTION_KEYS: `k1:${key(1)}`, ENCRYPTION_INDEX_KEY: 'c2hvcnQ=' }]);
  cases.push(['BUSINESS_TIMEZONE', { BUSINESS_TIMEZONE: 'Beijing' }]); // not an IANA zone
  cases.push(['HEADERS_TIMEOUT_MS', { REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '6000' }]);
  cases.push(['WEBHOOK_LEASE_MS', { WEBHOOK_TIMEOUT_MS: '10000', WEBHOOK_LEASE_MS: '15000' }]);
  cases.push(['WEBHOOK_BACKOFF_MAX_MS', { WEBHOOK_BACKOFF_BASE_MS: '5000', WEBHOOK_BACKOFF_MAX_MS: '10' }]);
  return cases;
}

describe('the environment, declared once', () => {
  test('loadConfig reads exactly the declared variables', () => {
    assert.deepEqual(variablesRead({}), DECLARED);
  });

  test("docs/DEPLOYMENT.md's configuration table is generated from the declaration", () => {
    const deployment = readFileSync(new URL('../../docs/DEPLOYMENT.md', import.meta.url), 'utf8');
    assert.ok(deployment.includes(CONFIGURATION_START), 'docs/DEPLOYMENT.md has the configuration markers');
    const section = deployment.slice(
      deployment.indexOf(CONFIGURATION_START),
      deployment.indexOf(CONFIGURATION_END),
    );
    assert.deepEqual(tableCells(section), tableCells(configurationMarkdown()), 'run `npm run docs`');
    assert.equal(tableCells(section).length, DECLARED.length + 1);
    // One home: the README links to the table instead of holding a copy.
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    assert.ok(!readme.includes(CONFIGURATION_START), 'the README holds no copy of the table');
  });

  test('the defaults parse, and every declared default is what loadConfig uses', () => {
    const config = loadConfig({});
    assert.equal(config.port, 8080);
    assert.equal(config.databasePoolSize, 16);
    assert.equal(config.webhooks.inProcess, true);
    assert.equal(config.protection.redisKeyPrefix, 'cardapply:');
    assert.equal(config.businessTimeZone, 'Asia/Shanghai');
  });

  const cases = badValues();
  test('every variable with a rule is tried with a bad value', () => {
    const tried = new Set(cases.map(([name]) => name));
    // Free text: any value is one (OPERATOR_SESSION_IDLE_REASON is checked with the idle time-out).
    // A file's contents are checked at start, not by the configuration (the exit-78 cases below).
    const free = [
      'HOST',
      'DATA_DIR',
      'CARD_NETWORK',
      'CODES_FILE',
      'RISK_POLICY_FILE',
      'OPERATOR_SESSION_IDLE_REASON',
    ];
    assert.deepEqual(
      DECLARED.filter((name) => !tried.has(name) && !free.includes(name)),
      [],
      'a declared variable has no bad-value case',
    );
  });

  for (const [name, env] of cases) {
    test(`${name} refuses ${JSON.stringify(env)}`, () => {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.message.startsWith(`${name}`) &&
          !/[A-Za-z0-9+/]{40,}/.test(error.message),
      );
    });
  }
});

describe('a configuration error stops the service with exit status 78', () => {
  const main = fileURLToPath(new URL('../../bin/server.js', import.meta.url));
  const start = (env: Record<string, string>) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'config-exit-'));
    try {
      return spawnSync(process.execPath, [main], {
        env: { PATH: process.env['PATH'] ?? '', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', ...env },
        encoding: 'utf8',
        timeout: 30_000,
      });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  };

  for (const [name, env] of [
    ['PORT', { PORT: 'eighty' }],
    ['ENCRYPTION_KEYS', { ENCRYPTION_KEYS: 'k1:notbase64' }],
    ['CODES_FILE', { CODES_FILE: '/nonexistent/codes.json' }],
    ['RISK_POLICY_FILE', { RISK_POLICY_FILE: '/nonexistent/risk-policy.json' }],
  ] as const) {
    test(`${name}`, () => {
      const result = start(env);
      assert.equal(result.status, 78, result.stderr);
      assert.match(result.stderr, new RegExp(`^configuration error: ${name}`, 'm'));
    });
  }

  test('RISK_POLICY_FILE: a policy that routes high-risk applications straight through', () => {
    const dir = mkdtempSync(join(tmpdir(), 'risk-policy-'));
    try {
      const policy = JSON.parse(readFileSync(DEFAULT_RISK_POLICY_URL, 'utf8')) as {
        routing: Record<string, string>;
      };
      policy.routing['high'] = 'auto_approve';
      writeFileSync(join(dir, 'policy.json'), JSON.stringify(policy));
      const result = start({ RISK_POLICY_FILE: join(dir, 'policy.json') });
      assert.equal(result.status, 78, result.stderr);
      assert.match(
        result.stderr,
        /^configuration error: RISK_POLICY_FILE: .*\/routing\/high: auto_approve is allowed for low only/m,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

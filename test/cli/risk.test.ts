import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { DEFAULT_RISK_POLICY_URL, loadRiskPolicy } from '../../src/policies/riskPolicy.ts';
import { cardapply, cardapplyJson } from '../helpers/cli.ts';
import { spawnService } from '../helpers/process.ts';

/** `cardapply risk policy validate|show` as a risk team runs them before a policy goes live. */

const dir = mkdtempSync(join(tmpdir(), 'risk-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));
// The embedded store: these commands and this start need no PostgreSQL, whatever the suite has.
const env = { DATA_DIR: dir, LOG_LEVEL: 'silent', DATABASE_URL: '' };

test('validate prints the version of a good file and exits 0', async () => {
  const file = join(dir, 'good.json');
  const policy = JSON.parse(readFileSync(DEFAULT_RISK_POLICY_URL, 'utf8')) as {
    routing: Record<string, string>;
  };
  policy.routing['low'] = 'auto_approve';
  writeFileSync(file, JSON.stringify(policy, null, 2));
  const result = await cardapplyJson<{ valid: boolean; version: string }>(
    env,
    'risk',
    'policy',
    'validate',
    file,
  );
  assert.deepEqual(result, { valid: true, version: loadRiskPolicy(file).version, name: 'default' });
});

test('validate names what is wrong with a bad file and exits 1', async () => {
  const file = join(dir, 'bad.json');
  const policy = JSON.parse(readFileSync(DEFAULT_RISK_POLICY_URL, 'utf8')) as {
    routing: Record<string, string>;
  };
  policy.routing['prohibited'] = 'auto_approve';
  writeFileSync(file, JSON.stringify(policy));
  await assert.rejects(
    cardapply(env, 'risk', 'policy', 'validate', file),
    (error: { code?: number; stdout?: string }) => {
      assert.equal(error.code, 1);
      assert.match(error.stdout ?? '', /\/routing\/prohibited: auto_approve is allowed for low only/);
      return true;
    },
  );
});

test('show prints the policy in force: the file of RISK_POLICY_FILE, or the default', async () => {
  const shown = await cardapplyJson<{ version: string; source: string }>(env, 'risk', 'policy', 'show');
  assert.equal(shown.source, 'default');
  assert.equal(shown.version, loadRiskPolicy().version);
  const file = join(dir, 'good.json');
  const replaced = await cardapplyJson<{ version: string; source: string }>(
    { ...env, RISK_POLICY_FILE: file },
    'risk',
    'policy',
    'show',
  );
  assert.deepEqual([replaced.source, replaced.version], [file, loadRiskPolicy(file).version]);
});

test('a service whose policy turns straight-through on starts and acts on it, with no warning', async () => {
  const file = join(dir, 'good.json');
  const service = await spawnService({
    DATA_DIR: mkdtempSync(join(dir, 'data-')),
    DATABASE_URL: '',
    PORT: '0',
    RISK_POLICY_FILE: file,
  });
  try {
    // The policy acts on auto_approve and decline (test/risk/riskPolicyDecision.test.ts): nothing
    // says it does not.
    const warnings = service.output.filter((l) => l.includes('auto_approve') || l.includes('not act on'));
    assert.deepEqual(warnings, []);
  } finally {
    service.child.kill('SIGTERM');
    await service.exited;
  }
});

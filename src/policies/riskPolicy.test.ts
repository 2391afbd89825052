import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { DEFAULT_RISK_POLICY_URL, loadRiskPolicy, parseRiskPolicy, RiskPolicyError } from './riskPolicy.ts';

const defaultText = readFileSync(DEFAULT_RISK_POLICY_URL, 'utf8');
// The tests change the parsed file freely, as a person editing it would.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Editable = Record<string, any>;
const defaults = () => JSON.parse(defaultText) as Editable;

describe('the risk policy', () => {
  test('the default loads, routes every tier to a reviewer, and is versioned by its text', () => {
    const loaded = loadRiskPolicy();
    assert.equal(loaded.source, 'default');
    assert.deepEqual(Object.values(loaded.policy.routing), ['review', 'review', 'review', 'review']);
    assert.equal(loaded.version, createHash('sha256').update(defaultText).digest('hex').slice(0, 16));
    assert.equal(loaded.content, defaultText);
    // Another text, another version; the same text, the same version.
    assert.notEqual(parseRiskPolicy(JSON.stringify(defaults()), 'x').version, loaded.version);
    assert.equal(parseRiskPolicy(defaultText, 'y').version, loaded.version);
  });

  const refusals: [string, (p: Editable) => void, RegExp][] = [
    [
      'straight-through for medium',
      (p) => (p.routing.medium = 'auto_approve'),
      /\/routing\/medium: auto_approve is allowed for low only/,
    ],
    [
      'a decline for high',
      (p) => (p.routing.high = 'decline'),
      /\/routing\/high: decline is allowed for prohibited only/,
    ],
    ['an unknown routing', (p) => (p.routing.low = 'approve'), /\/routing\/low/],
    ['tiers that do not rise', (p) => (p.tiers.high = 10), /\/tiers: must rise/],
    [
      'an unknown factor',
      (p) => (p.factors.horoscope = { weight: 1 }),
      /\/factors: must NOT have additional properties/,
    ],
    [
      'a missing factor',
      (p) => delete p.factors.shared_email,
      /\/factors: must have required property 'shared_email'/,
    ],
    ['a negative weight', (p) => (p.factors.shared_mobile.weight = -1), /\/factors\/shared_mobile\/weight/],
    [
      'a country not in ISO alpha-2',
      (p) => p.countries.call_for_action.push('IRN'),
      /\/countries\/call_for_action\/3/,
    ],
    [
      'a country on both lists',
      (p) => p.countries.increased_monitoring.push('IR'),
      /\/countries: IR on both lists/,
    ],
    ['an undated country list', (p) => delete p.countries.as_of, /as_of/],
    ['an unknown profession level', (p) => (p.professions.K = 'extreme'), /\/professions\/K/],
    ['expiry without its days', (p) => delete p.factors.document_expiring.days, /document_expiring/],
    [
      'an unknown key at the top',
      (p) => (p.owner = 'risk team'),
      /\(top level\): must NOT have additional properties/,
    ],
  ];
  for (const [name, change, message] of refusals) {
    test(`refuses ${name}, naming where`, () => {
      const policy = defaults();
      change(policy);
      assert.throws(
        () => parseRiskPolicy(JSON.stringify(policy), 'my-policy.json'),
        (error: unknown) =>
          error instanceof RiskPolicyError &&
          /^risk policy my-policy\.json: /.test(error.message) &&
          message.test(error.message),
      );
    });
  }

  test('refuses a file that is not JSON, or cannot be read', () => {
    assert.throws(
      () => parseRiskPolicy('{"name":', 'broken.json'),
      /risk policy broken\.json: is not valid JSON/,
    );
    assert.throws(() => loadRiskPolicy('/nonexistent/policy.json'), /cannot be read \(ENOENT\)/);
  });

  test('accepts straight-through for low and a decline for prohibited', () => {
    const policy = defaults();
    policy.routing.low = 'auto_approve';
    policy.routing.prohibited = 'decline';
    assert.equal(parseRiskPolicy(JSON.stringify(policy), 'p').policy.routing.low, 'auto_approve');
  });
});

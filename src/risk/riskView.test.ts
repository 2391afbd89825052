import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { DEFAULT_RISK_POLICY_URL, FACTOR_CODES, parseRiskPolicy } from '../policies/riskPolicy.ts';
import type { RiskAssessmentsTable } from '../store/tables.ts';
import { riskViewOf } from './riskView.ts';

/**
 * What the console shows beside each factor must be what the approval will weigh. The expected
 * marks are docs/RISK.md's, under the shipped policy: the high factors (a note needed) are
 * `pep_match`, `image_reused`, `country_call_for_action` and `sanctions_hit`; the blocking ones
 * `sanctions_hit` and `required_image_missing`; a partner or profession at a high level forces
 * nothing and weighs 25, under the high band.
 */
const { policy } = parseRiskPolicy(readFileSync(DEFAULT_RISK_POLICY_URL, 'utf8'), 'default');
const HIGH = ['pep_match', 'image_reused', 'country_call_for_action', 'sanctions_hit'];
const BLOCKING = ['sanctions_hit', 'required_image_missing'];

test("every factor's needs_note and blocks_approval are RISK.md's under the shipped policy", () => {
  const factors = FACTOR_CODES.map((code) => ({
    code,
    weight: (policy.factors[code] as { weight?: number }).weight ?? 25,
    evidence: code === 'profession_risk' || code === 'partner_risk' ? { level: 'high' } : {},
  }));
  const row = {
    tier: 'prohibited',
    score: 100,
    routing: 'review',
    policy_version: 'v',
    assessed_at: 0,
    factors: JSON.stringify(factors),
  } as unknown as RiskAssessmentsTable;
  const view = riskViewOf(row, policy);
  for (const factor of view.factors) {
    assert.equal(factor.needs_note, HIGH.includes(factor.code), `${factor.code} needs_note`);
    assert.equal(factor.blocks_approval === true, BLOCKING.includes(factor.code), `${factor.code} blocks`);
  }
});

test('a stored factor that blocked when it fired still blocks under a policy that no longer says so', () => {
  const row = {
    tier: 'low',
    score: 10,
    routing: 'review',
    policy_version: 'v',
    assessed_at: 0,
    factors: JSON.stringify([{ code: 'image_refused', weight: 10, evidence: {}, blocks_approval: true }]),
  } as unknown as RiskAssessmentsTable;
  assert.equal(riskViewOf(row, policy).factors[0]?.blocks_approval, true);
});

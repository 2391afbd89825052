import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadRiskPolicy, type RiskPolicy } from '../policies/riskPolicy.ts';
import {
  blocksApproval,
  decideApproval,
  isHighFactor,
  type ApprovalDecision,
  type ApprovalInput,
  type OpenFactor,
} from './approvalDecision.ts';

const policy = (): RiskPolicy => structuredClone(loadRiskPolicy().policy);

const factor = (code: OpenFactor['code'], weight: number, extra: Partial<OpenFactor> = {}): OpenFactor => ({
  code,
  weight,
  evidence: {},
  ...extra,
});

const MISSING = factor('required_image_missing', 30, {
  blocks_approval: true,
  evidence: { fields: ['pay_voucher'] },
});
const REUSED = factor('image_reused', 40);
const REFUSED = factor('image_refused', 10);
const SHARED = factor('shared_mobile', 20);

/** An approve by `alice` of an application whose latest assessment is `a1`, with `factors` open. */
const input = (
  over: Partial<ApprovalInput> & { factors?: OpenFactor[]; routing?: 'review' | 'enhanced_review' },
) => {
  const { factors = [], routing = 'review', ...rest } = over;
  return {
    policy: policy(),
    assessment: { id: 'a1', routing, factors },
    acknowledgements: [],
    pending: null,
    operator: 'alice',
    ...rest,
  } satisfies ApprovalInput;
};

describe('an approve weighed against the risk assessment', () => {
  const cases: [string, ApprovalInput, ApprovalDecision][] = [
    [
      'no assessment yet: nothing to weigh, approved',
      { ...input({}), assessment: null },
      { kind: 'approve', acknowledgements: [], confirms: null },
    ],
    ['no open factor: approved', input({}), { kind: 'approve', acknowledgements: [], confirms: null }],
    [
      'a required image missing blocks it, whatever the notes',
      input({
        factors: [MISSING, REFUSED],
        acknowledgements: [{ code: 'required_image_missing', note: 'seen on paper' }],
      }),
      { kind: 'blocked', factors: ['required_image_missing'] },
    ],
    [
      'an open sanctions hit blocks it',
      input({ factors: [factor('sanctions_hit', 100, { blocks_approval: true })] }),
      { kind: 'blocked', factors: ['sanctions_hit'] },
    ],
    [
      'a factor the policy in force blocks, though the stored one does not say so',
      input({ factors: [factor('required_image_missing', 30)] }),
      { kind: 'blocked', factors: ['required_image_missing'] },
    ],
    [
      'a high factor (its tier) without a note',
      input({ factors: [REUSED, REFUSED] }),
      { kind: 'notes_missing', factors: ['image_reused'] },
    ],
    [
      'a high factor acknowledged without a note, or with a blank one',
      input({ factors: [REUSED], acknowledgements: [{ code: 'image_reused', note: '  ' }] }),
      { kind: 'notes_missing', factors: ['image_reused'] },
    ],
    [
      'a factor whose weight alone reaches the high band is high',
      input({ factors: [factor('country_increased_monitoring', 45)] }),
      { kind: 'notes_missing', factors: ['country_increased_monitoring'] },
    ],
    [
      'a high factor with its note: approved, the note kept, other factors acknowledged without one',
      input({
        factors: [REUSED, REFUSED, SHARED],
        acknowledgements: [
          { code: 'image_reused', note: ' the same photographer ' },
          { code: 'image_refused' },
          { code: 'pep_match', note: 'no longer open' },
        ],
      }),
      {
        kind: 'approve',
        acknowledgements: [
          { code: 'image_reused', high: true, note: 'the same photographer' },
          { code: 'image_refused', high: false },
        ],
        confirms: null,
      },
    ],
    [
      'enhanced review, first approve: asked for, not approved',
      input({
        routing: 'enhanced_review',
        factors: [REUSED],
        acknowledgements: [{ code: 'image_reused', note: 'ok' }],
      }),
      {
        kind: 'request',
        acknowledgements: [{ code: 'image_reused', high: true, note: 'ok' }],
        replaces: null,
      },
    ],
    [
      'enhanced review, the same operator again: refused',
      input({ routing: 'enhanced_review', pending: { requested_by: 'alice', assessment_id: 'a1' } }),
      { kind: 'same_operator' },
    ],
    [
      'enhanced review, a second operator: approved, confirming the request',
      input({
        routing: 'enhanced_review',
        operator: 'bob',
        pending: { requested_by: 'alice', assessment_id: 'a1' },
      }),
      { kind: 'approve', acknowledgements: [], confirms: { requested_by: 'alice', assessment_id: 'a1' } },
    ],
    [
      'enhanced review, the second operator must acknowledge the high factors too',
      input({
        routing: 'enhanced_review',
        operator: 'bob',
        factors: [REUSED],
        pending: { requested_by: 'alice', assessment_id: 'a1' },
      }),
      { kind: 'notes_missing', factors: ['image_reused'] },
    ],
    [
      'enhanced review, a request asked on an earlier assessment: the evidence changed, asked again',
      input({
        routing: 'enhanced_review',
        operator: 'bob',
        pending: { requested_by: 'alice', assessment_id: 'a0' },
      }),
      { kind: 'request', acknowledgements: [], replaces: { requested_by: 'alice', assessment_id: 'a0' } },
    ],
    [
      'a blocking factor is refused before enhanced review asks anything',
      input({ routing: 'enhanced_review', factors: [MISSING] }),
      { kind: 'blocked', factors: ['required_image_missing'] },
    ],
    [
      'no longer in enhanced review: approved by one operator, the stale request not confirmed',
      input({ pending: { requested_by: 'alice', assessment_id: 'a0' } }),
      { kind: 'approve', acknowledgements: [], confirms: null },
    ],
  ];
  for (const [name, given, expected] of cases) {
    test(name, () => assert.deepEqual(decideApproval(given), expected));
  }
});

describe('which factors block and which are high, by the policy', () => {
  test('the default policy: sanctions and a missing required image block; the forced-high and prohibited are high', () => {
    const p = policy();
    assert.equal(blocksApproval(p, factor('sanctions_hit', 100)), true);
    assert.equal(blocksApproval(p, factor('image_reused', 40)), false);
    assert.equal(isHighFactor(p, factor('pep_match', 40)), true);
    assert.equal(isHighFactor(p, factor('country_call_for_action', 100)), true);
    assert.equal(isHighFactor(p, factor('shared_mobile', 20)), false);
  });

  test("a leveled factor is high where the policy's tier for its level is", () => {
    const p = policy();
    p.factors.partner_risk.tier_by_level = { high: 'high' };
    assert.equal(isHighFactor(p, factor('partner_risk', 25, { evidence: { level: 'high' } })), true);
    assert.equal(isHighFactor(p, factor('partner_risk', 10, { evidence: { level: 'medium' } })), false);
    assert.equal(blocksApproval(p, factor('partner_risk', 25, { evidence: { level: 'high' } })), false);
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadRiskPolicy, type RiskPolicy } from '../policies/riskPolicy.ts';
import type { Status } from '../record/lifecycle.ts';
import { assess, type RiskEvidence } from './assessment.ts';
import { policyAction } from './policyAction.ts';

/** Every image kept, no hit, no shared contact: nothing open. */
const clean = (): RiskEvidence => ({
  openSanctionsHits: [],
  pepMatches: [],
  documents: ['id_card_img', 'id_card_back_img', 'passport_img', 'sign_applicant', 'pay_voucher'].map(
    (field) => ({ field, state: 'kept', reason: null, required: field !== 'id_card_back_img' }),
  ),
  reusedImages: [],
  sharedMobile: [],
  sharedEmail: [],
  country: 'CN',
  profession: 'C',
  otherTextMissing: [],
  documentDaysLeft: 3000,
  partnerRiskLevel: 'low',
});

/** The default policy with straight-through approval for low and the decline for prohibited. */
function deciding(): RiskPolicy {
  const policy = structuredClone(loadRiskPolicy().policy);
  policy.routing.low = 'auto_approve';
  policy.routing.prohibited = 'decline';
  return policy;
}

const act = (policy: RiskPolicy, evidence: RiskEvidence, status: Status) =>
  policyAction(assess(policy, evidence), evidence, status);

describe("the policy's action on an assessment", () => {
  test('straight-through: a clean low application is taken into review and approved', () => {
    assert.deepEqual(act(deciding(), clean(), 'SUBMITTED'), {
      routing: 'auto_approve',
      moves: ['IN_REVIEW', 'APPROVED'],
      reasonCodes: [],
    });
    assert.deepEqual(act(deciding(), clean(), 'IN_REVIEW')?.moves, ['APPROVED']);
  });

  // What is not the policy's to decide: a decision made, or one asked of the partner.
  for (const status of ['SUPPLEMENT_REQUIRED', 'APPROVED', 'CARD_ISSUED', 'REJECTED'] as const) {
    test(`nothing moves from ${status}`, () => {
      assert.deepEqual(act(deciding(), clean(), status)?.moves, []);
    });
  }

  test('with straight-through off (the shipped policy), nothing happens', () => {
    assert.equal(act(structuredClone(loadRiskPolicy().policy), clean(), 'SUBMITTED'), undefined);
  });

  // Anything open leaves a low application to review, even where the policy would let it through.
  const open: [string, (e: RiskEvidence) => void][] = [
    ['an image refused', (e) => Object.assign(e.documents[1]!, { state: 'failed', reason: 'too_small' })],
    ['a required image absent', (e) => e.documents.splice(2, 1)],
    ['an image still pending', (e) => Object.assign(e.documents[0]!, { state: 'pending' })],
    ['another document expiring', (e) => (e.documentDaysLeft = 5)],
    ['a PEP match', (e) => e.pepMatches.push({ list: 'x', reference: 'y', role: 'rca', position: null })],
    ['a shared e-mail', (e) => e.sharedEmail.push('S2')],
  ];
  for (const [name, change] of open) {
    test(`${name}: left to review`, () => {
      const evidence = clean();
      change(evidence);
      assert.equal(act(deciding(), evidence, 'SUBMITTED'), undefined);
    });
  }

  test('a low tier the assessment routed to auto_approve is checked again against the evidence', () => {
    const evidence = clean();
    const assessment = assess(deciding(), evidence);
    evidence.openSanctionsHits.push({ list: 'un', reference: 'QDi.1' });
    assert.equal(policyAction(assessment, evidence, 'SUBMITTED'), undefined);
  });

  test('a prohibited application is declined with risk_policy from SUBMITTED and IN_REVIEW', () => {
    const evidence = clean();
    evidence.openSanctionsHits.push({ list: 'un', reference: 'QDi.1' });
    for (const status of ['SUBMITTED', 'IN_REVIEW'] as const) {
      assert.deepEqual(act(deciding(), evidence, status), {
        routing: 'decline',
        moves: ['REJECTED'],
        reasonCodes: ['risk_policy'],
      });
    }
    assert.deepEqual(act(deciding(), evidence, 'SUPPLEMENT_REQUIRED')?.moves, []);
    // Prohibited by its country alone: the same.
    const country = clean();
    country.country = 'KP';
    assert.deepEqual(act(deciding(), country, 'SUBMITTED')?.moves, ['REJECTED']);
  });

  test('high and medium are never decided by the policy', () => {
    const evidence = clean();
    evidence.reusedImages.push({ field: 'id_card_img', serials: ['S1'] });
    assert.equal(act(deciding(), evidence, 'SUBMITTED'), undefined);
  });
});

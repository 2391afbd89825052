import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadRiskPolicy, type RiskPolicy } from '../policies/riskPolicy.ts';
import { assess, type RiskEvidence } from './assessment.ts';

/** An applicant with nothing to say against them: every image kept, no hit, no shared contact. */
const clean = (): RiskEvidence => ({
  openSanctionsHits: [],
  pepMatches: [],
  documents: ['id_card_img', 'passport_img', 'sign_applicant', 'pay_voucher'].map((field) => ({
    field,
    state: 'kept',
    reason: null,
    required: true,
  })),
  reusedImages: [],
  sharedMobile: [],
  sharedEmail: [],
  country: 'CN',
  profession: 'C',
  otherTextMissing: [],
  documentDaysLeft: 3000,
  partnerRiskLevel: 'low',
});

const policy = (): RiskPolicy => structuredClone(loadRiskPolicy().policy);

describe('a risk assessment under the default policy', () => {
  test('a clean applicant is low, scores 0 and goes to review', () => {
    assert.deepEqual(assess(policy(), clean()), { tier: 'low', score: 0, routing: 'review', factors: [] });
  });

  // Each factor alone: its code, weight, the tier it leaves, whether it blocks, and its evidence.
  const cases: [
    string,
    (e: RiskEvidence) => void,
    { code: string; weight: number; tier: string; blocks?: true; evidence: unknown },
  ][] = [
    [
      'an open sanctions hit',
      (e) => e.openSanctionsHits.push({ list: 'un', reference: 'QDi.999' }),
      {
        code: 'sanctions_hit',
        weight: 100,
        tier: 'prohibited',
        blocks: true,
        evidence: { hits: [{ list: 'un', reference: 'QDi.999' }] },
      },
    ],
    [
      'a PEP match',
      (e) =>
        e.pepMatches.push({ list: 'opensanctions', reference: 'Q123', role: 'pep', position: 'Minister' }),
      {
        code: 'pep_match',
        weight: 40,
        tier: 'high',
        evidence: {
          matches: [{ list: 'opensanctions', reference: 'Q123', role: 'pep', position: 'Minister' }],
        },
      },
    ],
    [
      'another applicant holding the same passport photo',
      (e) => e.reusedImages.push({ field: 'passport_img', serials: ['S2'] }),
      {
        code: 'image_reused',
        weight: 40,
        tier: 'high',
        evidence: { images: [{ field: 'passport_img', serials: ['S2'] }] },
      },
    ],
    [
      'the same mobile number as another applicant',
      (e) => e.sharedMobile.push('S3'),
      { code: 'shared_mobile', weight: 20, tier: 'medium', evidence: { applications: 1, serials: ['S3'] } },
    ],
    [
      'the same e-mail as another applicant',
      (e) => e.sharedEmail.push('S4', 'S5'),
      { code: 'shared_email', weight: 15, tier: 'low', evidence: { applications: 2, serials: ['S4', 'S5'] } },
    ],
    [
      'a country under a call for action',
      (e) => (e.country = 'IR'),
      {
        code: 'country_call_for_action',
        weight: 100,
        tier: 'prohibited',
        evidence: { country: 'IR', as_of: '2025-10-24' },
      },
    ],
    [
      'a country under increased monitoring',
      (e) => (e.country = 'VN'),
      {
        code: 'country_increased_monitoring',
        weight: 25,
        tier: 'medium',
        evidence: { country: 'VN', as_of: '2025-10-24' },
      },
    ],
    [
      'a high-risk profession',
      (e) => (e.profession = 'K'),
      { code: 'profession_risk', weight: 25, tier: 'medium', evidence: { profession: 'K', level: 'high' } },
    ],
    [
      'a medium-risk profession',
      (e) => (e.profession = 'J'),
      { code: 'profession_risk', weight: 10, tier: 'low', evidence: { profession: 'J', level: 'medium' } },
    ],
    [
      'an "other" purpose without its text',
      (e) => e.otherTextMissing.push('purpose'),
      { code: 'other_text_missing', weight: 5, tier: 'low', evidence: { fields: ['purpose'] } },
    ],
    [
      'a document expiring within 30 days',
      (e) => (e.documentDaysLeft = 12),
      { code: 'document_expiring', weight: 10, tier: 'low', evidence: { days_left: 12 } },
    ],
    [
      'a partner an operator rated high',
      (e) => (e.partnerRiskLevel = 'high'),
      { code: 'partner_risk', weight: 25, tier: 'medium', evidence: { level: 'high' } },
    ],
  ];
  for (const [name, change, expected] of cases) {
    test(`${name}: ${expected.code}, +${expected.weight}, ${expected.tier}`, () => {
      const evidence = clean();
      change(evidence);
      const result = assess(policy(), evidence);
      assert.equal(result.tier, expected.tier);
      assert.equal(result.score, expected.weight);
      assert.deepEqual(result.factors, [
        {
          code: expected.code,
          weight: expected.weight,
          evidence: expected.evidence,
          ...(expected.blocks ? { blocks_approval: true } : {}),
        },
      ]);
    });
  }

  test('a required image not kept blocks approval, and its failure is a refused image too', () => {
    const evidence = clean();
    evidence.documents[1] = { field: 'passport_img', state: 'failed', reason: 'too_small', required: true };
    const result = assess(policy(), evidence);
    assert.deepEqual(
      result.factors.map((f) => [f.code, f.weight, f.blocks_approval ?? false]),
      [
        ['required_image_missing', 30, true],
        ['image_refused', 10, false],
      ],
    );
    assert.deepEqual(result.factors[0]!.evidence, { fields: ['passport_img'] });
    assert.deepEqual(result.factors[1]!.evidence, {
      images: [{ field: 'passport_img', reason: 'too_small' }],
    });
    assert.equal(result.tier, 'high');
  });

  test('an optional image refused is no missing required image', () => {
    const evidence = clean();
    evidence.documents.push({
      field: 'id_card_back_img',
      state: 'failed',
      reason: 'not_a_document',
      required: false,
    });
    assert.deepEqual(
      assess(policy(), evidence).factors.map((f) => f.code),
      ['image_refused'],
    );
  });

  test("a document that does not expire, or expires after the policy's days, does not fire", () => {
    for (const days of [null, 31, 400]) {
      const evidence = clean();
      evidence.documentDaysLeft = days;
      assert.deepEqual(assess(policy(), evidence).factors, [], String(days));
    }
    const evidence = clean();
    evidence.documentDaysLeft = 30;
    assert.equal(assess(policy(), evidence).factors[0]!.code, 'document_expiring');
  });

  test('scores add up across factors, and the score bands set the tier', () => {
    const evidence = clean();
    evidence.sharedMobile.push('S3'); // 20
    evidence.sharedEmail.push('S3'); // 15
    evidence.documentDaysLeft = 5; // 10
    const result = assess(policy(), evidence);
    assert.equal(result.score, 45);
    assert.equal(result.tier, 'high');
  });
});

describe('routing by the policy', () => {
  const withRouting = (routing: Partial<RiskPolicy['routing']>) => {
    const p = policy();
    Object.assign(p.routing, routing);
    return p;
  };

  test('straight-through for a clean low applicant where the policy turns it on', () => {
    assert.equal(assess(withRouting({ low: 'auto_approve' }), clean()).routing, 'auto_approve');
  });

  test('but not with any factor open, even one that leaves the tier low', () => {
    const evidence = clean();
    evidence.otherTextMissing.push('purpose');
    const result = assess(withRouting({ low: 'auto_approve' }), evidence);
    assert.equal(result.tier, 'low');
    assert.equal(result.routing, 'review');
  });

  test('nor with an image not kept', () => {
    const p = withRouting({ low: 'auto_approve' });
    p.factors.image_refused.weight = 0;
    p.factors.required_image_missing.weight = 0;
    const evidence = clean();
    evidence.documents.push({
      field: 'id_card_back_img',
      state: 'failed',
      reason: 'unreachable',
      required: false,
    });
    assert.equal(assess(p, evidence).routing, 'review');
  });

  test('enhanced review for high, a decline for prohibited, as the policy says', () => {
    const p = withRouting({ high: 'enhanced_review', prohibited: 'decline' });
    const reused = clean();
    reused.reusedImages.push({ field: 'id_card_img', serials: ['S9'] });
    assert.equal(assess(p, reused).routing, 'enhanced_review');
    const listed = clean();
    listed.openSanctionsHits.push({ list: 'ofac', reference: '12345' });
    assert.deepEqual([assess(p, listed).tier, assess(p, listed).routing], ['prohibited', 'decline']);
  });

  test('a PEP takes enhanced review whatever its tier routes to, unless the policy declines it', () => {
    const pep = () => {
      const evidence = clean();
      evidence.pepMatches.push({ list: 'opensanctions', reference: 'Q1', role: 'rca', position: null });
      return evidence;
    };
    for (const routing of ['review', 'auto_approve', 'enhanced_review'] as const)
      assert.equal(assess(withRouting({ high: routing }), pep()).routing, 'enhanced_review', routing);
    assert.equal(assess(withRouting({ high: 'decline' }), pep()).routing, 'decline');
    // Without the PEP the same policy routes as it says.
    assert.equal(assess(withRouting({ low: 'review' }), clean()).routing, 'review');
  });

  test('the same evidence and policy always give the same assessment', () => {
    const evidence = clean();
    evidence.country = 'MM';
    evidence.sharedMobile.push('S1');
    assert.deepEqual(assess(policy(), evidence), assess(policy(), structuredClone(evidence)));
  });
});

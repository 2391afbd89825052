import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validApplicant } from '../../test/helpers/applicantFixture.ts';
import { riskFlags, type RiskContext } from './riskFlags.ts';
import type { ApplicationRequest } from './schema.ts';

const ctx: RiskContext = {
  today: '2026-01-15',
  minAge: 18,
  otherCodes: { position: '99', purpose: '99', wealth_source: '99' },
};

/** The valid applicant (born 1990, documents 2015 to 2035, delivery to self) raises no flag. */
const cases: [string, Partial<ApplicationRequest>, string[]][] = [
  ['nothing unusual', {}, []],
  ['document expires in 6 months', { cert_end_date: '2026-07-15' }, ['document_expiring:days_left=181']],
  ['document expires in 7 months', { cert_end_date: '2026-08-15' }, []],
  ['document expires today', { cert_end_date: '2026-01-15' }, ['document_expiring:days_left=0']],
  ['document never expires', { cert_end_date: '9999-12-31' }, []],
  ['no end date (Hong Kong card)', { cert_end_date: undefined }, []],
  [
    'document issued 10 days ago',
    { cert_start_date: '2026-01-05' },
    ['document_recently_issued:days_since=10'],
  ],
  ['document issued 31 days ago', { cert_start_date: '2025-12-15' }, []],
  ['18 years old', { birthday: '2007-06-01' }, ['applicant_near_minimum_age:age=18,min_age=18']],
  ['19 years old', { birthday: '2006-06-01' }, ['applicant_near_minimum_age:age=19,min_age=18']],
  ['20 years old', { birthday: '2005-06-01' }, []],
  ['74 years old', { birthday: '1951-06-01' }, []],
  ['75 years old', { birthday: '1950-06-01' }, ['applicant_elderly:age=75']],
  ['delivered to someone else', { consignee: '韩梅梅' }, ['consignee_not_applicant:']],
  ['consignee written in English', { consignee: 'LI LEI' }, []],
  [
    'delivered elsewhere',
    { consignee_address: '广东省-深圳市-福田区-福华路8号' },
    ['delivery_address_differs:'],
  ],
  ['another mobile', { consignee_mob_no: '13900139000' }, ['consignee_mobile_differs:']],
  ['same number, other area code', { consignee_mob_no_of: '+852' }, ['consignee_mobile_differs:']],
  [
    'free-text answers',
    { profession: 'Z', profession_other: 'falconer', purpose: ['99'], purpose_other: 'collecting' },
    ['other_answer:count=2'],
  ],
  ['position "other"', { position: '99' }, ['other_answer:count=1']],
  ['"other" purpose without its text', { purpose: ['01', '99'] }, ['other_text_missing:count=1']],
  [
    '"other" purpose and source of funds without their texts',
    { purpose: ['99'], wealth_source: ['99'] },
    ['other_text_missing:count=2'],
  ],
  ['the same mobile written with spaces', { consignee_mob_no: '138 0013 8000' }, []],
  [
    'the same address with full-width dashes',
    { consignee_address: '广东省－深圳市－南山区－科技园路1号' },
    [],
  ],
];

for (const [name, overrides, expected] of cases) {
  test(`risk flags: ${name}`, () => {
    const applicant = { ...validApplicant(), ...overrides } as ApplicationRequest;
    const flags = riskFlags(applicant, ctx).map(
      (f) =>
        `${f.code}:${Object.entries(f.params)
          .map(([k, v]) => `${k}=${v}`)
          .join(',')}`,
    );
    assert.deepEqual(flags, expected);
  });
}

test('risk flags name the fields they concern and carry no identity value', () => {
  const applicant = validApplicant({
    consignee: '韩梅梅',
    consignee_address: '广东省-深圳市-福田区-福华路8号',
    consignee_mob_no: '13900139000',
    position: '99',
    wealth_source: ['99'],
    wealth_source_other: 'lottery',
  });
  const flags = riskFlags(applicant, ctx);
  assert.deepEqual(
    flags.map((f) => [f.code, f.fields]),
    [
      ['consignee_not_applicant', ['consignee']],
      ['delivery_address_differs', ['consignee_address', 'address']],
      ['consignee_mobile_differs', ['consignee_mob_no', 'mob_no']],
      ['other_answer', ['position', 'wealth_source_other']],
    ],
  );
  assert.deepEqual(
    riskFlags(validApplicant({ purpose: ['99'] }), ctx).map((f) => [f.code, f.fields]),
    [['other_text_missing', ['purpose', 'purpose_other']]],
  );
  const text = JSON.stringify(flags);
  for (const value of ['韩梅梅', '福华路', '13900139000', 'lottery', '李雷'])
    assert.ok(!text.includes(value));
});

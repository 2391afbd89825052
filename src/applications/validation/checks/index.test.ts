import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { defaultCodeTables } from '../../../codes/tables.ts';
import type { ApplicationRequest } from '../../../record/schema.ts';
import { checkApplication, DEFAULT_MIN_AGE, type CheckContext } from './index.ts';
import { hkidCheckDigit } from './identity.ts';
import { md5Hex } from './payPassword.ts';
import { mainlandId, validApplicant } from '../../../../test/helpers/applicantFixture.ts';

const ctx: CheckContext = {
  now: new Date('2026-11-22T08:00:00Z'),
  timeZone: 'Asia/Shanghai',
  minAge: DEFAULT_MIN_AGE,
  codes: defaultCodeTables(),
};
const run = (over: Partial<ApplicationRequest>, skip: string[] = []) =>
  checkApplication(validApplicant(over), ctx, new Set(skip)).map((p) => `${p.field}:${p.error}`);

describe('checkApplication', () => {
  const cases: [string, Partial<ApplicationRequest>, string[], string[]][] = [
    ['the valid applicant', {}, [], []],
    ['card_no is not checked here', { card_no: 'not a card number' }, [], []],
    [
      'a Hong Kong identity card holder without a start date',
      {
        country: 'HK',
        cert_id: `A123456(${hkidCheckDigit('A', '123456')})`,
        cert_start_date: undefined,
        name: '陳大文',
        name_en: 'CHAN TAI MAN',
        address: 'Flat A, 1 Queen Road, Hong Kong',
        mob_no: '91234567',
        mob_no_of: '+852',
      },
      [],
      [],
    ],
    [
      'a passport holder of another country',
      {
        country: 'US',
        cert_type: '02',
        cert_id: '123456789',
        name: 'John Smith',
        name_en: "JOHN O'NEIL",
        address: '1 Main St, Springfield',
      },
      [],
      [],
    ],
    [
      'an unknown country: the country-dependent checks wait',
      { country: 'XX', cert_id: 'garbage', address: 'x' },
      [],
      ['country:codeUnknown'],
    ],
    [
      'a country that failed the schema: its checks wait too',
      { cert_id: 'garbage', address: 'x' },
      ['country'],
      [],
    ],
    ['a birthday that failed the schema: no comparison with cert_id', { birthday: 'x' }, ['birthday'], []],
    [
      'a birthday that failed its own check: no second problem',
      { birthday: '1990-02-30' },
      [],
      ['birthday:dateInvalid'],
    ],
    ['a sex that failed the schema', { sex: 'F' }, ['sex'], []],
    ['a sex that disagrees with cert_id', { sex: 'F' }, [], ['cert_id:certSexMismatch']],
    [
      'cert_type failed the schema: no identity check, no start-date rule',
      { cert_id: 'x', cert_start_date: undefined },
      ['cert_type'],
      [],
    ],
    [
      'a cert_start_date that failed the schema is not "omitted"',
      { cert_start_date: 'bad' },
      ['cert_start_date'],
      [],
    ],
    ['the area code failed the schema: the number waits', { mob_no: '1' }, ['mob_no_of'], []],
    [
      'an unknown area code: the number waits',
      { mob_no: '1', mob_no_of: '+999' },
      [],
      ['mob_no_of:areaCodeInvalid'],
    ],
    ['a bad mobile number is not used by the pay_pwd check', { mob_no: '1' }, [], ['mob_no:phoneInvalid']],
    [
      "a weak pay_pwd from the applicant's birthday",
      { pay_pwd: md5Hex('900307') },
      [],
      ['pay_pwd:payPwdWeak'],
    ],
    [
      'profession "other" without profession_other',
      { profession: 'Z' },
      [],
      ['profession_other:otherTextRequired'],
    ],
    ['profession_other that failed the schema', { profession: 'Z' }, ['profession_other'], []],
    ['an unknown profession: no "other" rule', { profession: 'QQ' }, [], ['profession:codeUnknown']],
    // PRODUCT.md: purpose_other and wealth_source_other are optional, as the spec says (were required).
    [
      'purpose with a duplicate and "other"',
      { purpose: ['01', '01', '99'] },
      [],
      ['purpose:fieldDuplicateItems'],
    ],
    ['wealth_source "other" without its text', { wealth_source: ['99'] }, [], []],
    [
      'a mainland passport holder: pinyin checked too',
      { cert_type: '02', cert_id: 'E12345678', name_en: 'LEE LAY' },
      [],
      ['name_en:nameEnPinyinMismatch'],
    ],
    [
      'a mainland applicant living in London',
      { address: 'Flat 3, 12 Baker Street, London NW1 6XE', consignee_address: '10 Downing Street, London' },
      [],
      [],
    ],
    [
      'office address in mainland form with a bad city',
      { office_address: '广东省-杭州市-西湖区-1号' },
      [],
      ['office_address:addressDivisionUnknown'],
    ],
    [
      'a Hong Kong applicant with a mainland office and a Cantonese name',
      {
        country: 'HK',
        cert_id: 'c668668 (9)',
        cert_start_date: undefined,
        name: '陳大文',
        name_en: 'Chan Tai Man',
        address: '香港九龙尖沙咀广东道100号',
        mob_no: '9123 4567',
        mob_no_of: '+852',
        office_address: '广东-深圳-南山区-科技园路2号',
        office_tel_no: '26000000',
        office_tel_no_of: '0755',
        consignee_mob_no: '2123 4567',
        consignee_mob_no_of: '+852',
      },
      [],
      [],
    ],
    [
      'cert_start_date before birthday',
      { cert_start_date: '1990-03-06' },
      [],
      ['cert_start_date:documentStartBeforeBirth'],
    ],
    [
      'an optional image URL',
      { id_card_back_img: 'http://img.example.com/b.jpg' },
      [],
      ['id_card_back_img:urlNotHttps'],
    ],
    ['an omitted optional image URL', { id_card_back_img: undefined }, [], []],
    [
      'consignee address in mainland form with a bad district',
      { consignee_address: '广东省-深圳市-西湖区-1号' },
      [],
      ['consignee_address:addressDivisionUnknown'],
    ],
    [
      'consignee address abroad',
      {
        consignee_address: '1 Main St, Springfield',
        consignee_mob_no: '2015550123',
        consignee_mob_no_of: '+1',
      },
      [],
      [],
    ],
    ['office telephone', { office_tel_no: '123' }, [], ['office_tel_no:phoneInvalid']],
  ];
  for (const [name, over, skip, expected] of cases) {
    test(`${name} -> ${expected.join(',') || 'ok'}`, () => assert.deepEqual(run(over, skip), expected));
  }

  test('every problem at once, in the field order of the spec', () => {
    const problems = run({
      pay_voucher: 'https://127.0.0.1/v.jpg',
      address: '火星省-深圳市-南山区-1号',
      email: 'x',
      cert_id: mainlandId('440305', '1990-03-08', '123'),
      name_en: 'LI MING',
      profession: 'QQ',
      cert_end_date: '2020-01-01',
    });
    assert.deepEqual(problems, [
      'address:addressDivisionUnknown',
      'cert_id:certBirthMismatch',
      'cert_end_date:documentExpired',
      'email:emailInvalid',
      'name_en:nameEnPinyinMismatch',
      'profession:codeUnknown',
      'pay_voucher:urlPrivateHost',
    ]);
  });

  test('the minimum age comes from the context', () => {
    const young = validApplicant({
      birthday: '2006-01-01',
      cert_id: mainlandId('440305', '2006-01-01', '123'),
    });
    assert.deepEqual(checkApplication(young, ctx, new Set()), []);
    assert.deepEqual(
      checkApplication(young, { ...ctx, minAge: 21 }, new Set()).map((p) => p.error),
      ['underAge'],
    );
  });

  test('no message parameter echoes a sensitive value', () => {
    const app = validApplicant({
      cert_id: '123',
      mob_no: '1',
      email: 'secret-mail',
      name: 'Secret',
      name_en: 'secret',
      address: 'Secret-Road-X-1',
      pay_pwd: 'secretsecret',
      office_tel_no: '9',
      consignee_mob_no: '8',
    });
    const problems = checkApplication(app, ctx, new Set());
    assert.ok(problems.length >= 8);
    const text = JSON.stringify(problems.map((p) => p.params ?? {}));
    for (const secret of ['123', 'secret', 'Secret', 'Road']) assert.ok(!text.includes(secret), secret);
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkPayPassword, md5Hex, weakSixDigitPasswords, type PayPasswordInput } from './payPassword.ts';

const verdict = (input: PayPasswordInput) => checkPayPassword(input)[0]?.error ?? 'ok';

describe('checkPayPassword', () => {
  test('refuses the digests as other tools write them (md5sum), not only as md5Hex does', () => {
    // printf '' | md5sum; printf '123456' | md5sum; printf '704193' | md5sum
    assert.equal(verdict({ pay_pwd: 'd41d8cd98f00b204e9800998ecf8427e' }), 'payPwdWeak');
    assert.equal(verdict({ pay_pwd: 'E10ADC3949BA59ABBE56E057F20F883E' }), 'payPwdWeak');
    assert.equal(verdict({ pay_pwd: '97b24f7696e25258fabac36171807fe5' }), 'ok');
    assert.equal(md5Hex('704193'), '97b24f7696e25258fabac36171807fe5');
  });

  const cases: [string, string, string][] = [
    ['strong, lower case', md5Hex('704193'), 'ok'],
    ['strong, upper case', md5Hex('704193').toUpperCase(), 'ok'],
    ['31 digits', md5Hex('704193').slice(1), 'fieldFormat'],
    ['not hex', 'z'.repeat(32), 'fieldFormat'],
    ['plain password', '704193', 'fieldFormat'],
    ['empty password', md5Hex(''), 'payPwdWeak'],
    ...[
      '000000',
      '111111',
      '999999',
      '123456',
      '234567',
      '456789',
      '890123',
      '012345',
      '654321',
      '987654',
      '210987',
      '121212',
      '123123',
      '520520',
      '112233',
      '123321',
      '147258',
    ].map((p): [string, string, string] => [p, md5Hex(p), 'payPwdWeak']),
    ['weak, upper-case digest', md5Hex('123456').toUpperCase(), 'payPwdWeak'],
  ];
  for (const [name, pay_pwd, expected] of cases)
    test(`${name} -> ${expected}`, () => assert.equal(verdict({ pay_pwd }), expected));

  const person = { birthday: '1990-03-07', cert_id: '44030519900307123X', mob_no: '13800138000' };
  const personal: [string, string][] = [
    ['birthday YYMMDD', '900307'],
    ['birthday MMDDYY', '030790'],
    ['birthday DDMMYY', '070390'],
    ['birthday YYYYMM', '199003'],
    ['last six of cert_id', '07123X'],
    ['last six of cert_id, lower case', '07123x'],
    ['last six of mob_no', '138000'],
  ];
  for (const [name, password] of personal) {
    test(`${name} -> payPwdWeak`, () =>
      assert.equal(verdict({ pay_pwd: md5Hex(password), ...person }), 'payPwdWeak'));
    test(`${name}, another applicant -> ok`, () =>
      assert.equal(verdict({ pay_pwd: md5Hex(password) }), 'ok'));
  }

  test('the format problem carries its rule; the weak problem says nothing of which rule matched', () => {
    const [format] = checkPayPassword({ pay_pwd: 'x' });
    assert.equal(typeof format?.params?.rule, 'string');
    assert.equal(typeof format?.params?.rule_zh, 'string');
    assert.deepEqual(checkPayPassword({ pay_pwd: md5Hex('123456') }), [
      { field: 'pay_pwd', error: 'payPwdWeak' },
    ]);
  });

  test('the static list: runs both ways with wrap-around, every repeated pair and triple', () => {
    const weak = weakSixDigitPasswords();
    for (const p of ['012345', '567890', '901234', '543210', '109876', '424242', '909090', '007007'])
      assert.ok(weak.has(p), p);
    for (const p of ['704193', '135790', '246810']) assert.ok(!weak.has(p), p);
    assert.ok(weak.size > 1000 && weak.size < 1200);
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  checkEmail,
  checkPhone,
  isKnownCallingCode,
  isValidPhone,
  isWellFormedEmail,
  type PhoneKind,
} from './contact.ts';

describe('isKnownCallingCode', () => {
  const cases: [string, boolean][] = [
    ['+86', true],
    ['+1', true],
    ['+852', true],
    ['+44', true],
    ['+881', true], // global mobile satellite system (non-geographic)
    ['+8', false],
    ['+999', false],
    ['+0', false],
    ['86', false],
  ];
  for (const [area, expected] of cases)
    test(`${area} -> ${expected}`, () => assert.equal(isKnownCallingCode(area), expected));
});

describe('isValidPhone', () => {
  const cases: [string, string, PhoneKind, boolean][] = [
    ['13800138000', '+86', 'mobile', true],
    ['013800138000', '+86', 'mobile', true], // national trunk prefix left in front
    ['8613800138000', '+86', 'mobile', false], // calling code repeated
    ['1380013800', '+86', 'mobile', false], // one digit short
    ['12345678901', '+86', 'mobile', false],
    ['75586000000', '+86', 'mobile', false], // a fixed line is not a mobile number
    ['75586000000', '+86', 'telephone', true],
    ['075586000000', '+86', 'telephone', true],
    ['13800138000', '+86', 'telephone', true],
    ['138-0013-8000', '+86', 'mobile', false], // digits only
    ['+8613800138000', '+86', 'mobile', false],
    ['91234567', '+852', 'mobile', true],
    ['21234567', '+852', 'mobile', false],
    ['21234567', '+852', 'telephone', true],
    ['66123456', '+853', 'mobile', true],
    ['81234567', '+65', 'mobile', true],
    ['7911123456', '+44', 'mobile', true],
    ['07911123456', '+44', 'mobile', true],
    ['2015550123', '+1', 'mobile', true], // FIXED_LINE_OR_MOBILE
    ['13800138000', '+1', 'mobile', false],
    ['13800138000', '+8', 'mobile', false],
  ];
  for (const [number, area, kind, expected] of cases) {
    test(`${kind} ${area} ${number} -> ${expected}`, () =>
      assert.equal(isValidPhone(number, area, kind), expected));
  }
});

describe('checkPhone', () => {
  const base = { field: 'mob_no', areaField: 'mob_no_of', kind: 'mobile' as const };
  test('valid', () => assert.deepEqual(checkPhone({ ...base, number: '13800138000', area: '+86' }), []));
  test('invalid number names the kind and the area, not the number', () => {
    assert.deepEqual(checkPhone({ ...base, number: '12345', area: '+86' }), [
      { field: 'mob_no', error: 'phoneInvalid', params: { kind: 'mobile', kind_zh: '手机', area: '+86' } },
    ]);
  });
  test('unknown calling code: one problem, on the area field', () => {
    assert.deepEqual(checkPhone({ ...base, number: '12345', area: '+999' }), [
      { field: 'mob_no_of', error: 'areaCodeInvalid' },
    ]);
  });
  test('number failed earlier: only the area is judged', () => {
    assert.deepEqual(checkPhone({ ...base, number: undefined, area: '+86' }), []);
  });
  test('area failed earlier: nothing is judged', () => {
    assert.deepEqual(checkPhone({ ...base, number: '12345', area: undefined }), []);
  });
});

describe('isWellFormedEmail', () => {
  const cases: [string, boolean][] = [
    ['li.lei@example.com', true],
    ['li+tag@mail.example.cn', true],
    ["o'neil@example.co.uk", true],
    ['a@b.cd', true],
    ['user@xn--fiqs8s.xn--fiqs8s', true],
    ['user@sub-domain.example.com', true],
    ['no-at.example.com', false],
    ['two@@example.com', false],
    ['a@b@example.com', false],
    ['@example.com', false],
    ['user@', false],
    ['user@localhost', false],
    ['user@example.c', false],
    ['user@example.123', false],
    ['user@-example.com', false],
    ['user@example-.com', false],
    ['user@exa_mple.com', false],
    ['user@example..com', false],
    ['user@.example.com', false],
    ['user@example.com.', false],
    ['.user@example.com', false],
    ['user.@example.com', false],
    ['us..er@example.com', false],
    ['us er@example.com', false],
    ['"quoted"@example.com', false],
    ['user@例子.中国', false],
    ['用户@example.com', false],
    ['user@example.com\n', false],
    [`${'a'.repeat(64)}@example.com`, true],
    [`${'a'.repeat(65)}@example.com`, false],
    [`user@${'a'.repeat(64)}.com`, false],
  ];
  for (const [email, expected] of cases)
    test(`${JSON.stringify(email)} -> ${expected}`, () => assert.equal(isWellFormedEmail(email), expected));

  test('checkEmail reports emailInvalid without the value', () => {
    assert.deepEqual(checkEmail('x'), [{ field: 'email', error: 'emailInvalid' }]);
  });
});

import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { readAreaCode, readEmail, readPhone, type AreaForm } from '../../../record/canonical.ts';
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
    ['138-0013-8000', '+86', 'mobile', false], // digits only here; checkPhone reads past the hyphens
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

type Field = 'mob_no' | 'office_tel_no' | 'consignee_mob_no';
const KINDS: Record<Field, { areaField: string; kind: PhoneKind; office?: boolean; plusOptional?: boolean }> =
  {
    mob_no: { areaField: 'mob_no_of', kind: 'mobile' },
    office_tel_no: { areaField: 'office_tel_no_of', kind: 'telephone', office: true },
    consignee_mob_no: { areaField: 'consignee_mob_no_of', kind: 'telephone', plusOptional: true },
  };
const FORMS: Record<Field, AreaForm> = {
  mob_no: 'plus',
  office_tel_no: 'office',
  consignee_mob_no: 'bare',
};
/** Checks a number and area code as sent, read canonically first as the application checks do. */
const check = (field: Field, number: string | undefined, area: string | undefined) =>
  checkPhone({
    field,
    ...KINDS[field],
    number: number === undefined ? undefined : readPhone(number),
    area: area === undefined ? undefined : readAreaCode(area, FORMS[field]),
  }).map((p) => `${p.field}:${p.error}`);

describe('checkPhone', () => {
  const cases: [string, Field, string, string, string[]][] = [
    ['valid', 'mob_no', '13800138000', '+86', []],
    // PRODUCT.md: spaces, hyphens and parentheses are read past (hyphens were refused).
    ['spaced as spoken', 'mob_no', '138 0013 8000', '+86', []],
    ['hyphenated', 'mob_no', '138-0013-8000', '+86', []],
    ['full-width digits and plus', 'mob_no', '１３８００１３８０００', '＋８６', []],
    ['calling code in brackets', 'mob_no', '13800138000', '(+86)', []],
    ['Hong Kong mobile', 'mob_no', '9123 4567', '+852', []],
    ['dots are no separator', 'mob_no', '138.0013.8000', '+86', ['mob_no:phoneSeparator']],
    ['letters', 'mob_no', '138OO138OOO', '+86', ['mob_no:phoneCharacters']],
    ['calling code repeated', 'mob_no', '+86 138 0013 8000', '+86', ['mob_no:phoneCallingCodeRepeated']],
    ['a landline is not a mobile', 'mob_no', '75586000000', '+86', ['mob_no:phoneNotMobile']],
    ['an extension on a mobile', 'mob_no', '13800138000 ext. 12', '+86', ['mob_no:phoneExtension']],
    ['too short', 'mob_no', '1380013800', '+86', ['mob_no:phoneInvalid']],
    ['calling code without +', 'mob_no', '13800138000', '86', ['mob_no_of:areaCodePlusMissing']],
    ['calling code 0086', 'mob_no', '13800138000', '0086', ['mob_no_of:areaCodePlusMissing']],
    ['a domestic area code for a mobile', 'mob_no', '13800138000', '0755', ['mob_no_of:areaCodeInvalid']],
    // office numbers: area code forms and extensions
    ['office, calling code', 'office_tel_no', '75526000000', '+86', []],
    ['office, with trunk 0 and hyphen', 'office_tel_no', '0755-26000000', '+86', []],
    ['office, area code 0755', 'office_tel_no', '26000000', '0755', []],
    ['office, area code 755', 'office_tel_no', '2600 0000', '755', []],
    ['office, number already holds the area code', 'office_tel_no', '0755-26000000', '0755', []],
    ['office, Beijing area code 010', 'office_tel_no', '6552 9988', '010', []],
    ['office, a mobile with an area code', 'office_tel_no', '13800138000', '0755', []],
    ['office, extension with ext.', 'office_tel_no', '0755-26000000 ext. 801', '+86', []],
    ['office, extension with 转', 'office_tel_no', '26000000转801', '0755', []],
    ['office, extension with #', 'office_tel_no', '26000000#801', '0755', []],
    ['office, extension as the last hyphen group', 'office_tel_no', '0755-26000000-801', '+86', []],
    ['office, Hong Kong landline', 'office_tel_no', '2123 4567', '+852', []],
    ['office, not a number', 'office_tel_no', '123', '+86', ['office_tel_no:phoneInvalid']],
    [
      'office, an area code that is none',
      'office_tel_no',
      '26000000',
      '0x',
      ['office_tel_no_of:officeAreaCodeInvalid'],
    ],
    [
      'office, unknown calling code',
      'office_tel_no',
      '26000000',
      '+999',
      ['office_tel_no_of:areaCodeInvalid'],
    ],
    // PRODUCT.md: office_tel_no_of a calling code with or without its +, or an area code; whichever
    // reading makes a valid number is taken (86 and 852 were read as mainland area codes only).
    ['office, calling code 86 without +', 'office_tel_no', '755 2600 0000', '86', []],
    ['office, calling code 0086', 'office_tel_no', '75526000000', '0086', []],
    ['office, 852 read as Hong Kong', 'office_tel_no', '2123 4567', '852', []],
    ['office, 855 read as Cambodia', 'office_tel_no', '23 212 345', '855', []],
    ['office, 855 read as Kaili 0855', 'office_tel_no', '381 2345', '855', []],
    ['office, 886 read as Taiwan', 'office_tel_no', '2 2345 6789', '886', []],
    ['office, 1 read as North America', 'office_tel_no', '212 555 0100', '1', []],
    ['office, 20 read as Guangzhou 020', 'office_tel_no', '8888 6666', '20', []],
    ['office, 44 read as the United Kingdom', 'office_tel_no', '20 7946 0000', '44', []],
    [
      'office, 852 and a number valid under neither',
      'office_tel_no',
      '123',
      '852',
      ['office_tel_no:phoneNoAreaReading'],
    ],
    ['office, 86 and a number too short', 'office_tel_no', '123', '86', ['office_tel_no:phoneInvalid']],
    [
      'office, 00 and an unknown code',
      'office_tel_no',
      '26000000',
      '00999',
      ['office_tel_no_of:areaCodeInvalid'],
    ],
    // PRODUCT.md: consignee_mob_no_of with or without its + (86 was refused).
    ['consignee, calling code 86', 'consignee_mob_no', '13800138000', '86', []],
    ['consignee, calling code 852', 'consignee_mob_no', '9123 4567', '852', []],
    ['consignee, calling code 0086', 'consignee_mob_no', '13800138000', '0086', []],
    [
      'consignee, an unknown bare code',
      'consignee_mob_no',
      '13800138000',
      '999',
      ['consignee_mob_no_of:callingCodeUnknown'],
    ],
    [
      'consignee, an area code is no calling code',
      'consignee_mob_no',
      '26000000',
      '0755',
      ['consignee_mob_no_of:callingCodeUnknown'],
    ],
    // PRODUCT.md: the consignee's number is any valid telephone number (a landline was refused).
    ['consignee, a landline', 'consignee_mob_no', '0755-2600 0000', '+86', []],
    ['consignee, a mobile', 'consignee_mob_no', '13800138000', '+86', []],
    ['consignee, invalid', 'consignee_mob_no', '12345', '+86', ['consignee_mob_no:phoneInvalid']],
  ];
  for (const [name, field, number, area, expected] of cases) {
    test(`${name} -> ${expected.join(',') || 'ok'}`, () =>
      assert.deepEqual(check(field, number, area), expected));
  }

  test('invalid number names the kind and the area, not the number', () => {
    assert.deepEqual(
      checkPhone({
        field: 'mob_no',
        areaField: 'mob_no_of',
        kind: 'mobile',
        number: readPhone('12345'),
        area: readAreaCode('+86', 'plus'),
      }),
      [{ field: 'mob_no', error: 'phoneInvalid', params: { kind: 'mobile', kind_zh: '手机', area: '+86' } }],
    );
  });
  test('a separator is named, the number is not', () => {
    const [p] = checkPhone({
      field: 'mob_no',
      areaField: 'mob_no_of',
      kind: 'mobile',
      number: readPhone('138/0013/8000'),
      area: readAreaCode('+86', 'plus'),
    });
    assert.deepEqual(p?.params, { char: '/' });
  });
  test('unknown calling code: one problem, on the area field', () => {
    assert.deepEqual(check('mob_no', '12345', '+999'), ['mob_no_of:areaCodeInvalid']);
  });
  test('number failed earlier: only the area is judged', () => {
    assert.deepEqual(check('mob_no', undefined, '+86'), []);
  });
  test('area failed earlier: nothing is judged', () => {
    assert.deepEqual(check('mob_no', '12345', undefined), []);
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
    // PRODUCT.md: internationalised domains in Unicode or in their xn-- form (Unicode was refused).
    ['user@例子.中国', true],
    ['user@例子。中国', true], // the ideographic full stop an input method types
    ['user@bücher.example', true],
    ['用户@example.com', false],
    ['user@example.com\n', false],
    [`${'a'.repeat(64)}@example.com`, true],
    [`${'a'.repeat(65)}@example.com`, false],
    [`user@${'a'.repeat(64)}.com`, false],
  ];
  for (const [email, expected] of cases)
    test(`${JSON.stringify(email)} -> ${expected}`, () => assert.equal(isWellFormedEmail(email), expected));

  test('checkEmail reports emailInvalid without the value', () => {
    assert.deepEqual(checkEmail(readEmail('x')), [{ field: 'email', error: 'emailInvalid' }]);
  });
});

describe('calling codes without their plus (properties)', () => {
  const examples = createRequire(import.meta.url)('libphonenumber-js/examples.mobile.json') as Record<
    string,
    string
  >;
  const mobiles = Object.entries(examples).flatMap(([country, national]) => {
    const parsed = parsePhoneNumberFromString(national, country as CountryCode);
    return parsed?.isValid() === true ? [[parsed.countryCallingCode, parsed.nationalNumber] as const] : [];
  });

  test('consignee_mob_no_of: 852, 0086 and +852 are read alike', () => {
    fc.assert(
      fc.property(fc.constantFrom(...mobiles), fc.constantFrom('', '00'), ([code, number], prefix) => {
        assert.deepEqual(
          check('consignee_mob_no', number, `${prefix}${code}`),
          check('consignee_mob_no', number, `+${code}`),
        );
        assert.deepEqual(check('consignee_mob_no', number, `+${code}`), []);
      }),
      { numRuns: 300 },
    );
  });

  test('office_tel_no_of: a valid number with its calling code is accepted without the plus', () => {
    fc.assert(
      fc.property(fc.constantFrom(...mobiles), ([code, number]) => {
        assert.deepEqual(check('office_tel_no', number, code), [], `${code} ${number}`);
      }),
      { numRuns: 300 },
    );
  });

  test('mob_no_of: without the plus it stays refused', () => {
    fc.assert(
      fc.property(fc.constantFrom(...mobiles), ([code, number]) => {
        assert.deepEqual(check('mob_no', number, code), ['mob_no_of:areaCodePlusMissing']);
      }),
      { numRuns: 100 },
    );
  });
});

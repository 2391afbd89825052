import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { checkIdentity, gb11643CheckDigit, hkidCheckDigit, type IdentityInput } from './identity.ts';

const errors = (input: IdentityInput) => checkIdentity(input).map((p) => `${p.field}:${p.error}`);

describe('gb11643CheckDigit', () => {
  const cases: [string, string][] = [
    ['11010519491231002', 'X'], // the standard's own example
    ['44052418800101001', '4'],
    ['44030519900307123', '6'],
  ];
  for (const [body, check] of cases)
    test(`${body} -> ${check}`, () => assert.equal(gb11643CheckDigit(body), check));

  test('MOD 11-2 catches every single-digit error', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9]{17}$/),
        fc.integer({ min: 0, max: 16 }),
        fc.integer({ min: 1, max: 9 }),
        (body, at, delta) => {
          const changed = body.slice(0, at) + String((Number(body[at]) + delta) % 10) + body.slice(at + 1);
          return gb11643CheckDigit(changed) !== gb11643CheckDigit(body);
        },
      ),
    );
  });
});

describe('hkidCheckDigit', () => {
  const cases: [string, string, string][] = [
    ['A', '123456', '3'],
    ['G', '123456', 'A'],
    ['AB', '123456', '9'],
  ];
  for (const [prefix, digits, check] of cases) {
    test(`${prefix}${digits} -> ${check}`, () => assert.equal(hkidCheckDigit(prefix, digits), check));
  }
});

describe('checkIdentity', () => {
  const cn = (cert_id: string, over: Partial<IdentityInput> = {}): IdentityInput => ({
    cert_type: '00',
    country: 'CN',
    cert_id,
    birthday: '1990-03-07',
    sex: 'M',
    ...over,
  });
  const cases: [string, IdentityInput, string[]][] = [
    ['mainland, valid', cn('440305199003071236'), []],
    ['mainland, example with X', cn('11010519491231002X', { birthday: '1949-12-31', sex: 'F' }), []],
    ['mainland, lower-case x', cn('11010519491231002x', { birthday: '1949-12-31', sex: 'F' }), []],
    ['mainland, check digit', cn('440305199003071235'), ['cert_id:certCheckDigit']],
    ['mainland, 17 characters', cn('44030519900307123'), ['cert_id:certFormat']],
    ['mainland, letter inside', cn('4403051990030712A5'), ['cert_id:certFormat']],
    ['mainland, 15-digit old form', cn('440305900307123'), ['cert_id:certFormat']],
    [
      'mainland, birthday differs',
      cn('440305199003071236', { birthday: '1990-03-08' }),
      ['cert_id:certBirthMismatch'],
    ],
    ['mainland, sex differs', cn('440305199003071236', { sex: 'F' }), ['cert_id:certSexMismatch']],
    [
      'mainland, birthday and sex unknown',
      cn('440305199003071236', { birthday: undefined, sex: undefined }),
      [],
    ],
    [
      'mainland, region 99',
      cn(`99030519900307123${gb11643CheckDigit('99030519900307123')}`),
      ['cert_id:certRegionUnknown'],
    ],
    [
      'mainland, region 81 (Hong Kong residents)',
      cn(`81000019900307123${gb11643CheckDigit('81000019900307123')}`),
      [],
    ],
    [
      'mainland, embedded date not real',
      cn(`44030519900230123${gb11643CheckDigit('44030519900230123')}`, { birthday: '1990-02-28' }),
      ['cert_id:certBirthMismatch'],
    ],
    ['Hong Kong, valid', { cert_type: '00', country: 'HK', cert_id: 'A123456(3)' }, []],
    ['Hong Kong, no parentheses', { cert_type: '00', country: 'HK', cert_id: 'A1234563' }, []],
    ['Hong Kong, check A', { cert_type: '00', country: 'HK', cert_id: 'G123456(A)' }, []],
    ['Hong Kong, two letters', { cert_type: '00', country: 'HK', cert_id: 'AB123456(9)' }, []],
    [
      'Hong Kong, check digit',
      { cert_type: '00', country: 'HK', cert_id: 'A123456(4)' },
      ['cert_id:certCheckDigit'],
    ],
    [
      'Hong Kong, lower case',
      { cert_type: '00', country: 'HK', cert_id: 'a123456(3)' },
      ['cert_id:certFormat'],
    ],
    [
      'Hong Kong, half parenthesis',
      { cert_type: '00', country: 'HK', cert_id: 'A123456(3' },
      ['cert_id:certFormat'],
    ],
    ['other national id', { cert_type: '00', country: 'SG', cert_id: 'S1234567D' }, []],
    ['other national id with hyphens', { cert_type: '00', country: 'MY', cert_id: '900307-14-5678' }, []],
    ['Macao identity card', { cert_type: '00', country: 'MO', cert_id: '1234567(8)' }, []],
    [
      'other national id, parenthesis inside',
      { cert_type: '00', country: 'MO', cert_id: '123(4)567' },
      ['cert_id:certFormat'],
    ],
    [
      'other national id, too short',
      { cert_type: '00', country: 'SG', cert_id: 'S12' },
      ['cert_id:certFormat'],
    ],
    [
      'other national id, double space',
      { cert_type: '00', country: 'US', cert_id: 'AB  1234' },
      ['cert_id:certFormat'],
    ],
    [
      'other national id, symbol',
      { cert_type: '00', country: 'US', cert_id: 'AB#1234' },
      ['cert_id:certFormat'],
    ],
    ['passport', { cert_type: '02', country: 'US', cert_id: '123456789' }, []],
    ['passport, letters and digits', { cert_type: '02', country: 'GB', cert_id: 'AB1234567' }, []],
    [
      'passport, lower case',
      { cert_type: '02', country: 'GB', cert_id: 'ab1234567' },
      ['cert_id:certFormat'],
    ],
    [
      'passport, too long',
      { cert_type: '02', country: 'GB', cert_id: 'AB12345678' },
      ['cert_id:passportFormat'],
    ],
    [
      'passport, no digit',
      { cert_type: '02', country: 'GB', cert_id: 'ABCDEFG' },
      ['cert_id:passportFormat'],
    ],
    ['passport, hyphen', { cert_type: '02', country: 'GB', cert_id: 'AB-12345' }, ['cert_id:passportFormat']],
    ['Chinese passport E + 8', { cert_type: '02', country: 'CN', cert_id: 'E12345678' }, []],
    ['Chinese passport E + letter + 7', { cert_type: '02', country: 'CN', cert_id: 'EA1234567' }, []],
    ['Chinese passport G + 8', { cert_type: '02', country: 'CN', cert_id: 'G12345678' }, []],
    ['Chinese diplomatic passport', { cert_type: '02', country: 'CN', cert_id: 'DE1234567' }, []],
    [
      'Chinese passport, other form',
      { cert_type: '02', country: 'CN', cert_id: 'K12345678' },
      ['cert_id:passportFormat'],
    ],
    [
      'Chinese passport, 7 digits after E',
      { cert_type: '02', country: 'CN', cert_id: 'E1234567' },
      ['cert_id:passportFormat'],
    ],
  ];
  for (const [name, input, expected] of cases) {
    test(`${name} -> ${expected.join(',') || 'ok'}`, () => assert.deepEqual(errors(input), expected));
  }

  test('certFormat carries a rule in both languages', () => {
    const [p] = checkIdentity(cn('123'));
    assert.equal(typeof p?.params?.rule, 'string');
    assert.equal(typeof p?.params?.rule_zh, 'string');
  });

  test('any generated Hong Kong number with its check digit passes; another digit fails', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Z]{1,2}$/),
        fc.stringMatching(/^[0-9]{6}$/),
        fc.boolean(),
        (prefix, digits, parens) => {
          const check = hkidCheckDigit(prefix, digits);
          const id = parens ? `${prefix}${digits}(${check})` : `${prefix}${digits}${check}`;
          const wrong = check === '0' ? '1' : '0';
          return (
            errors({ cert_type: '00', country: 'HK', cert_id: id }).length === 0 &&
            errors({ cert_type: '00', country: 'HK', cert_id: `${prefix}${digits}${wrong}` })[0] ===
              'cert_id:certCheckDigit'
          );
        },
      ),
    );
  });
});

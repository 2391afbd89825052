import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { DEFAULT_COUNTRIES } from '../../../codes/defaultTables.ts';
import { ISO_NUMERIC } from '../../../codes/isoNumeric.ts';
import { canonicalDocumentNumber } from '../../../record/canonical.ts';
import {
  checkIdentity,
  gb11643CheckDigit,
  hkidCheckDigit,
  taiwanIdCheckDigit,
  type IdentityInput,
} from './identity.ts';

/** Checks a number as sent: read canonically first, as the application checks do. */
const errors = (input: IdentityInput) =>
  checkIdentity({ ...input, cert_id: canonicalDocumentNumber(input.cert_id) }).map(
    (p) => `${p.field}:${p.error}`,
  );
/** An 18-character GB 11643 number from its first 17 digits. */
const gb = (body17: string) => body17 + gb11643CheckDigit(body17);

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

describe('taiwanIdCheckDigit', () => {
  // A123456789 is the example printed on Taiwan's forms (Ministry of the Interior).
  test('A12345678 -> 9', () => assert.equal(taiwanIdCheckDigit('A12345678'), '9'));

  test('the whole number weighs to a multiple of 10, letters valued in the published order', () => {
    const order = 'ABCDEFGHJKLMNPQRSTUVXYWZIO';
    fc.assert(
      fc.property(
        fc.constantFrom(...order),
        fc.constantFrom('1', '2'),
        fc.stringMatching(/^[0-9]{7}$/),
        (l, s, d) => {
          const id = `${l}${s}${d}${taiwanIdCheckDigit(`${l}${s}${d}`)}`;
          const value = order.indexOf(l) + 10;
          const weights = [8, 7, 6, 5, 4, 3, 2, 1, 1];
          const sum =
            Math.floor(value / 10) +
            (value % 10) * 9 +
            [...id.slice(1)].reduce((acc, digit, i) => acc + Number(digit) * weights[i]!, 0);
          return sum % 10 === 0;
        },
      ),
    );
  });
});

describe('ISO_NUMERIC', () => {
  test('every default country has its numeric code (the permanent residence card embeds it)', () => {
    for (const country of DEFAULT_COUNTRIES)
      assert.match(ISO_NUMERIC[country.code] ?? '', /^\d{3}$/, country.code);
  });
});

describe('checkIdentity', () => {
  const hkPermit = (): IdentityInput => ({
    cert_type: '00',
    country: 'HK',
    cert_id: gb('81000019900307123'),
    birthday: '1990-03-07',
    sex: 'M',
  });
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
    ["mainland, Taiwan residents' permit", cn(gb('83000019900307123')), []],
    ['mainland, 81 but not a permit', cn(gb('81030519900307123')), ['cert_id:certRegionUnknown']],
    ['mainland, 83 but not a permit', cn(gb('83030519900307123')), ['cert_id:certRegionUnknown']],
    ['mainland, spaced as printed', cn('440305 19900307 1236'), []],
    ['mainland, full-width digits', cn('４４０３０５１９９００３０７１２３６'), []],
    ['mainland, hyphens', cn('440305-19900307-1236'), ['cert_id:certFormat']],
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
    // PRODUCT.md: A123456(3), a123456 (3) and A1234563 are one number (was refused as lower case).
    ['Hong Kong, lower case', { cert_type: '00', country: 'HK', cert_id: 'a123456(3)' }, []],
    ['Hong Kong, space before the bracket', { cert_type: '00', country: 'HK', cert_id: 'A123456 (3)' }, []],
    ['Hong Kong, full-width', { cert_type: '00', country: 'HK', cert_id: 'Ａ１２３４５６（３）' }, []],
    [
      'Hong Kong, check character missing',
      { cert_type: '00', country: 'HK', cert_id: 'A123456' },
      ['cert_id:certFormat'],
    ],
    [
      'Hong Kong, brackets inside',
      { cert_type: '00', country: 'HK', cert_id: 'A12(3456)3' },
      ['cert_id:certFormat'],
    ],
    [
      'Hong Kong, hyphen before the check digit',
      { cert_type: '00', country: 'HK', cert_id: 'A123456-3' },
      ['cert_id:certFormat'],
    ],
    ["Hong Kong residents' permit", { ...hkPermit() }, []],
    [
      "Hong Kong residents' permit, check digit",
      {
        ...hkPermit(),
        cert_id: hkPermit().cert_id.slice(0, 17) + (hkPermit().cert_id[17] === '0' ? '1' : '0'),
      },
      ['cert_id:certCheckDigit'],
    ],
    [
      'a Macao permit for a Hong Kong resident',
      { ...hkPermit(), cert_id: gb('82000019900307123') },
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
    ['Macao identity card, no brackets', { cert_type: '00', country: 'MO', cert_id: '51234568' }, []],
    [
      'Macao identity card, first digit not 1, 5 or 7',
      { cert_type: '00', country: 'MO', cert_id: '2234567(8)' },
      ['cert_id:certFormat'],
    ],
    [
      'Macao identity card, old printed form with slashes',
      { cert_type: '00', country: 'MO', cert_id: '1/234567/8' },
      ['cert_id:certFormat'],
    ],
    [
      "Macao residents' permit",
      { cert_type: '00', country: 'MO', cert_id: gb('82000019900307123'), birthday: '1990-03-07', sex: 'M' },
      [],
    ],
    ['Taiwan identity card', { cert_type: '00', country: 'TW', cert_id: 'A123456789' }, []],
    ['Taiwan identity card, lower case', { cert_type: '00', country: 'TW', cert_id: 'a123456789' }, []],
    [
      'Taiwan identity card, check digit',
      { cert_type: '00', country: 'TW', cert_id: 'A123456788' },
      ['cert_id:certCheckDigit'],
    ],
    [
      'Taiwan identity card, second digit not 1 or 2',
      { cert_type: '00', country: 'TW', cert_id: 'A323456789' },
      ['cert_id:certFormat'],
    ],
    [
      "Taiwan residents' permit",
      { cert_type: '00', country: 'TW', cert_id: gb('83000019900307123'), birthday: '1990-03-07', sex: 'M' },
      [],
    ],
    [
      "Taiwan residents' permit, birthday differs",
      { cert_type: '00', country: 'TW', cert_id: gb('83000019900307123'), birthday: '1990-03-08', sex: 'M' },
      ['cert_id:certBirthMismatch'],
    ],
    [
      'permanent residence card (2023), American born 1985-06-15, male',
      { cert_type: '00', country: 'US', cert_id: gb('91184019850615011'), birthday: '1985-06-15', sex: 'M' },
      [],
    ],
    [
      'permanent residence card, nationality is not country',
      { cert_type: '00', country: 'GB', cert_id: gb('91184019850615011'), birthday: '1985-06-15', sex: 'M' },
      ['cert_id:certNationalityMismatch'],
    ],
    [
      'permanent residence card, check character',
      {
        cert_type: '00',
        country: 'US',
        cert_id: '91184019850615011X'.replace(
          'X',
          gb11643CheckDigit('91184019850615011') === 'X' ? '0' : 'X',
        ),
        birthday: '1985-06-15',
        sex: 'M',
      },
      ['cert_id:certCheckDigit'],
    ],
    [
      'permanent residence card, sex differs',
      { cert_type: '00', country: 'US', cert_id: gb('91184019850615011'), birthday: '1985-06-15', sex: 'F' },
      ['cert_id:certSexMismatch'],
    ],
    [
      'permanent residence card, issuing province not a mainland province',
      { cert_type: '00', country: 'US', cert_id: gb('99984019850615011'), birthday: '1985-06-15', sex: 'M' },
      ['cert_id:certRegionUnknown'],
    ],
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
    // PRODUCT.md: spaces are removed from a document number (was refused).
    ['other national id, double space', { cert_type: '00', country: 'US', cert_id: 'AB  1234' }, []],
    [
      'other national id, symbol',
      { cert_type: '00', country: 'US', cert_id: 'AB#1234' },
      ['cert_id:certFormat'],
    ],
    ['passport', { cert_type: '02', country: 'US', cert_id: '123456789' }, []],
    ['passport, letters and digits', { cert_type: '02', country: 'AE', cert_id: 'AB1234567' }, []],
    // PRODUCT.md: a document number is read in upper case (was refused).
    ['passport, lower case', { cert_type: '02', country: 'AE', cert_id: 'ab1234567' }, []],
    [
      'Chinese passport, lower case and spaced',
      { cert_type: '02', country: 'CN', cert_id: 'e 1234 5678' },
      [],
    ],
    [
      'passport, too long',
      { cert_type: '02', country: 'AE', cert_id: 'AB12345678' },
      ['cert_id:passportFormat'],
    ],
    [
      'passport, no digit',
      { cert_type: '02', country: 'AE', cert_id: 'ABCDEFG' },
      ['cert_id:passportFormat'],
    ],
    ['passport, hyphen', { cert_type: '02', country: 'AE', cert_id: 'AB-12345' }, ['cert_id:passportFormat']],
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

  test('a separator the number does not take is named, never the number', () => {
    const [p] = checkIdentity(cn(canonicalDocumentNumber('440305-19900307-1236')));
    assert.match(String(p?.params?.rule), /^"-" is not part of this number/);
    assert.ok(!JSON.stringify(p).includes('440305'));
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

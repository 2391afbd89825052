import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { canonicalDocumentNumber } from '../../../record/canonical.ts';
import { checkPassportNumber, PASSPORT_FORMS } from './passports.ts';

const verdict = (country: string, sent: string) =>
  checkPassportNumber('cert_id', canonicalDocumentNumber(sent), country).map((p) => p.error);

/** A real-looking number of each country's current form (issuers' specimens where published). */
// prettier-ignore
const VALID: Record<string, readonly string[]> = {
  CN: ['E12345678', 'EA1234567', 'G12345678', 'DE1234567'],
  KR: ['M12345678', 'S12345678', 'M123A4567'],
  US: ['531234567', 'A12345678'],
  JP: ['TK1234567', 'MZ0123456'],
  PH: ['EB1234567', 'P1234567A'],
  ID: ['B1234567'], IN: ['J8369854'], VN: ['C1234567', 'P01234567'], TH: ['AA1234567'],
  MY: ['A12345678', 'H12345678'], SG: ['E1234567A'], GB: ['123456789'], IE: ['PA1234567'],
  CA: ['GA123456'], AU: ['N1234567', 'PA1234567'], NZ: ['LA123456'], DE: ['C01X00T47'],
  FR: ['18AB12345'], IT: ['YA1234567'], ES: ['PAA123456'], NL: ['NW92J1PK9'], BE: ['EH123456'],
  CH: ['X1234567'], RU: ['751234567'], TR: ['U12345678'], NP: ['08123456', 'PA1234567'],
  PK: ['AB1234567'], BD: ['BA1234567', 'A01234567'], LK: ['N1234567'], MM: ['MA123456'],
  MN: ['E1234567'], KZ: ['N12345678'], BR: ['FZ123456'], MX: ['G12345678'], ZA: ['A12345678'],
};

describe('passport numbers by issuing country', () => {
  test('at least 30 countries have a form of their own, each with a real-looking example', () => {
    assert.ok(Object.keys(PASSPORT_FORMS).length >= 30);
    assert.deepEqual(Object.keys(VALID).sort(), Object.keys(PASSPORT_FORMS).sort());
  });

  for (const [country, numbers] of Object.entries(VALID)) {
    for (const number of numbers)
      test(`${country} ${number} is accepted`, () => assert.deepEqual(verdict(country, number), []));
  }

  // prettier-ignore
  const refused: [string, string, string][] = [
    // issue 25: one character short
    ['KR', 'M1234567', 'a Korean number one digit short'],
    ['US', '53123456', 'an American number one digit short'],
    ['JP', 'TK123456', 'a Japanese number one digit short'],
    ['KR', 'MA12345678', 'a Korean number with a second letter'],
    ['US', 'AB1234567', 'two letters: no American form'],
    ['JP', 'T12345678', 'one letter: no Japanese form'],
    ['GB', 'AB1234567', 'letters: British numbers are digits'],
    ['CN', 'K12345678', 'a Hong Kong form given as Chinese'],
    ['CN', 'EI1234567', 'I is not used in the EA series'],
    ['DE', 'C01X00T4', 'a German number one character short'],
    ['DE', 'C01X00TA7', 'A is not among the German letters'],
    ['FR', '18AB1234', 'a French number one digit short'],
    ['NL', 'NO92J1PK9', 'O is not used in Dutch numbers'],
    ['MY', 'B12345678', 'Malaysian numbers begin with A, H or K'],
    ['SG', 'E1234567', 'a Singapore number without its last letter'],
    ['IN', 'J836985', 'an Indian number one digit short'],
    ['AE', 'AB-12345', 'a hyphen (ICAO character set)'],
    ['AE', 'ABCDEFG', 'no digit (ICAO)'],
    ['AE', 'AB12345678', 'ten characters (ICAO: at most 9)'],
  ];
  for (const [country, number, why] of refused)
    test(`${country} ${number} is refused: ${why}`, () =>
      assert.deepEqual(verdict(country, number), ['passportFormat']));

  test('a country without a form of its own is judged by the ICAO character set and length', () => {
    for (const number of ['AB1234567', '12345', 'X1234567', 'p1234567'])
      assert.deepEqual(verdict('AE', number), [], number);
  });

  test('the message says the length when it is wrong, and the form, in both languages', () => {
    const [p] = checkPassportNumber('cert_id', 'M1234567', 'KR');
    assert.match(
      String(p?.params?.rule),
      /has 8 characters where a Korean passport number is .* \(9 characters\)/,
    );
    assert.match(String(p?.params?.rule_zh), /长度为8位，而韩国护照号码为/);
    const [wrongForm] = checkPassportNumber('cert_id', 'AB1234567', 'US');
    assert.match(String(wrongForm?.params?.rule), /^a United States passport number is 9 digits/);
  });

  test('a punctuation mark is named, the number never', () => {
    const [p] = checkPassportNumber('cert_id', 'M1234-567', 'KR');
    assert.match(String(p?.params?.rule), /^"-" is not part of a passport number/);
    assert.ok(!JSON.stringify(p).includes('1234'));
  });

  test('property: dropping a character from a single-length form is refused, naming the length', () => {
    const single = Object.entries(VALID).filter(([c]) => PASSPORT_FORMS[c]!.lengths.length === 1);
    fc.assert(
      fc.property(fc.constantFrom(...single), fc.nat(), fc.nat(), ([country, numbers], pick, at) => {
        const number = numbers[pick % numbers.length]!;
        const i = at % number.length;
        const short = number.slice(0, i) + number.slice(i + 1);
        const problems = checkPassportNumber('cert_id', short, country);
        assert.equal(problems.length, 1, `${country} ${short}`);
        assert.match(String(problems[0]!.params?.rule), /^it has \d+ characters/);
        // Nothing of the number is in the message: the forms are said in words, without examples.
        assert.ok(!JSON.stringify(problems).includes(short));
      }),
      { numRuns: 300 },
    );
  });

  test('property: any 5 to 9 letters and digits with a digit pass the ICAO fallback', () => {
    const alnum = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
    fc.assert(
      fc.property(
        fc.array(alnum, { minLength: 4, maxLength: 8 }),
        fc.integer({ min: 0, max: 9 }),
        (chars, digit) => {
          const number = `${chars.join('')}${digit}`;
          assert.deepEqual(verdict('AE', number), []);
        },
      ),
      { numRuns: 200 },
    );
  });
});

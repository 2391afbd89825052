import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  canonicalAddress,
  canonicalDocumentNumber,
  canonicalLatinName,
  canonicalName,
  readApplication,
  readAreaCode,
  readEmail,
  readPhone,
  type AreaForm,
} from './canonical.ts';
import {
  checkIdentity,
  gb11643CheckDigit,
  hkidCheckDigit,
} from '../applications/validation/checks/identity.ts';
import { writtenForms } from '../../test/helpers/documentForms.ts';
import { validApplicant } from '../../test/helpers/applicantFixture.ts';

describe('canonicalDocumentNumber', () => {
  const cases: [string, string][] = [
    ['A123456(3)', 'A1234563'],
    ['a123456 (3)', 'A1234563'],
    ['A1234563', 'A1234563'],
    ['Ａ１２３４５６（３）', 'A1234563'],
    [' A123456（3） ', 'A1234563'],
    ['A123456\u200B(3)', 'A1234563'], // a zero-width space from copy and paste
    ['11010519491231002x', '11010519491231002X'],
    ['110105 19491231 002X', '11010519491231002X'],
    ['e12345678', 'E12345678'],
    ['1234567(8)', '12345678'],
    ['900307-14-5678', '900307-14-5678'], // hyphens are kept: the checks judge them
    ['A123456(3', 'A123456(3'], // an unclosed bracket is kept
    ['123(4)567', '123(4)567'], // brackets not around the last character are kept
    ['A123456(33)', 'A123456(33)'],
  ];
  for (const [sent, canonical] of cases)
    test(`${JSON.stringify(sent)} -> ${canonical}`, () =>
      assert.equal(canonicalDocumentNumber(sent), canonical));

  test('is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 24 }), (text) => {
        const once = canonicalDocumentNumber(text);
        return canonicalDocumentNumber(once) === once;
      }),
    );
  });
});

describe('a document number validates the same and has one canonical form, however it is written', () => {
  const hkid = fc
    .tuple(fc.stringMatching(/^[A-Z]{1,2}$/), fc.stringMatching(/^[0-9]{6}$/))
    .map(([prefix, digits]) => `${prefix}${digits}${hkidCheckDigit(prefix, digits)}`);
  const mainland = fc.constant('11010519491231002').map((body) => `${body}${gb11643CheckDigit(body)}`);

  test('Hong Kong identity cards', () => {
    fc.assert(
      fc.property(
        hkid.chain((id) => fc.tuple(fc.constant(id), writtenForms(id, id.length - 1))),
        ([id, written]) => {
          assert.equal(canonicalDocumentNumber(written), id);
          assert.deepEqual(
            checkIdentity({ cert_type: '00', country: 'HK', cert_id: canonicalDocumentNumber(written) }),
            [],
          );
        },
      ),
    );
  });

  test('mainland identity cards', () => {
    fc.assert(
      fc.property(
        mainland.chain((id) => fc.tuple(fc.constant(id), writtenForms(id, 17))),
        ([id, written]) => {
          // The bracket form is not one of a mainland number: read the same anyway.
          assert.equal(canonicalDocumentNumber(written), id);
          const input = { cert_type: '00', country: 'CN', birthday: '1949-12-31', sex: 'F' };
          assert.deepEqual(checkIdentity({ ...input, cert_id: canonicalDocumentNumber(written) }), []);
        },
      ),
    );
  });
});

describe('readPhone', () => {
  const cases: [string, { digits?: string; extension?: string; fault?: string }][] = [
    ['13800138000', { digits: '13800138000' }],
    ['138 0013 8000', { digits: '13800138000' }],
    ['138-0013-8000', { digits: '13800138000' }],
    ['(0755) 2600-0000', { digits: '075526000000' }],
    ['１３８　００１３　８０００', { digits: '13800138000' }],
    ['0755—26000000', { digits: '075526000000' }],
    ['0755-26000000 ext. 801', { digits: '075526000000', extension: '801' }],
    ['0755-26000000 EXT801', { digits: '075526000000', extension: '801' }],
    ['26000000 x 801', { digits: '26000000', extension: '801' }],
    ['26000000#801', { digits: '26000000', extension: '801' }],
    ['26000000转801', { digits: '26000000', extension: '801' }],
    ['26000000 分机 801', { digits: '26000000', extension: '801' }],
    ['26000000,801', { digits: '26000000', extension: '801' }],
    ['+86 138 0013 8000', { fault: 'plus' }],
    ['138.0013.8000', { fault: 'separator' }],
    ['138/0013/8000', { fault: 'separator' }],
    ['call me', { fault: 'characters' }],
    ['', { fault: 'characters' }],
  ];
  for (const [sent, expected] of cases) {
    test(`${JSON.stringify(sent)}`, () => {
      const read = readPhone(sent);
      assert.equal(read.digits, expected.digits);
      assert.equal(read.extension, expected.extension);
      assert.equal(read.fault?.kind, expected.fault);
    });
  }

  test('the last hyphen group may be an extension', () => {
    assert.deepEqual(readPhone('0755-26000000-801').hyphenExtension, {
      digits: '075526000000',
      extension: '801',
    });
    assert.equal(readPhone('13800138000').hyphenExtension, undefined);
  });
});

describe('readAreaCode', () => {
  const cases: [string, AreaForm, unknown][] = [
    ['+86', 'plus', { kind: 'calling', code: '86' }],
    ['＋８６', 'plus', { kind: 'calling', code: '86' }],
    [' (+852) ', 'plus', { kind: 'calling', code: '852' }],
    // mob_no_of: the spec asks for the +.
    ['86', 'plus', { kind: 'plusMissing' }],
    ['0086', 'plus', { kind: 'plusMissing' }],
    ['0755', 'plus', { kind: 'invalid' }],
    // consignee_mob_no_of: a calling code with or without its + (PRODUCT.md, "Phones").
    ['86', 'bare', { kind: 'calling', code: '86' }],
    ['852', 'bare', { kind: 'calling', code: '852' }],
    ['0086', 'bare', { kind: 'calling', code: '86' }],
    ['+852', 'bare', { kind: 'calling', code: '852' }],
    ['0755', 'bare', { kind: 'invalid' }],
    // office_tel_no_of: a calling code, or a mainland area code; bare digits may be either.
    ['0755', 'office', { kind: 'domestic', code: '755' }],
    ['755', 'office', { kind: 'either', calling: '755', domestic: '755' }],
    ['010', 'office', { kind: 'domestic', code: '10' }],
    ['021', 'office', { kind: 'domestic', code: '21' }],
    ['86', 'office', { kind: 'calling', code: '86' }],
    ['0086', 'office', { kind: 'calling', code: '86' }],
    ['852', 'office', { kind: 'either', calling: '852', domestic: '852' }],
    ['1', 'office', { kind: 'calling', code: '1' }],
    ['+86', 'office', { kind: 'calling', code: '86' }],
    ['abc', 'office', { kind: 'invalid' }],
    ['0x', 'office', { kind: 'invalid' }],
  ];
  for (const [sent, form, expected] of cases) {
    test(`${JSON.stringify(sent)} (${form})`, () => assert.deepEqual(readAreaCode(sent, form), expected));
  }
});

describe('names, e-mail domains and addresses', () => {
  test('middle-dot look-alikes read as ·', () => {
    for (const dot of ['·', '•', '・', '‧', '･', '∙', '⋅', '·'])
      assert.equal(canonicalName(`阿依古丽${dot}买买提`), '阿依古丽·买买提', dot);
  });
  test('full-width Latin names fold', () => assert.equal(canonicalLatinName('ＬＩ　ＬＥＩ'), 'LI LEI'));
  test('an e-mail domain in Unicode reads in its xn-- form', () => {
    assert.deepEqual(readEmail('li@例子.中国'), { local: 'li', domain: 'xn--fsqu00a.xn--fiqs8s' });
    assert.deepEqual(readEmail('li@example.com'), { local: 'li', domain: 'example.com' });
    assert.equal(readEmail('no-at'), undefined);
  });
  test('dashes an input method types read as -', () => {
    assert.equal(canonicalAddress('广东省－深圳市—南山区——科技园路1号'), '广东省-深圳市-南山区-科技园路1号');
    assert.equal(canonicalAddress('Flat 1–3, 12 Baker Street'), 'Flat 1-3, 12 Baker Street');
  });
});

describe('readApplication', () => {
  test('reads the document number canonically', () => {
    const app = validApplicant({ cert_id: '440305 19900307 1236' });
    assert.equal(readApplication(app).cert_id, '440305199003071236');
  });
  test('a field that is not a string reads as undefined', () => {
    const app = { ...validApplicant(), cert_id: 12 as unknown as string, mob_no: null as unknown as string };
    assert.equal(readApplication(app).cert_id, undefined);
    assert.equal(readApplication(app).mob_no, undefined);
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { jaroWinkler } from './jaroWinkler.ts';
import type { ListEntry } from './listEntry.ts';
import { foldToken, latinTokens, normaliseName } from './normaliseName.ts';
import { ScreeningIndex } from './screeningIndex.ts';

const entry = (over: Partial<ListEntry> & { reference: string; names: ListEntry['names'] }): ListEntry => ({
  birthDates: [],
  nationalities: [],
  documents: [],
  ...over,
});
const primary = (text: string) => ({ text, kind: 'primary' as const, weak: false });

const index = new ScreeningIndex([
  {
    list: 'un',
    versionId: 'v1',
    entries: [
      entry({
        reference: 'T.1',
        names: [primary('Testovan Petrovich KRAVCHENKOV'), { text: 'THE TESTER', kind: 'alias', weak: true }],
        birthDates: [{ text: '1962-02-14', from: '1962-02-14', to: '1962-02-14' }],
        nationalities: ['Russia'],
        documents: [{ type: 'Passport', number: '7599 123456', country: null }],
      }),
      entry({
        reference: 'T.3',
        names: [primary('KRUTOYARSKY, Aleksey Yuryevich')],
        birthDates: [{ text: '1971', from: '1971-01-01', to: '1971-12-31' }],
        nationalities: ['Russian Federation'],
      }),
      entry({ reference: 'T.4', names: [primary('Ibrahim Yusuf al-Qarnawi')], nationalities: ['Iraq'] }),
      entry({
        reference: 'T.5',
        names: [primary('José Luis ARRIETA CIFUENTES')],
        nationalities: ['Venezuela'],
      }),
      // Short names: one with nothing else listed, one with a date of birth.
      entry({ reference: 'T.6', names: [primary('Li MYINT')] }),
      entry({
        reference: 'T.7',
        names: [primary('WANG Jun')],
        birthDates: [{ text: '1980', from: '1980-01-01', to: '1980-12-31' }],
      }),
      entry({
        reference: 'T.2',
        names: [primary('ZHUO Hanqiao'), { text: '卓汉桥', kind: 'original_script', weak: false }],
        nationalities: ['China'],
      }),
    ],
  },
]);

describe('normalisation', () => {
  test('case, diacritics, punctuation, honorifics and particles', () => {
    assert.deepEqual(latinTokens("Dr. Élodie O'Neil-Dravén al-Balouti, Jr."), [
      'elodie',
      'oneil',
      'draven',
      'balouti',
    ]);
    assert.deepEqual(latinTokens('Søren Łukasz Straße'), ['soren', 'lukasz', 'strasse']);
  });
  test('a particle that is a Chinese syllable or stands beside one other token stays', () => {
    assert.deepEqual(latinTokens('HUANG DE'), ['huang', 'de']);
    assert.deepEqual(latinTokens('Liang Jing-Bin'), ['liang', 'jing', 'bin']);
    assert.deepEqual(latinTokens('Ana Paula Sampaio e Valadares'), ['ana', 'paula', 'sampaio', 'valadares']);
    assert.deepEqual(latinTokens('Abd al-Rahman Abdul Karim'), ['abdrahman', 'abdulkarim']);
  });
  test('transliterations fold alike', () => {
    const alike = (...names: string[]) =>
      assert.equal(new Set(names.map((n) => foldToken(latinTokens(n)[0]!))).size, 1, names.join(' '));
    alike('Ibrahim', 'Ebrahim', 'Ibragim', 'Brahim');
    alike('Mohammed', 'Muhammad', 'Mohamad', 'Mohd');
    alike('Aleksey', 'Alexey', 'Alexei', 'Aleksei');
    alike('Yuriy', 'Yuri', 'Iurii', 'Yury');
    alike('Sergeyevich', 'Sergeevich');
    alike('Dzhamshid', 'Jamshid');
    alike('Alqarnawi', 'Qarnawi', 'Karnawi');
    alike('LYU', 'LV', 'LU');
  });
  test('a Chinese name through its pinyin, surname then given name', () => {
    assert.deepEqual(normaliseName('卓 汉桥'), { tokens: ['zhuo', 'hanqiao'], han: '卓汉桥' });
    assert.deepEqual(normaliseName('约翰·史密斯').han, '约翰史密斯');
  });
  test('Jaro-Winkler of the textbook pairs', () => {
    assert.equal(jaroWinkler('martha', 'marhta').toFixed(3), '0.961');
    assert.equal(jaroWinkler('dwayne', 'duane').toFixed(3), '0.840');
    assert.equal(jaroWinkler('', 'a'), 0);
  });
});

describe('screening', () => {
  const hit = (applicant: Parameters<ScreeningIndex['screen']>[0], threshold = 0.9) =>
    index.screen(applicant, threshold).map((h) => [h.reference, h.matched_kind, h.fields.join(',')]);

  test('reordered tokens, a missing middle name and a transliteration hit', () => {
    assert.deepEqual(hit({ name_en: 'KRAVCHENKOV TESTOVAN' }), [['T.1', 'primary', 'name_en']]);
    assert.deepEqual(hit({ name_en: 'Testovan Kravtchenkoff' }), [['T.1', 'primary', 'name_en']]);
  });
  test('a birthday outside the listed date excludes; inside it confirms', () => {
    assert.deepEqual(hit({ name_en: 'Testovan Kravchenkov', birthday: '1990-01-01' }), []);
    assert.deepEqual(hit({ name_en: 'Testovan Kravchenkov', birthday: '1962-02-14', country: 'RU' }), [
      ['T.1', 'primary', 'name_en,birthday,country'],
    ]);
  });
  test('a listed document number is a hit whatever the name', () => {
    assert.deepEqual(hit({ name_en: 'Someone Else', cert_id: '7599123456', birthday: '1990-01-01' }), [
      ['T.1', 'document', 'cert_id'],
    ]);
  });
  test('Chinese characters against the original script and the pinyin; Hong Kong counts as China', () => {
    assert.deepEqual(hit({ name: '卓汉桥', country: 'HK' }), [['T.2', 'original_script', 'name,country']]);
    assert.deepEqual(hit({ name_en: 'ZHUO HAN QIAO' }), [['T.2', 'primary', 'name_en']]);
    assert.deepEqual(hit({ name_en: 'HANQIAO ZHUO' }), [['T.2', 'primary', 'name_en']]);
  });
  test('parts the applicant did not write are absent, not wrong', () => {
    assert.deepEqual(hit({ name_en: 'ALEKSEI KRUTOIARSKII', birthday: '1971-05-02', country: 'RU' }), [
      ['T.3', 'primary', 'name_en,birthday,country'],
    ]);
    assert.deepEqual(hit({ name_en: 'EBRAHIM ALQARNAWI', country: 'IR' }), [['T.4', 'primary', 'name_en']]);
    assert.deepEqual(hit({ name_en: 'JOSE ARRIETA', country: 'VE' }), [
      ['T.5', 'primary', 'name_en,country'],
    ]);
    // One part alone is not enough.
    assert.deepEqual(hit({ name_en: 'Aleksei', birthday: '1971-05-02' }), []);
  });
  test('a short name needs its date of birth to agree, or a stricter score without one', () => {
    assert.deepEqual(hit({ name_en: 'LI MING', birthday: '1978-03-01', country: 'CN' }), []);
    assert.deepEqual(hit({ name_en: 'LI MYINT', birthday: '1978-03-01' }), [['T.6', 'primary', 'name_en']]);
    assert.deepEqual(hit({ name_en: 'WANG JUN', birthday: '1980-06-01' }), [
      ['T.7', 'primary', 'name_en,birthday'],
    ]);
    assert.deepEqual(hit({ name_en: 'WANG JUN', birthday: '1990-06-01' }), []);
    assert.deepEqual(hit({ name_en: 'WANG JUN' }), []);
  });
  test('a weak alias scores lower; unrelated and namesake-short names do not hit', () => {
    const weak = index.screen({ name_en: 'The Tester' }, 0.9)[0];
    assert.equal(weak?.score, 0.95);
    assert.deepEqual(hit({ name_en: 'ZHUO HAN' }), []);
    assert.deepEqual(hit({ name_en: 'John Smith', name: '张伟' }), []);
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  ageOn,
  businessDay,
  checkBirthday,
  checkDocumentDates,
  dayStart,
  isRealDate,
  nextDay,
  type DocumentDates,
} from './dates.ts';

// The cases below are about calendars, not time zones: they take "today" in UTC (2026-03-15).
const now = new Date('2026-03-15T23:30:00Z');
const ctx = { now, minAge: 18, timeZone: 'UTC' };
const errors = (list: readonly { field: string; error: string }[]) =>
  list.map((p) => `${p.field}:${p.error}`);

describe('isRealDate', () => {
  const cases: [string, boolean][] = [
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['2000-02-29', true],
    ['1900-02-29', false],
    ['2026-04-30', true],
    ['2026-04-31', false],
    ['2026-12-31', true],
    ['2026-13-01', false],
    ['2026-00-10', false],
    ['2026-01-00', false],
    ['0000-01-01', false],
    ['9999-12-31', true],
    ['2026-1-01', false],
    ['20260101', false],
    ['2026-01-01 ', false],
  ];
  for (const [value, expected] of cases) {
    test(`${JSON.stringify(value)} -> ${expected}`, () => assert.equal(isRealDate(value), expected));
  }
});

describe('ageOn', () => {
  const cases: [string, string, number][] = [
    ['2008-03-15', '2026-03-15', 18],
    ['2008-03-16', '2026-03-15', 17],
    ['2008-02-29', '2026-02-28', 17],
    ['2008-02-29', '2026-03-01', 18],
    ['1906-03-15', '2026-03-15', 120],
  ];
  for (const [birthday, today, age] of cases) {
    test(`${birthday} on ${today} is ${age}`, () => assert.equal(ageOn(birthday, today), age));
  }
});

describe('checkBirthday', () => {
  const cases: [string, string[], number?][] = [
    ['1990-03-07', []],
    ['2008-03-15', []], // 18 today (UTC)
    ['2008-03-16', ['birthday:underAge']],
    ['2008-03-16', [], 17],
    ['2026-03-16', ['birthday:dateInFuture']],
    ['2026-03-15', ['birthday:underAge']],
    ['1906-03-15', []],
    ['1906-03-14', []],
    ['1905-03-15', ['birthday:overAge']],
    ['1990-02-30', ['birthday:dateInvalid']],
  ];
  for (const [birthday, expected, minAge] of cases) {
    test(`${birthday}${minAge === undefined ? '' : ` (min ${minAge})`} -> ${expected.join(',') || 'ok'}`, () => {
      assert.deepEqual(errors(checkBirthday(birthday, { ...ctx, minAge: minAge ?? 18 })), expected);
    });
  }

  test('underAge and overAge carry their limit', () => {
    assert.deepEqual(checkBirthday('2010-01-01', ctx)[0]?.params, { min: 18 });
    assert.deepEqual(checkBirthday('1900-01-01', ctx)[0]?.params, { max: 120 });
  });
});

describe('checkDocumentDates', () => {
  const cases: [string, Partial<DocumentDates>, string[]][] = [
    ['valid', {}, []],
    ['no expiry', { cert_end_date: '9999-12-31' }, []],
    ['end omitted', { cert_end_date: undefined }, []],
    ['ends today', { cert_end_date: '2026-03-15' }, []],
    ['expired yesterday', { cert_end_date: '2026-03-14' }, ['cert_end_date:documentExpired']],
    ['end not a real date', { cert_end_date: '2036-02-30' }, ['cert_end_date:dateInvalid']],
    ['start today', { cert_start_date: '2026-03-15' }, []],
    ['start tomorrow', { cert_start_date: '2026-03-16' }, ['cert_start_date:dateInFuture']],
    ['start not a real date', { cert_start_date: '2016-13-01' }, ['cert_start_date:dateInvalid']],
    [
      'start equals end',
      { cert_start_date: '2026-03-15', cert_end_date: '2026-03-15' },
      ['cert_end_date:documentDatesOrder'],
    ],
    [
      'start omitted, mainland card',
      { cert_start_date: undefined },
      ['cert_start_date:documentStartRequired'],
    ],
    [
      'start omitted, passport',
      { cert_type: '02', cert_start_date: undefined },
      ['cert_start_date:documentStartRequired'],
    ],
    ['start omitted, Hong Kong card', { country: 'HK', cert_start_date: undefined }, []],
    [
      'start omitted, Hong Kong passport',
      { country: 'HK', cert_type: '02', cert_start_date: undefined },
      ['cert_start_date:documentStartRequired'],
    ],
    ['start omitted, country unknown', { country: undefined, cert_start_date: undefined }, []],
    ['start failed earlier', { cert_start_date: null }, []],
    [
      'end failed earlier',
      { cert_end_date: null, cert_start_date: '2030-01-01' },
      ['cert_start_date:dateInFuture'],
    ],
    [
      'both bad',
      { cert_start_date: '2030-01-01', cert_end_date: '2020-01-01' },
      ['cert_start_date:dateInFuture', 'cert_end_date:documentExpired'],
    ],
  ];
  for (const [name, over, expected] of cases) {
    test(`${name} -> ${expected.join(',') || 'ok'}`, () => {
      assert.deepEqual(errors(checkDocumentDates(doc(over), ctx)), expected);
    });
  }

  test('a start date before the birthday is refused; on the birthday it is fine', () => {
    const born = (start: string) =>
      errors(checkDocumentDates(doc({ cert_start_date: start, birthday: '2000-05-01' }), ctx));
    assert.deepEqual(born('2000-04-30'), ['cert_start_date:documentStartBeforeBirth']);
    assert.deepEqual(born('2000-05-01'), []);
    // birthday unknown (it failed its own check): no comparison
    assert.deepEqual(errors(checkDocumentDates(doc({ cert_start_date: '1900-01-01' }), ctx)), []);
  });
});

describe('the business time zone decides "today"', () => {
  // 17:30 UTC on 15 March is 01:30 on 16 March in Beijing; 01:30 UTC is 09:30 the same day.
  const evening = new Date('2026-03-15T17:30:00Z');
  const morning = new Date('2026-03-15T01:30:00Z');
  const beijing = (at: Date) => ({ now: at, minAge: 18, timeZone: 'Asia/Shanghai' });

  test('businessDay', () => {
    assert.equal(businessDay(evening, 'Asia/Shanghai'), '2026-03-16');
    assert.equal(businessDay(evening, 'UTC'), '2026-03-15');
    assert.equal(businessDay(morning, 'Asia/Shanghai'), '2026-03-15');
    assert.equal(businessDay(new Date('2026-03-15T04:30:00Z'), 'America/New_York'), '2026-03-15');
    assert.equal(businessDay(new Date('2026-03-15T03:30:00Z'), 'America/New_York'), '2026-03-14');
  });

  test('at 17:30 UTC an applicant turning 18 that day in Beijing is of age', () => {
    assert.deepEqual(errors(checkBirthday('2008-03-16', beijing(evening))), []);
    assert.deepEqual(errors(checkBirthday('2008-03-16', { ...beijing(evening), timeZone: 'UTC' })), [
      'birthday:underAge',
    ]);
  });

  test('at 17:30 UTC a document that expired "yesterday" in Beijing is refused', () => {
    const expired = doc({ cert_end_date: '2026-03-15' });
    assert.deepEqual(errors(checkDocumentDates(expired, beijing(evening))), [
      'cert_end_date:documentExpired',
    ]);
    assert.deepEqual(errors(checkDocumentDates(expired, { ...beijing(evening), timeZone: 'UTC' })), []);
  });

  test('at 01:30 UTC it is the same day in Beijing: 18 tomorrow is still under age, ending today is fine', () => {
    assert.deepEqual(errors(checkBirthday('2008-03-16', beijing(morning))), ['birthday:underAge']);
    assert.deepEqual(errors(checkBirthday('2008-03-15', beijing(morning))), []);
    assert.deepEqual(errors(checkDocumentDates(doc({ cert_end_date: '2026-03-15' }), beijing(morning))), []);
    assert.deepEqual(errors(checkDocumentDates(doc({ cert_start_date: '2026-03-16' }), beijing(morning))), [
      'cert_start_date:dateInFuture',
    ]);
  });
});

function doc(over: Partial<DocumentDates>): DocumentDates {
  return {
    cert_type: '00',
    country: 'CN',
    cert_start_date: '2016-01-01',
    cert_end_date: '2036-01-01',
    ...over,
  };
}

test('dayStart is midnight in the zone, across daylight-saving changes and early years', () => {
  const cases: [string, string, string][] = [
    ['2026-12-02', 'Asia/Shanghai', '2026-12-01T16:00:00.000Z'],
    ['2026-12-02', 'UTC', '2026-12-02T00:00:00.000Z'],
    // New York: standard time before 8 March 2026, daylight time from it, standard from 1 November.
    ['2026-03-08', 'America/New_York', '2026-03-08T05:00:00.000Z'],
    ['2026-03-09', 'America/New_York', '2026-03-09T04:00:00.000Z'],
    ['2026-11-01', 'America/New_York', '2026-11-01T04:00:00.000Z'],
    ['2026-11-02', 'America/New_York', '2026-11-02T05:00:00.000Z'],
    ['2026-01-01', 'Asia/Kolkata', '2025-12-31T18:30:00.000Z'],
    ['0050-06-01', 'UTC', '0050-06-01T00:00:00.000Z'],
  ];
  for (const [day, zone, expected] of cases) {
    assert.equal(new Date(dayStart(day, zone)).toISOString(), expected, `${day} ${zone}`);
    assert.equal(businessDay(new Date(dayStart(day, zone)), zone), day);
    assert.notEqual(businessDay(new Date(dayStart(day, zone) - 1), zone), day);
  }
});

test('nextDay steps over month, year and leap-day ends', () => {
  assert.equal(nextDay('2026-12-31'), '2027-01-01');
  assert.equal(nextDay('2028-02-28'), '2028-02-29');
  assert.equal(nextDay('2027-02-28'), '2027-03-01');
  assert.equal(nextDay('0099-12-31'), '0100-01-01');
});

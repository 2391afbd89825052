import { problem, type FieldProblem } from '../errors/problems.ts';

/**
 * Calendar checks on `birthday` and the document dates. Dates are compared as calendar days, and
 * "today" is the date of `now` in the business time zone (`BUSINESS_TIMEZONE`, default
 * Asia/Shanghai), not in UTC: between 16:00 and 24:00 UTC it is already tomorrow in Beijing. The
 * clock is passed in, so a test sets `now` and gets a fixed answer.
 */

/** A stored time (milliseconds) as the wire writes times: whole Unix seconds. */
export const unixSeconds = (ms: number) => Math.floor(ms / 1000);

/** The oldest accepted applicant, in whole years. */
export const MAX_AGE = 120;
/** `cert_end_date` of a document that does not expire. */
export const NO_EXPIRY = '9999-12-31';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** A real proleptic-Gregorian calendar date written `YYYY-MM-DD`, years 0001 to 9999. */
export function isRealDate(value: string): boolean {
  const m = DATE.exec(value);
  if (m === null) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** The UTC calendar date of an instant, `YYYY-MM-DD`. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** The default business time zone: the issuer's, where applicants' days begin and end. */
export const DEFAULT_BUSINESS_TIME_ZONE = 'Asia/Shanghai';

const dayFormats = new Map<string, Intl.DateTimeFormat>();
/** The last answer: every check of a request, and every request of a minute, asks the same. */
let lastDay = { key: '', day: '' };

/** The calendar date of an instant in an IANA time zone, `YYYY-MM-DD` (formatters cached per zone). */
export function businessDay(now: Date, timeZone: string): string {
  // Zones change their date on a whole minute: one answer serves the minute.
  const key = `${timeZone} ${Math.floor(now.getTime() / 60_000)}`;
  if (key === lastDay.key) return lastDay.day;
  let format = dayFormats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dayFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  const day = `${get('year').padStart(4, '0')}-${get('month')}-${get('day')}`;
  lastDay = { key, day };
  return day;
}

/** The calendar date after a real `YYYY-MM-DD` date. */
export function nextDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(new Date(0).setUTCFullYear(year, month - 1, date + 1)).toISOString().slice(0, 10);
}

/**
 * The instant (Unix milliseconds) a business day begins in an IANA time zone: midnight there.
 * The zone's offset is read at the UTC midnight of that date, then again at the answer, so a
 * daylight-saving change in between is followed.
 */
export function dayStart(day: string, timeZone: string): number {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  // setUTCFullYear, not Date.UTC, which reads the years 0 to 99 as 1900 to 1999.
  const utcMidnight = new Date(0).setUTCFullYear(year, month - 1, date);
  const offsetAt = (instant: number): number => {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    }).formatToParts(instant);
    const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
    const wall =
      new Date(0).setUTCFullYear(get('year'), get('month') - 1, get('day')) +
      ((get('hour') * 60 + get('minute')) * 60 + get('second')) * 1000;
    return wall - Math.floor(instant / 1000) * 1000;
  };
  const first = utcMidnight - offsetAt(utcMidnight);
  return utcMidnight - offsetAt(first);
}

/**
 * Age in whole years on `today` of someone born on `birthday` (both real `YYYY-MM-DD` dates). A
 * 29 February birthday is reached on 1 March in a common year.
 */
export function ageOn(birthday: string, today: string): number {
  const years = Number(today.slice(0, 4)) - Number(birthday.slice(0, 4));
  // Same-width MM-DD strings compare like the dates they name.
  return today.slice(5) < birthday.slice(5) ? years - 1 : years;
}

export interface DateContext {
  readonly now: Date;
  readonly minAge: number;
  /** The IANA time zone whose date is "today". */
  readonly timeZone: string;
}

/** `birthday`: a real date, not in the future, the applicant at least `minAge` and at most 120 years old. */
export function checkBirthday(birthday: string, ctx: DateContext): FieldProblem[] {
  const field = 'birthday';
  if (!isRealDate(birthday)) return [problem(field, 'dateInvalid')];
  const today = businessDay(ctx.now, ctx.timeZone);
  if (birthday > today) return [problem(field, 'dateInFuture')];
  const age = ageOn(birthday, today);
  if (age < ctx.minAge) return [problem(field, 'underAge', { min: ctx.minAge })];
  if (age > MAX_AGE) return [problem(field, 'overAge', { max: MAX_AGE })];
  return [];
}

export interface DocumentDates {
  /** `undefined` when `cert_type` failed an earlier check. */
  readonly cert_type: string | undefined;
  /** `undefined` when `country` failed an earlier check. */
  readonly country: string | undefined;
  /** `null` when the field failed an earlier check: it is then left alone. */
  readonly cert_start_date: string | undefined | null;
  /** `null` when the field failed an earlier check: it is then left alone. */
  readonly cert_end_date: string | undefined | null;
  /** A valid `birthday`, or undefined when it failed its own check: the start is not compared. */
  readonly birthday?: string | undefined;
}

/** A Hong Kong identity card: the one document whose start date may be omitted. */
export function isHongKongIdentityCard(doc: {
  cert_type: string | undefined;
  country: string | undefined;
}): boolean {
  return doc.cert_type === '00' && doc.country === 'HK';
}

/**
 * Document dates. `cert_start_date`: a real date, not in the future, not before `birthday`
 * (`documentStartBeforeBirth`); required except for a Hong Kong identity card
 * (`documentStartRequired`, not judged while `cert_type` or `country` is unknown).
 * `cert_end_date`: optional; a real date, today or later (`9999-12-31` means no expiry); after
 * `cert_start_date` (`documentDatesOrder`).
 */
export function checkDocumentDates(doc: DocumentDates, ctx: { now: Date; timeZone: string }): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const today = businessDay(ctx.now, ctx.timeZone);
  const start = doc.cert_start_date;
  const end = doc.cert_end_date;
  let validStart: string | undefined;
  if (start === undefined) {
    const known = doc.cert_type !== undefined && doc.country !== undefined;
    if (known && !isHongKongIdentityCard(doc))
      problems.push(problem('cert_start_date', 'documentStartRequired'));
  } else if (start === null) {
    // failed earlier
  } else if (!isRealDate(start)) {
    problems.push(problem('cert_start_date', 'dateInvalid'));
  } else if (start > today) {
    problems.push(problem('cert_start_date', 'dateInFuture'));
  } else if (doc.birthday !== undefined && start < doc.birthday) {
    problems.push(problem('cert_start_date', 'documentStartBeforeBirth'));
  } else {
    validStart = start;
  }
  if (end !== undefined && end !== null) {
    if (!isRealDate(end)) {
      problems.push(problem('cert_end_date', 'dateInvalid'));
    } else if (end < today) {
      problems.push(problem('cert_end_date', 'documentExpired'));
    } else if (validStart !== undefined && end <= validStart) {
      problems.push(problem('cert_end_date', 'documentDatesOrder'));
    }
  }
  return problems;
}

import { canonicalAddress, readAreaCode, readPhone } from './canonical.ts';
import { ageOn, NO_EXPIRY } from './dates.ts';
import type { ApplicationRequest } from './schema.ts';

/**
 * Risk flags: soft signals for the reviewer. The submit accepts only valid applications, so none
 * of these is an error; each says "look twice here" and names the fields it concerns. They are
 * computed when an operator views an application (never stored), from the decrypted fields, and
 * carry no identity value: only which fields, and numbers such as days or years.
 */
export const RISK_FLAG_CODES = [
  'document_expiring',
  'document_recently_issued',
  'applicant_near_minimum_age',
  'applicant_elderly',
  'consignee_not_applicant',
  'delivery_address_differs',
  'consignee_mobile_differs',
  'other_answer',
  'other_text_missing',
  // From the kept documents (documents/documentRisk.ts), not from the fields.
  'document_missing',
  'document_reused',
  'sanctions_hit',
] as const;

export type RiskFlagCode = (typeof RISK_FLAG_CODES)[number];

export interface RiskFlag {
  code: RiskFlagCode;
  /** The application fields the flag is about, for the console to point at. */
  fields: string[];
  /**
   * Numbers that make the flag's message (days left, age, ...), and for `document_reused` the other
   * application's serial; never an identity value.
   */
  params: Record<string, number | string>;
  /** What a flag found in list data (a sanctions hit's list, entry and listed name); never the applicant's. */
  details?: Record<string, string>;
}

export interface RiskContext {
  /** Today in the business time zone, `YYYY-MM-DD` (the validation's notion of today). */
  today: string;
  /** The configured minimum age (`MIN_AGE`). */
  minAge: number;
  /** The "other" code of each table that has one, e.g. `{ position: '99' }`. */
  otherCodes: {
    position?: string | undefined;
    purpose?: string | undefined;
    wealth_source?: string | undefined;
  };
}

/** A document that expires within this many days may expire before the card arrives. */
export const EXPIRY_WARNING_DAYS = 183;
/** A document issued within this many days is new: lost-and-replaced documents are a fraud pattern. */
export const RECENT_ISSUE_DAYS = 30;
/** Applicants less than this many years over the minimum age. */
export const NEAR_MINIMUM_YEARS = 2;
/** Applicants this old or older. */
export const ELDERLY_AGE = 75;

const DAY_MS = 86_400_000;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);

export function riskFlags(application: ApplicationRequest, ctx: RiskContext): RiskFlag[] {
  const flags: RiskFlag[] = [];
  const flag = (code: RiskFlagCode, fields: string[], params: Record<string, number> = {}) =>
    flags.push({ code, fields, params });
  const a = application;

  if (a.cert_end_date !== undefined && a.cert_end_date !== NO_EXPIRY) {
    const daysLeft = daysBetween(ctx.today, a.cert_end_date);
    if (daysLeft <= EXPIRY_WARNING_DAYS)
      flag('document_expiring', ['cert_end_date'], { days_left: daysLeft });
  }
  if (a.cert_start_date !== undefined) {
    const daysSince = daysBetween(a.cert_start_date, ctx.today);
    if (daysSince >= 0 && daysSince <= RECENT_ISSUE_DAYS) {
      flag('document_recently_issued', ['cert_start_date'], { days_since: daysSince });
    }
  }

  const age = ageOn(a.birthday, ctx.today);
  if (age < ctx.minAge + NEAR_MINIMUM_YEARS) {
    flag('applicant_near_minimum_age', ['birthday'], { age, min_age: ctx.minAge });
  }
  if (age >= ELDERLY_AGE) flag('applicant_elderly', ['birthday'], { age });

  if (a.consignee !== a.name && a.consignee !== a.name_en) flag('consignee_not_applicant', ['consignee']);
  // Compared as read: `138 0013 8000` and `13800138000` are one number.
  if (canonicalAddress(a.consignee_address) !== canonicalAddress(a.address))
    flag('delivery_address_differs', ['consignee_address', 'address']);
  const sameArea =
    JSON.stringify(readAreaCode(a.consignee_mob_no_of, 'bare')) ===
    JSON.stringify(readAreaCode(a.mob_no_of, 'bare'));
  const consigneeDigits = readPhone(a.consignee_mob_no).digits ?? a.consignee_mob_no;
  if (consigneeDigits !== (readPhone(a.mob_no).digits ?? a.mob_no) || !sameArea) {
    flag('consignee_mobile_differs', ['consignee_mob_no', 'mob_no']);
  }

  const others = (['profession_other', 'purpose_other', 'wealth_source_other'] as const).filter(
    (field) => a[field] !== undefined,
  );
  const position = ctx.otherCodes.position !== undefined && a.position === ctx.otherCodes.position;
  if (others.length > 0 || position) {
    const fields = position ? ['position', ...others] : others;
    flag('other_answer', fields, { count: fields.length });
  }
  // An "other" purpose or source of funds without its (optional) text: the reviewer asks what it is.
  const unexplained = (['purpose', 'wealth_source'] as const).filter((list) => {
    const other = ctx.otherCodes[list];
    return other !== undefined && a[list].includes(other) && a[`${list}_other`] === undefined;
  });
  if (unexplained.length > 0) {
    flag(
      'other_text_missing',
      unexplained.flatMap((list) => [list, `${list}_other`]),
      { count: unexplained.length },
    );
  }
  return flags;
}

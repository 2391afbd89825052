import { domainToASCII } from 'node:url';
import type { ApplicationRequest } from './schema.ts';

/**
 * The canonical reading of an application's values: how every check, and the duplicate check's
 * keyed hash, read what a partner's form sent. The value is stored exactly as sent; only its reading
 * is canonical, so that no applicant is refused for the way a form or an input method wrote it
 * (full-width forms, spaces, brackets, look-alike characters), and two writings of one document
 * number are one number.
 *
 * `readApplication` makes the reading once per request object: the checks and the submit's keyed
 * hash share it.
 */

/** Invisible characters that copy and paste brings along inside numbers: zero-width space, BOM. */
const INVISIBLE = /\u200B|\u200C|\u200D|\u2060|\uFEFF/g;
const SPACES = /\s+/gu;

/**
 * A document number (`cert_id`) as one canonical string: full-width forms folded (NFKC), upper
 * case, spaces removed, and the brackets around a final check character removed, so that
 * `A123456(3)`, `a123456 (3)`, `Ａ１２３４５６（３）` and `A1234563` are one number. Anything else
 * (hyphens of a national identity card, a stray bracket) is kept for the checks to judge.
 */
export function canonicalDocumentNumber(certId: string): string {
  const folded = certId.normalize('NFKC').replace(INVISIBLE, '').replace(SPACES, '').toUpperCase();
  const bracketed = /^(.*[^()])\(([0-9A-Z])\)$/.exec(folded);
  return bracketed === null ? folded : `${bracketed[1]}${bracketed[2]}`;
}

/** A telephone number as read: its digits and extension, or why it is no number. */
export interface PhoneReading {
  /** The digits, spaces, hyphens and parentheses read past; undefined when `fault` is set. */
  readonly digits: string | undefined;
  /** An extension written after the number (`ext. 801`, `转801`, `#801`). */
  readonly extension: string | undefined;
  /** The same number read with its last hyphen-separated group as an extension (`...-801`). */
  readonly hyphenExtension: { readonly digits: string; readonly extension: string } | undefined;
  readonly fault: PhoneFault | undefined;
}

export type PhoneFault =
  /** The calling code written again inside the number (`+86 138...`). */
  | { readonly kind: 'plus' }
  /** A separator the field does not read past (`.`, `/` ...), named. */
  | { readonly kind: 'separator'; readonly char: string }
  /** Letters or other characters that make it no telephone number at all. */
  | { readonly kind: 'characters' };

/** Read past: spaces, hyphens (and the dashes input methods type for them), parentheses. */
const PHONE_SEPARATORS = /[\s\-\u2010-\u2015\u2212()]/gu;
/** Separators partners write that a telephone number does not take: named in the message. */
const FOREIGN_SEPARATORS = new Set(['.', '/', '\\', '_', '|', ',', ';', ':', '·', '、', '~', '*']);
/** An extension after the number: `ext. 801`, `x801`, `#801`, `,801`, `转801`, `分机801`. */
const EXTENSION =
  /^(.*?\d[\s)\-\u2010-\u2015]*)(?:\s*(?:ext\.?|extn\.?|extension|x|#|,|;ext=|转|分机号?)\s*[:.]?\s*)(\d{1,6})#?\s*$/iu;
const HYPHEN_EXTENSION = /^(.*\d)\s*-\s*(\d{1,6})$/u;

function phoneDigits(text: string): { digits?: string; fault?: PhoneFault } {
  const stripped = text.replace(PHONE_SEPARATORS, '');
  if (/^[0-9]+$/.test(stripped)) return { digits: stripped };
  if (/^\+[0-9]/.test(stripped)) return { fault: { kind: 'plus' } };
  const others = [...stripped].filter((c) => !/[0-9]/.test(c));
  // Digits with a separator we do not read past: name it (`138.0013.8000`). Anything else is no number.
  if (others.length > 0 && stripped.length > others.length && others.every((c) => FOREIGN_SEPARATORS.has(c)))
    return { fault: { kind: 'separator', char: others[0]! } };
  return { fault: { kind: 'characters' } };
}

/**
 * A telephone number as partners write it: full-width forms folded, spaces, hyphens and
 * parentheses read past, an extension taken apart (`0755-2600 0000 转 801`).
 */
export function readPhone(raw: string): PhoneReading {
  const text = raw.normalize('NFKC').replace(INVISIBLE, '');
  const withExtension = EXTENSION.exec(text);
  const main = phoneDigits(withExtension === null ? text : withExtension[1]!);
  if (main.fault !== undefined) {
    return { digits: undefined, extension: undefined, hyphenExtension: undefined, fault: main.fault };
  }
  let hyphenExtension: PhoneReading['hyphenExtension'];
  if (withExtension === null) {
    const split = HYPHEN_EXTENSION.exec(text.trim());
    const head = split === null ? undefined : phoneDigits(split[1]!);
    if (head?.digits !== undefined) hyphenExtension = { digits: head.digits, extension: split![2]! };
  }
  return {
    digits: main.digits,
    extension: withExtension?.[2],
    hyphenExtension,
    fault: undefined,
  };
}

/** An area code field (`mob_no_of`, `office_tel_no_of`, `consignee_mob_no_of`) as read. */
export type AreaReading =
  /** A calling code, digits without the `+` (`86`). */
  | { readonly kind: 'calling'; readonly code: string }
  /** A mainland domestic area code, digits without the trunk `0` (`755` for `0755`). */
  | { readonly kind: 'domestic'; readonly code: string }
  /**
   * Bare digits of an office number that read as a calling code or as a mainland area code
   * (`852`: Hong Kong, or 0852 Zunyi; `20`: Egypt, or 020 Guangzhou): the number decides.
   */
  | { readonly kind: 'either'; readonly calling: string; readonly domestic: string }
  /** Digits that would be a calling code but for the missing `+` (`86`, `0086`), where `+` is required. */
  | { readonly kind: 'plusMissing' }
  | { readonly kind: 'invalid' };

/**
 * How a field writes its area code:
 * - `plus`: a calling code with its `+` (`mob_no_of`: the spec asks for it);
 * - `bare`: a calling code with or without its `+` (`consignee_mob_no_of`: `+86`, `86`, `0086`);
 * - `office`: a calling code with or without its `+`, or a mainland area code (`office_tel_no_of`:
 *   `+86`, `86`, `852`, `0755`, `755`).
 */
export type AreaForm = 'plus' | 'bare' | 'office';

/** Mainland area codes: 10 and 2x (two digits), 3xx to 9xx (three digits), `0` optional. */
const DOMESTIC_AREA = /^0?(10|2[0-9]|[3-9][0-9]{2})$/;
/** A calling code without its plus, or after the international call prefix `00` (`0086`). */
const BARE_CALLING = /^(?:00)?([1-9][0-9]{0,3})$/;

/**
 * An area code as partners write it: full-width forms folded, spaces, hyphens and parentheses read
 * past (`(+86)`, `＋86`), then read as its field writes it (`AreaForm`).
 */
export function readAreaCode(raw: string, form: AreaForm): AreaReading {
  const text = raw.normalize('NFKC').replace(INVISIBLE, '').replace(PHONE_SEPARATORS, '');
  const calling = /^\+([0-9]{1,4})$/.exec(text);
  if (calling !== null) return { kind: 'calling', code: calling[1]! };
  const bare = BARE_CALLING.exec(text);
  const area = form === 'office' ? DOMESTIC_AREA.exec(text) : null;
  // `0755` and `010` are area codes only: a calling code never begins with a single 0.
  if (area !== null && bare === null) return { kind: 'domestic', code: area[1]! };
  if (bare === null) return { kind: 'invalid' };
  if (form === 'plus') return { kind: 'plusMissing' };
  if (area !== null) return { kind: 'either', calling: bare[1]!, domestic: area[1]! };
  return { kind: 'calling', code: bare[1]! };
}

/** The middle dot of a transliterated name (U+00B7) and the look-alikes forms and input methods type. */
export const MIDDLE_DOT = '\u00B7';
const DOT_LOOKALIKES = /[\u0387\u2022\u2027\u2219\u22C5\u2E31\u30FB\uFF65]/g;

/** A Chinese name: every middle-dot look-alike (`•`, `・`, `‧` ...) read as `·`. */
export function canonicalName(name: string): string {
  return name.replace(DOT_LOOKALIKES, MIDDLE_DOT);
}

/** Apostrophes forms and word processors type: right single quotation mark, modifier letter apostrophe. */
const APOSTROPHE_LOOKALIKES = /[\u2019\u02BC]/g;

/**
 * A name in Latin letters: full-width letters and spaces folded, a letter and its combining mark
 * composed (NFKC: `U` + U+0308 is `Ü`), and the typographic apostrophe read as `'` (`JI’AN`).
 */
export function canonicalLatinName(nameEn: string): string {
  return nameEn.normalize('NFKC').replace(APOSTROPHE_LOOKALIKES, "'");
}

/** An e-mail address split at its last `@`, the domain in its ASCII (`xn--`) form. */
export interface EmailReading {
  readonly local: string;
  /** The domain as sent when ASCII; else its IDNA (UTS #46) ASCII form, empty when it has none. */
  readonly domain: string;
}

export function readEmail(email: string): EmailReading | undefined {
  const at = email.lastIndexOf('@');
  if (at < 0) return undefined;
  const domain = email.slice(at + 1);
  // eslint-disable-next-line no-control-regex
  const ascii = /^[\x00-\x7F]*$/.test(domain) ? domain : domainToASCII(domain);
  return { local: email.slice(0, at), domain: ascii };
}

/**
 * An address: every dash an input method types for `-` read as `-` (full-width `－`, `‐`, `–`,
 * `—`, `−`, and the IME's double dash `——` as one).
 */
export function canonicalAddress(address: string): string {
  return address.replace(/[\u2014\u2015]{2}/g, '-').replace(/[\u2010-\u2015\u2212\uFE63\uFF0D]/g, '-');
}

/** The canonical reading of every value of an application that has one. */
export interface CanonicalApplication {
  readonly cert_id: string | undefined;
  readonly name: string | undefined;
  readonly name_en: string | undefined;
  readonly email: EmailReading | undefined;
  readonly address: string | undefined;
  readonly office_address: string | undefined;
  readonly consignee_address: string | undefined;
  readonly mob_no: PhoneReading | undefined;
  readonly mob_no_of: AreaReading | undefined;
  readonly office_tel_no: PhoneReading | undefined;
  readonly office_tel_no_of: AreaReading | undefined;
  readonly consignee_mob_no: PhoneReading | undefined;
  readonly consignee_mob_no_of: AreaReading | undefined;
}

/**
 * The canonical reading of an application. A field that is not a string (it failed the schema)
 * reads as undefined. Read once per request, by the checks: not cached in a WeakMap keyed by the
 * request, because V8's scavenger keeps an ephemeron's value alive and promotes it to the old
 * generation, so every reading (about 1 KB a submission) would wait for a major collection.
 */
export function readApplication(app: ApplicationRequest): CanonicalApplication {
  const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const map = <T>(value: unknown, read: (text: string) => T) => {
    const text = str(value);
    return text === undefined ? undefined : read(text);
  };
  return {
    cert_id: map(app.cert_id, canonicalDocumentNumber),
    name: map(app.name, canonicalName),
    name_en: map(app.name_en, canonicalLatinName),
    email: map(app.email, readEmail),
    address: map(app.address, canonicalAddress),
    office_address: map(app.office_address, canonicalAddress),
    consignee_address: map(app.consignee_address, canonicalAddress),
    mob_no: map(app.mob_no, readPhone),
    mob_no_of: map(app.mob_no_of, (text) => readAreaCode(text, 'plus')),
    office_tel_no: map(app.office_tel_no, readPhone),
    office_tel_no_of: map(app.office_tel_no_of, (text) => readAreaCode(text, 'office')),
    consignee_mob_no: map(app.consignee_mob_no, readPhone),
    consignee_mob_no_of: map(app.consignee_mob_no_of, (text) => readAreaCode(text, 'bare')),
  };
}

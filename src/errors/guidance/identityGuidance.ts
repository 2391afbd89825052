import type { IDENTITY_ERRORS } from '../catalogue/identityErrors.ts';
import type { Guidance } from './guidanceEntry.ts';

/** Field validation: dates, identity documents, names, the payment password and the card number. */
export const IDENTITY_GUIDANCE: { readonly [K in keyof typeof IDENTITY_ERRORS]: Guidance } = {
  dateInvalid: {
    cause: 'A date is not a real calendar date in the form YYYY-MM-DD (`2024-02-30`, `2024/02/01`).',
    remedy: 'Send the date as YYYY-MM-DD, as printed on the document.',
  },
  dateInFuture: {
    cause: 'A date that must be past (birthday, document start) is after today in the business time zone.',
    remedy: 'Check the date (and the year) against the document.',
  },
  underAge: {
    cause: 'On today’s date (business time zone) the applicant is younger than the minimum age.',
    remedy: 'The applicant cannot apply yet; check the birthday if it was mistyped.',
  },
  overAge: {
    cause: 'The birthday makes the applicant older than is plausible.',
    remedy: 'Check the birthday, especially its year.',
  },
  documentExpired: {
    cause: '`cert_end_date` is before today in the business time zone.',
    remedy: 'Ask the applicant for a valid document (`9999-12-31` means one without expiry).',
  },
  documentDatesOrder: {
    cause: 'The document’s end date is not after its start date, or its start is before the birthday.',
    remedy: 'Check both dates against the document.',
  },
  documentStartRequired: {
    cause: '`cert_start_date` is missing; only a Hong Kong identity card may leave it out.',
    remedy: 'Send the document’s start (issue) date.',
  },
  certCheckDigit: {
    cause: 'The document number’s check character does not match its other characters (a typing error).',
    remedy: 'Ask the applicant to check the number against the document.',
  },
  certBirthMismatch: {
    cause: 'The birth date embedded in the identity number differs from `birthday`.',
    remedy: 'Correct whichever of the two was mistyped.',
  },
  certSexMismatch: {
    cause: 'The sex embedded in the identity number (its 17th digit) differs from `sex`.',
    remedy: 'Correct `sex` or the number.',
  },
  certRegionUnknown: {
    cause: 'The identity number does not start with a real province code.',
    remedy: 'Check the first digits of the number against the document.',
  },
  certFormat: {
    cause: 'The document number does not have the form of its type and country; the message says which.',
    remedy: 'Check `cert_type`, `country` and the number against the document.',
  },
  passportFormat: {
    cause: 'The passport number does not have a plausible form for its country.',
    remedy: 'Check the number (letters and digits as printed) and `country`.',
  },
  nameNotChinese: {
    cause: '`name` contains characters other than Chinese characters and the middle dot.',
    remedy: 'Send the name in Chinese characters; a transliterated name keeps its middle dot.',
  },
  nameEnNotCapitals: {
    cause: 'A mainland applicant’s `name_en` is not in capital Latin letters.',
    remedy: 'Send the pinyin in capitals, e.g. `LI LEI`.',
  },
  nameEnPinyinMismatch: {
    cause: 'A mainland applicant’s `name_en` is not a pinyin reading of `name`.',
    remedy: 'Send the pinyin of the Chinese name (any reading of a polyphonic character; Ü as V, U or YU).',
  },
  payPwdWeak: {
    cause:
      '`pay_pwd` is the digest of a trivially guessable password (a run, a repeat, the birthday, document digits).',
    remedy: 'Ask the applicant for another payment password; send its MD5 digest.',
  },
  cardNoFormat: {
    cause: 'The requested `card_no` is not all digits of the product’s length.',
    remedy: 'Send the full number, digits only.',
  },
  cardNoBin: {
    cause: 'The requested `card_no` does not start with the product’s BIN.',
    remedy: 'Request a number within the BIN in the message, or leave `card_no` out.',
  },
  cardNoLuhn: {
    cause: 'The requested `card_no` fails the Luhn check (a typing error).',
    remedy: 'Check the number.',
  },
  certNationalityMismatch: {
    cause:
      'The nationality code inside a foreigner’s permanent residence card number differs from `country`.',
    remedy: 'Check `country` and the number against the card.',
  },
  documentStartBeforeBirth: {
    cause: '`cert_start_date` is before `birthday`: no document is issued before its holder is born.',
    remedy: 'Check both dates (often a transposed year).',
  },
  nameDigits: {
    cause: 'A name contains digits.',
    remedy: 'Send the name as printed on the document, without numbers.',
  },
  nameEnSpaces: {
    cause: '`name_en` begins or ends with a space.',
    remedy: 'Trim the name before sending it.',
  },
  nameEnNotLatin: {
    cause:
      'A non-mainland applicant’s `name_en` has characters other than Latin letters and the separators named.',
    remedy: 'Send the name in Latin letters as in the passport.',
  },
  nameEnPinyinForm: {
    cause:
      'A mainland applicant’s `name_en` is not written as Hanyu Pinyin: a punctuation mark, Chinese characters, tone marks, an apostrophe that divides no syllables, or a Ü where the pinyin has none; the message says which.',
    remedy:
      "Send the pinyin in capitals as the passport prints it (`LÜ`, `LYU`, `JI'AN`, `ZHANG WEI`): spaces or an apostrophe between syllables only.",
  },
};

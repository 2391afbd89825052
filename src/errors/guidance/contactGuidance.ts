import type { CONTACT_ERRORS } from '../catalogue/contactErrors.ts';
import type { Guidance } from './guidanceEntry.ts';

/** Field validation: telephone numbers, calling codes, e-mail and addresses. */
export const CONTACT_GUIDANCE: { readonly [K in keyof typeof CONTACT_ERRORS]: Guidance } = {
  phoneInvalid: {
    cause: 'The number is not a valid number of its kind for its calling code.',
    remedy: 'Check the number and its calling code (`+86` for the mainland).',
  },
  areaCodeInvalid: {
    cause: 'A calling code is not a known one written as `+` and digits.',
    remedy: 'Send the calling code with its plus sign, e.g. `+86`, `+852`.',
  },
  emailInvalid: {
    cause: 'The e-mail address is not well formed.',
    remedy: 'Check it for typing errors (a missing `@` or domain).',
  },
  addressParts: {
    cause:
      'A mainland `address` is not province-city-district-detail joined by `-` (the spec’s form; `office_address` and `consignee_address` need none).',
    remedy: 'Write it as `广东省-深圳市-南山区-科技园路1号` (a municipality may leave a level out).',
  },
  addressDivisionUnknown: {
    cause:
      'A province, city or district of a mainland address does not exist or does not belong to the level above (named in the message for office and delivery addresses).',
    remedy: 'Check the named part against the current (or a recently abolished) division.',
  },
  phoneSeparator: {
    cause:
      'A telephone number contains a character that is neither a digit nor one of the separators read past.',
    remedy: 'Send digits, with spaces, hyphens or parentheses at most.',
  },
  phoneCharacters: {
    cause: 'A telephone number has letters or other characters where digits belong.',
    remedy: 'Send the number in digits.',
  },
  phoneCallingCodeRepeated: {
    cause: 'The number repeats its calling code, which belongs in its `_of` field.',
    remedy: 'Send the calling code only in the field the message names, the number without it.',
  },
  phoneExtension: {
    cause: 'An extension was given on a number other than the office telephone.',
    remedy: 'Send the extension only with `office_tel_no`; a mobile or consignee number has none.',
  },
  phoneNotMobile: {
    cause: '`mob_no` is a fixed-line number for its calling code.',
    remedy: 'Send the applicant’s mobile number.',
  },
  areaCodePlusMissing: {
    cause: 'A calling code was written without its leading `+`.',
    remedy: 'Write it with the plus sign, e.g. `+86`.',
  },
  officeAreaCodeInvalid: {
    cause: '`office_tel_no_of` is neither a known calling code nor a mainland area code.',
    remedy: 'Send `+86`-style calling codes or a mainland area code such as `0755`.',
  },
  phoneNoAreaReading: {
    cause:
      '`office_tel_no_of` holds digits that read both as a calling code and as a mainland area code (`852`: Hong Kong or Zunyi 0852), and `office_tel_no` is a valid number under neither reading.',
    remedy:
      'Check `office_tel_no` against its area code; write the calling code with `+` (`+852`) or the area code with its `0` (`0852`) to say which is meant.',
  },
  callingCodeUnknown: {
    cause:
      '`consignee_mob_no_of` is no known calling code (a mainland area code such as `0755` is none), with or without its `+`.',
    remedy: 'Send the calling code of the consignee’s number, e.g. `+86`, `86` or `852`.',
  },
};

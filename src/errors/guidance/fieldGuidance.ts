import type { FIELD_ERRORS } from '../catalogue/fieldErrors.ts';
import type { Guidance } from './guidanceEntry.ts';

/** Field validation: the schema's rules for any field, URLs and free text. */
export const FIELD_GUIDANCE: { readonly [K in keyof typeof FIELD_ERRORS]: Guidance } = {
  fieldRequired: {
    cause: 'A required field is missing (on an amend: a field that was asked for).',
    remedy: 'Send the field named in the message; `data.errors` lists every problem at once.',
  },
  fieldType: {
    cause: 'A field has the wrong JSON type (a number sent as a string, or the reverse).',
    remedy: 'Send the type the reference gives for that field.',
  },
  fieldTooLong: {
    cause: 'A text or list is longer than its documented limit.',
    remedy: 'Shorten it to the limit in the message.',
  },
  fieldEmpty: {
    cause: 'A field is present but empty.',
    remedy: 'Leave an optional field out rather than empty; fill a required one.',
  },
  fieldFormat: {
    cause: 'A value does not have the required form; the message says which rule it breaks.',
    remedy: 'Correct the value as the message says.',
  },
  fieldNotAllowed: {
    cause: 'A value is not one of the allowed ones (listed in the message).',
    remedy: 'Send one of the listed values.',
  },
  fieldUnknown: {
    cause: 'The body carries a field the operation does not take (often a misspelling).',
    remedy: 'Remove it, or correct its name against the reference.',
  },
  fieldTooManyItems: {
    cause: 'A list has more items than allowed.',
    remedy: 'Send at most the number of items in the message.',
  },
  fieldDuplicateItems: {
    cause: 'A list of codes names a code twice.',
    remedy: 'Send each code once.',
  },
  urlNotHttps: {
    cause: 'A URL is not an absolute `https` URL.',
    remedy: 'Send an `https://` URL the service can reach.',
  },
  urlCredentials: {
    cause: 'A URL carries a user name or password.',
    remedy: 'Use a URL without credentials (a signed URL’s query string is fine).',
  },
  urlPrivateHost: {
    cause: 'A URL points at a private, loopback, link-local or other special-use address.',
    remedy: 'Use a URL on a public host.',
  },
  codeUnknown: {
    cause:
      'A code is not in the code table named in the message (the tables in force may differ from the defaults).',
    remedy: 'Take codes from the codes endpoint.',
  },
  otherTextRequired: {
    cause: 'The "other" code was chosen without its text (`profession_other`).',
    remedy: 'Send the text field the message names.',
  },
  fieldNotRequested: {
    cause:
      'The amend carries a field the operator did not ask for; only the fields of `requested_fields` are taken.',
    remedy: 'Send exactly the fields the status view lists in `requested_fields`.',
  },
  fieldNotResendable: {
    cause:
      "A request for information names a field of the submit that a partner is never asked to send again: the payment password (a digest no reviewer sees) or the assigned card number (the card's, not the applicant's).",
    remedy:
      "Ask for the applicant's details, document, contact, employment, account, delivery or image fields (the console meta's `amendable_fields`); an application whose card number must change is rejected and submitted again.",
  },
  textCarriesNumber: {
    cause:
      'A free text (a reason, a carrier) contains what looks like an identity or card number, which must not be stored in the clear.',
    remedy: 'Describe without the number; the application already holds it.',
  },
};

import type { ErrorName } from './catalogue.ts';

/** What causes an error and what to do about it: one per code, the source of docs/ERRORS.md. */
export interface Guidance {
  readonly cause: string;
  readonly remedy: string;
}

const RETRY_LATER = 'Retry with the same `Idempotency-Key` after a pause; the request was not done.';

/** Every code's own cause and remedy (a code without them does not compile). */
export const GUIDANCE: { readonly [K in ErrorName]: Guidance } = {
  bodyNotJson: {
    cause: 'The body could not be parsed as JSON (a trailing comma, single quotes, a truncated body).',
    remedy: 'Serialise the body with a JSON library; do not build it by string concatenation.',
  },
  bodyNotObject: {
    cause: 'The body is JSON, but an array, a string, a number or null.',
    remedy: 'Send one JSON object with the fields of the operation.',
  },
  bodyDuplicateKey: {
    cause:
      'The same member name appears twice in one object; parsers disagree on which wins, so it is refused.',
    remedy: 'Send each field once.',
  },
  bodyBadEncoding: {
    cause: 'The body bytes are not valid UTF-8 (often GBK or Latin-1 text sent as is).',
    remedy: 'Encode the body as UTF-8, and declare `charset=utf-8` if you name a charset.',
  },
  bodyForbiddenKey: {
    cause: 'A member is named `__proto__`, `constructor` or `prototype`, names used to attack JSON parsers.',
    remedy: 'Remove that member; no operation takes it.',
  },
  bodyTooDeep: {
    cause: 'Objects or arrays are nested deeper than any operation needs.',
    remedy: 'Send the documented, flat shape of the operation.',
  },
  bodyEmpty: {
    cause: 'A POST arrived without a body.',
    remedy: 'Send a JSON object, at least `{app_id, timestamp}` (`{}` for admin routes that need nothing).',
  },
  headerInvalid: {
    cause: 'A header the service reads has an unusable value; the message names the header and the rule.',
    remedy: 'Correct that header (for example an `Idempotency-Key` of 1-255 visible characters).',
  },
  requestMalformed: {
    cause: 'The HTTP request itself could not be read (a broken request line or framing).',
    remedy: 'Use a standard HTTP client; check any proxy in between.',
  },
  requestTimeout: {
    cause: 'The request (or its headers) did not arrive completely within the time-outs.',
    remedy: 'Send the whole request without pauses (headers within `HEADERS_TIMEOUT_MS`), then retry.',
  },
  headersTooLarge: {
    cause: 'The request headers are larger than the server accepts (16 KiB in all).',
    remedy: 'Send fewer or shorter headers (cookies and tracing headers are the usual cause), then retry.',
  },
  tokenMissing: {
    cause: 'The request has no `Authorization` header.',
    remedy:
      'Exchange the app secret for a token (`/auth/token`) and send it as `Authorization: Bearer <token>`.',
  },
  tokenInvalid: {
    cause:
      'The token is not one the service issued, or it was revoked (an operator revoked the app’s tokens).',
    remedy: 'Exchange the app secret for a new token; if that fails too, ask the issuer about the app.',
  },
  tokenExpired: {
    cause: 'The token is older than its lifetime (`expires_in` of the exchange, 2 hours by default).',
    remedy:
      'Exchange the secret for a new token, then retry (the client renews before expiry, and once on this).',
  },
  credentialsInvalid: {
    cause:
      'The token exchange named an `app_id` and an `app_secret` that do not belong together (or a rotated-out secret).',
    remedy: 'Check both values; do not retry in a loop: failed secrets are counted, then refused with 429.',
  },
  timestampSkew: {
    cause:
      '`timestamp` is further from the server clock than the allowed skew (300 s by default); `data.server_time` says the server time.',
    remedy: 'Set the clock by NTP and send Unix seconds (not milliseconds), then retry.',
  },
  operatorAuthRequired: {
    cause: 'An admin route was called without an operator token or session cookie.',
    remedy:
      'Log in (`POST /admin/v1/login`) and send the token as `Authorization: Bearer`, or use the console.',
  },
  operatorSessionInvalid: {
    cause:
      'The operator session is unknown, has expired, was revoked at logout, or its operator was disabled.',
    remedy: 'Log in again.',
  },
  loginFailed: {
    cause: 'The user name or the password of an operator login is wrong (which one is not said).',
    remedy: 'Check both; repeated failures are limited (429). An admin can set a new password.',
  },
  appMismatch: {
    cause: 'The body’s `app_id` is not the app the token was issued to.',
    remedy: 'Send the `app_id` of the token, or the token of the app named in the body.',
  },
  appDisabled: {
    cause: 'An operator disabled the app: its tokens and secrets no longer work.',
    remedy: 'Ask the issuer to enable the app; retrying does not help.',
  },
  forbidden: {
    cause:
      'The operator’s role does not allow this action (a viewer moving an application, a reviewer managing apps), or the actor cannot make this move.',
    remedy: 'Ask an admin for the role the message names, or have someone with it act.',
  },
  csrfTokenInvalid: {
    cause:
      'A cookie-authenticated request that changes something came without the session’s `x-csrf-token`, or with another one.',
    remedy:
      'Send the `csrf_token` of the login as `x-csrf-token`; the console does this by itself (reload it).',
  },
  selfChangeForbidden: {
    cause: 'An admin tried to disable or demote the account it is logged in with.',
    remedy: 'Have another admin do it, so that no one locks the last admin out.',
  },
  documentNotKept: {
    cause:
      'The image field has no kept copy: its fetch is still pending, it failed (see its reason in the view), or the application carries no such image.',
    remedy:
      'Wait for a pending document; for a failed one, ask the caller for it again (SUPPLEMENT_REQUIRED with `image_missing`).',
  },
  documentNotOpened: {
    cause:
      'A kept document is identity data: it is served only after an audited opening for review (or a reveal of that image field) by the same operator in the same session.',
    remedy:
      'Claim the application and open it for review (or reveal the field) with a purpose, then view it.',
  },
  applicationNotFound: {
    cause:
      'No application of this app has that serial number (or `external_id`); another app’s answers the same.',
    remedy:
      'Check the serial (32 characters, as the submit answered) or the reference; list your applications to find it.',
  },
  routeNotFound: {
    cause: 'No operation has this method and path.',
    remedy: 'Check the path against the API reference (`/docs`); caller operations are all POST.',
  },
  operatorNotFound: {
    cause: 'No operator has that user name.',
    remedy: 'Check the name (`GET /admin/v1/operators` lists them).',
  },
  appNotFound: {
    cause: 'No app has that `app_id`.',
    remedy: 'Check the id (`GET /admin/v1/apps` or `cardapply apps list`).',
  },
  webhookEndpointNotFound: {
    cause: 'No webhook endpoint has that id, or it belongs to another app.',
    remedy: 'List your endpoints (`webhooks/list`) and use one of their ids.',
  },
  eventNotFound: {
    cause: 'No event has that id, or it belongs to another app.',
    remedy: 'Take event ids from the events list or from the `webhook-id` header of a delivery.',
  },
  duplicateApplication: {
    cause:
      'The identity document already has an application that is not final (its number read canonically). The submit, the validate-only call and the amend answer it alike.',
    remedy:
      'If it is yours, `data.busi_water_no` names it: query it instead; submit again only once it is final.',
  },
  cardNoTaken: {
    cause:
      'The requested `card_no` belongs to another application (answered by the submit, the validate-only call and the amend).',
    remedy: 'Request another number, or leave `card_no` out and let the service draw one.',
  },
  idempotencyKeyReused: {
    cause: 'This `Idempotency-Key` was used within the last day with a different body.',
    remedy: 'A key is for retrying one request: send a different body with a new `Idempotency-Key`.',
  },
  idempotencyInProgress: {
    cause: 'The first request with this key has not finished yet.',
    remedy: 'Wait `Retry-After` seconds and retry with the same key: you will get its answer.',
  },
  transitionNotAllowed: {
    cause:
      'The application’s current state does not allow this move (both states are named); an amend outside SUPPLEMENT_REQUIRED too.',
    remedy: 'Query the application: its state no longer allows this move.',
  },
  concurrentChange: {
    cause:
      'The application changed between the read the move was based on and the move (another operator, the caller, a job).',
    remedy: 'Read it again, decide again, and send the new `version`.',
  },
  externalIdTaken: {
    cause:
      'Another application of this app that is not final already carries this `external_id`; `data.busi_water_no` names it. The submit and the validate-only call answer it alike.',
    remedy: 'Query that application by its reference; use a new reference for a new application.',
  },
  operatorExists: {
    cause: 'An operator with this user name already exists.',
    remedy: 'Choose another name, or change the existing operator’s role or password.',
  },
  webhookEndpointDisabled: {
    cause:
      'A redelivery was asked of a disabled endpoint (disabled by hand, or by the service after five days of failures).',
    remedy: 'Enable the endpoint once its receiver works, then redeliver.',
  },
  bodyTooLarge: {
    cause: 'The body is larger than the limit (64 KiB by default); images are URLs, not content.',
    remedy: 'Send image URLs rather than image data, and no unused fields.',
  },
  unsupportedContentType: {
    cause: 'The `Content-Type` is not `application/json`.',
    remedy: 'Send `Content-Type: application/json` (with `charset=utf-8` if any).',
  },
  xmlContentTypeRequired: {
    cause: 'A sanctions list upload was sent as something other than XML (JSON, or no body).',
    remedy: 'Send the list file as published with `Content-Type: application/xml` (or `text/xml`).',
  },
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
  payPwdWeak: {
    cause:
      '`pay_pwd` is the digest of a trivially guessable password (a run, a repeat, the birthday, document digits).',
    remedy: 'Ask the applicant for another payment password; send its MD5 digest.',
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
  nameEnPinyinForm: {
    cause:
      'A mainland applicant’s `name_en` is not written as Hanyu Pinyin: a punctuation mark, Chinese characters, tone marks, an apostrophe that divides no syllables, or a Ü where the pinyin has none; the message says which.',
    remedy:
      "Send the pinyin in capitals as the passport prints it (`LÜ`, `LYU`, `JI'AN`, `ZHANG WEI`): spaces or an apostrophe between syllables only.",
  },
  callingCodeUnknown: {
    cause:
      '`consignee_mob_no_of` is no known calling code (a mainland area code such as `0755` is none), with or without its `+`.',
    remedy: 'Send the calling code of the consignee’s number, e.g. `+86`, `86` or `852`.',
  },
  mfaCodeRequired: {
    cause: 'The operator has a second factor and signed in without its one-time code.',
    remedy: 'Send the current code of the authenticator app (or an unused recovery code) as `otp`.',
  },
  mfaCodeInvalid: {
    cause: 'The one-time code is wrong, outside its 30-second window, or was used already.',
    remedy: 'Check the device clock and send the code showing now; each code works once.',
  },
  mfaEnrolmentRequired: {
    cause: 'The operator has no second factor yet; nothing but enrolling is allowed until it has one.',
    remedy: 'Enrol an authenticator app (the console walks through it), then continue.',
  },
  mfaAlreadyEnrolled: {
    cause: 'A second enrolment was started for an operator that already has a second factor.',
    remedy: 'Have an admin reset the second factor first if the device was lost.',
  },
  mfaNotPending: {
    cause: 'An enrolment was confirmed without one having been started.',
    remedy: 'Start the enrolment, scan its code, then confirm with a code from the app.',
  },
  claimNotPossible: {
    cause: 'A claim was asked for an application that is not in review.',
    remedy: 'Claim only applications in IN_REVIEW; reload to see its state.',
  },
  applicationClaimed: {
    cause: 'Another reviewer holds the application for review (the message names who).',
    remedy: 'Pick another application, or ask the holder to release it.',
  },
  claimNotHeld: {
    cause: 'A reviewer acted on an application in review without holding its claim.',
    remedy: 'Claim the application first, then act.',
  },
  passwordCommon: {
    cause: 'The new operator password is on the list of commonly used passwords.',
    remedy: 'Choose a passphrase of several uncommon words.',
  },
  passwordReused: {
    cause: 'The new operator password is one of the last ones of this operator.',
    remedy: 'Choose a password not used before.',
  },
  revealsLimited: {
    cause: 'The operator revealed more masked fields in the last hour than allowed.',
    remedy: 'Wait `Retry-After` seconds; reveal only what the review needs.',
  },
  operatorLocked: {
    cause: 'The operator account is locked after too many failed sign-ins.',
    remedy: 'Wait `Retry-After` seconds, or ask an admin to unlock it.',
  },
  fieldNotRequested: {
    cause:
      'The amend carries a field the operator did not ask for; only the fields of `requested_fields` are taken.',
    remedy: 'Send exactly the fields the status view lists in `requested_fields`.',
  },
  passwordTooShort: {
    cause: 'An operator password is shorter than the minimum.',
    remedy: 'Choose a longer password (a passphrase of several words).',
  },
  textCarriesNumber: {
    cause:
      'A free text (a reason, a carrier) contains what looks like an identity or card number, which must not be stored in the clear.',
    remedy: 'Describe without the number; the application already holds it.',
  },
  webhookUrlUnresolvable: {
    cause: 'The webhook URL’s host name does not resolve in DNS.',
    remedy: 'Check the host name, or wait for its DNS record to be published.',
  },
  rateLimited: {
    cause: 'The app sent more requests than its limit (50 per second, burst 100, by default).',
    remedy: 'Wait `Retry-After` seconds, then retry; spread bulk work over time.',
  },
  concurrencyLimited: {
    cause:
      'The app already had as many requests in progress at once as allowed (16 per service process by default, APP_CONCURRENCY_LIMIT); the request was refused before any work.',
    remedy:
      'Wait `Retry-After` seconds, then retry; send fewer requests at once (fewer connections or a smaller pool).',
  },
  authAttemptsLimited: {
    cause: 'Too many failed secret exchanges for this app in a short time.',
    remedy: 'Wait `Retry-After` seconds; fix the secret before trying again.',
  },
  loginAttemptsLimited: {
    cause: 'Too many failed operator logins for this user name or address.',
    remedy: 'Wait `Retry-After` seconds; an admin can set a new password.',
  },
  internal: {
    cause: 'An unexpected fault in the service; nothing of the request was committed.',
    remedy: 'Retry later with the same `Idempotency-Key`; report persistent 500s with the `x-request-id`.',
  },
  storeUnavailable: {
    cause: 'The database is unreachable or overloaded; nothing of the request was committed.',
    remedy: RETRY_LATER,
  },
  screeningHitUnresolved: {
    cause: 'Screening matched the applicant to a sanctions list entry and the hit is not resolved.',
    remedy:
      'Review the hit beside the applicant: clear it as a false positive with a note and have a second operator confirm, or reject with `sanctions_hit`.',
  },
  screeningHitState: {
    cause: 'The hit has moved on: confirming needs a cleared-by-one hit, clearing an unresolved one.',
    remedy: 'Read the application again and act on the hit as it is now.',
  },
  screeningSameOperator: {
    cause: 'Four eyes: the operator who cleared the hit tried to confirm it too.',
    remedy: 'Ask a second reviewer or admin to confirm.',
  },
  screeningHitNotFound: {
    cause: 'No hit with that id belongs to the application.',
    remedy: 'Take the hit id from the application view.',
  },
  screeningListInvalid: {
    cause: 'The uploaded file is not well-formed XML in the format of the named list, or is not UTF-8.',
    remedy: 'Upload the file as published (UN consolidated.xml, OFAC SDN.XML) and name the right list.',
  },
  notReady: {
    cause: 'This instance is starting, stopping or missing a dependency (`/readyz` lists why).',
    remedy: 'Send traffic to another instance; a load balancer does this by itself.',
  },
};

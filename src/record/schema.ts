import { Type, type Static } from 'typebox';
import { SENSITIVE_FIELDS } from '../redaction.ts';

/**
 * The submit request of the specification (section 2.1), field for field. This one schema gives the
 * runtime validation (structure, types, lengths), the TypeScript type and the OpenAPI document.
 * Checks a schema cannot express (check digits, pinyin, calendars, code tables) live in `checks/`.
 *
 * Every string is taken as sent, never trimmed; every string and array has a documented limit.
 */

/** Documented length limits, in characters. The schema's maxLength, so the OpenAPI document shows them. */
export const LIMITS = {
  appId: 64,
  externalId: 64,
  name: 64,
  address: 256,
  url: 2048,
  email: 254,
  phone: 32,
  areaCode: 8,
  certId: 32,
  code: 16,
  codeItems: 10,
  freeText: 256,
  amount: 32,
  date: 10,
  cardNo: 19,
  otherFieldItems: 20,
  otherFieldName: 64,
  otherFieldValue: 1024,
} as const;

const text = (maxLength: number, description: string, example?: string) =>
  Type.String({
    minLength: 1,
    maxLength,
    description,
    ...(example === undefined ? {} : { examples: [example] }),
  });

const date = (description: string, example: string) =>
  Type.String({
    minLength: 1,
    maxLength: LIMITS.date,
    pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
    description,
    examples: [example],
  });

const imageUrl = (description: string) =>
  Type.String({
    minLength: 1,
    maxLength: LIMITS.url,
    description: `${description} An absolute https URL.`,
    examples: ['https://img.example.com/a/1.jpg'],
  });

/** Read canonically by the checks (full-width forms, spaces and brackets read past), so no pattern here. */
const areaCode = (description: string, example = '+86') =>
  Type.String({
    minLength: 1,
    maxLength: LIMITS.areaCode,
    description,
    examples: [example],
  });

const codeList = (table: string, description: string, example: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: LIMITS.code }), {
    minItems: 1,
    maxItems: LIMITS.codeItems,
    description: `${description} Codes of the \`${table}\` table (see the codes endpoint); no code twice.`,
    examples: [[example]],
  });

/**
 * The partner's own reference for an application: 1-64 printable ASCII characters, no space at
 * either end. The one field beyond the specification's section 2.1.
 */
export const EXTERNAL_ID_PATTERN = '^[!-~]([ -~]*[!-~])?$';

/** The serial number the submit assigns, by which every later call names the application. */
export const SerialNumber = Type.String({
  minLength: 1,
  maxLength: 32,
  description: 'Application serial number returned by the submit (32 characters of `[0-9A-Z]`).',
  examples: ['01M7Q5CQG03QZV91NCTJX2D43J5KC6E8'],
});

export const ExternalId = Type.String({
  minLength: 1,
  maxLength: LIMITS.externalId,
  pattern: EXTERNAL_ID_PATTERN,
  description:
    "The partner's own reference (an order number): 1-64 printable ASCII characters. Unique per app among active applications; query, cancel and amend accept it in place of `busi_water_no`. Stored in the clear: it must not be identity data.",
  examples: ['ORD-2026-000123'],
});

/** Fields both the submit and the validate-only call accept; `app_id` and `timestamp` included. */
export const ApplicationRequest = Type.Object(
  {
    app_id: text(
      LIMITS.appId,
      'Application identifier of the partner; must be the app of the token.',
      'app_3kq8z1',
    ),
    timestamp: Type.Integer({
      minimum: 0,
      maximum: 99_999_999_999_999,
      description: 'Request time as a Unix timestamp in seconds; within the allowed skew of server time.',
      examples: [1795000000],
    }),
    address: text(
      LIMITS.address,
      'Contact address. An address that names a mainland province is province-city-district-detail joined by `-` (short or full names; a municipality may leave out the city); any other is free text.',
      '广东省-深圳市-南山区-科技园路1号',
    ),
    birthday: date('Date of birth, YYYY-MM-DD.', '1990-03-07'),
    sex: Type.Enum(['M', 'F'], { description: '`M` (male) or `F` (female).' }),
    cert_type: Type.Enum(['00', '02'], { description: '`00` identity card, `02` passport.' }),
    cert_id: text(
      LIMITS.certId,
      'Identity document number. Read in upper case, without spaces, and without the brackets around a check character (`A123456(3)` is `A1234563`).',
      '440305199003071236',
    ),
    country: text(LIMITS.code, 'Country code (ISO 3166-1 alpha-2) from the `country` table.', 'CN'),
    id_card_img: imageUrl('Front image of the identity card.'),
    id_card_back_img: Type.Optional(imageUrl('Back image of the identity card.')),
    cert_start_date: Type.Optional(
      date('Document start date; may be omitted for a Hong Kong identity card.', '2015-06-01'),
    ),
    cert_end_date: Type.Optional(
      date('Document end date; `9999-12-31` for a document with no expiry.', '2035-06-01'),
    ),
    passport_img: imageUrl('Passport image; required even when cert_type is 00.'),
    email: text(LIMITS.email, 'E-mail address of the applicant.', 'li.lei@example.com'),
    mob_no: text(
      LIMITS.phone,
      'Mobile number of the applicant, without the calling code; spaces, hyphens and parentheses are read past.',
      '138 0013 8000',
    ),
    mob_no_of: areaCode('Calling code of the mobile number, with a leading plus sign.'),
    name: text(
      LIMITS.name,
      'Name in Chinese (a middle dot, or a look-alike, between the parts of a transliterated name); never digits.',
      '李雷',
    ),
    name_en: text(
      LIMITS.name,
      'Name in English: for a mainland applicant (country CN) the capital-letter pinyin of name; for anyone else Latin letters in any case.',
      'LI LEI',
    ),
    company_name: text(LIMITS.freeText, 'Employer name.'),
    office_address: text(
      LIMITS.address,
      'Employer address; the mainland form when it names a mainland province, as for address.',
    ),
    office_tel_no: text(
      LIMITS.phone,
      'Employer telephone number; spaces, hyphens and parentheses are read past, and an extension may follow (`ext. 801`, `转801`).',
      '2600 0000',
    ),
    office_tel_no_of: areaCode(
      'Area code of the employer telephone number: a calling code (`+86`) or a mainland area code (`0755`, `755`).',
      '0755',
    ),
    position: text(LIMITS.code, 'Position code from the `position` table.'),
    pay_pwd: Type.String({
      minLength: 1,
      maxLength: 32,
      description: 'Payment password as an MD5 digest: 32 hexadecimal digits.',
      examples: ['5f4dcc3b5aa765d61d8327deb882cf99'],
    }),
    profession: text(LIMITS.code, 'Occupation code from the `profession` table.'),
    profession_other: Type.Optional(
      text(LIMITS.freeText, 'Occupation in words; required when profession is the "other" code.'),
    ),
    purpose: codeList('purpose', 'Purposes of opening the account.', '01'),
    purpose_other: Type.Optional(
      text(
        LIMITS.freeText,
        'Additional purpose in words; optional, also with the "other" code (its absence is shown to reviewers).',
      ),
    ),
    sign_applicant: imageUrl("Image of the applicant's signature."),
    wealth_source: codeList('wealth_source', 'Sources of funds.', '01'),
    wealth_source_other: Type.Optional(
      text(
        LIMITS.freeText,
        'Additional source of funds in words; optional, also with the "other" code (its absence is shown to reviewers).',
      ),
    ),
    yearly_income: text(LIMITS.amount, 'Annual income.', '200000'),
    years_of_service: text(LIMITS.amount, 'Years of employment.', '5'),
    card_no: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: LIMITS.cardNo,
        description:
          'Requested card number: digits of the product length, starting with its BIN, Luhn-valid and free.',
      }),
    ),
    consignee: text(LIMITS.name, 'Recipient of the delivery.'),
    consignee_mob_no: text(
      LIMITS.phone,
      "Recipient's telephone number, mobile or landline; spaces, hyphens and parentheses are read past.",
      '13800138000',
    ),
    consignee_mob_no_of: areaCode(
      "Calling code of the recipient's telephone number, with a leading plus sign.",
    ),
    consignee_address: text(
      LIMITS.address,
      "Recipient's address; the mainland form when it names a mainland province, as for address.",
      '广东省-深圳市-南山区-科技园路1号',
    ),
    pay_voucher: imageUrl('Image of the payment proof.'),
    other_field: Type.Optional(
      Type.Array(
        Type.Object(
          {
            name: Type.String({ maxLength: LIMITS.otherFieldName }),
            value: Type.String({ maxLength: LIMITS.otherFieldValue }),
            field: Type.String({ maxLength: LIMITS.otherFieldName }),
          },
          { additionalProperties: false },
        ),
        { maxItems: LIMITS.otherFieldItems, description: 'Custom extension fields.' },
      ),
    ),
    external_id: Type.Optional(ExternalId),
  },
  { additionalProperties: false },
);

export type ApplicationRequest = Static<typeof ApplicationRequest>;

// The redaction policy names request fields: a renamed field fails to compile here.
SENSITIVE_FIELDS satisfies readonly (keyof ApplicationRequest)[];

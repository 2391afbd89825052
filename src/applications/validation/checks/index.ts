import type { LoadedCodeTables } from '../../../codes/tables.ts';
import type { FieldProblem } from '../../../errors/problems.ts';
import { ApplicationRequest } from '../../../record/schema.ts';
import { checkAddress } from './address.ts';
import { readApplication } from '../../../record/canonical.ts';
import { checkCode, checkCodeList, checkOtherText } from './codes.ts';
import { checkEmail, checkPhone } from './contact.ts';
import { checkBirthday, checkDocumentDates } from '../../../record/dates.ts';
import { checkIdentity } from './identity.ts';
import { checkNames } from './names.ts';
import { checkPayPassword } from './payPassword.ts';
import { checkImageUrl } from './urls.ts';
import { DOCUMENT_FIELDS } from '../../../events/documentOutcomes.ts';

/**
 * The domain checks of a submitted application, after its JSON-schema validation: everything the
 * schema cannot say (calendars, check digits, pinyin, phone numbering plans, divisions, code
 * tables). Framework-free and cheap: no I/O, data loaded once, regular expressions compiled once.
 * Every check reads the application's canonical reading (`readApplication`), made once per request
 * and shared with the duplicate check. `card_no` is checked elsewhere (it needs the card product
 * and the store).
 */

export interface CheckContext {
  /** The current time; "today" is its date in `timeZone`. */
  readonly now: Date;
  /** The business time zone (`BUSINESS_TIMEZONE`): whose date "today" is. */
  readonly timeZone: string;
  /** Minimum age of the applicant in whole years (default 18). */
  readonly minAge: number;
  /** The code tables in force. */
  readonly codes: LoadedCodeTables;
  /** DOCUMENT_ALLOW_PRIVATE: image URLs may be http and name private hosts (tests, closed networks). */
  readonly allowPrivateImages?: boolean;
}

export const DEFAULT_MIN_AGE = 18;

const FIELD_ORDER: ReadonlyMap<string, number> = new Map(
  Object.keys(ApplicationRequest.properties).map((key, index) => [key, index]),
);

const IMAGE_FIELDS = DOCUMENT_FIELDS;

/**
 * Domain checks after schema validation. `skip` holds fields that already failed the schema: checks
 * that need one of them are skipped, so one bad field never produces a second, confusing error. A
 * field that fails a check here is treated the same way by the checks after it (an unknown `country`
 * leaves the identity, name and address checks alone). Returns every problem, in the field order of
 * the spec.
 */
export function checkApplication(
  app: ApplicationRequest,
  ctx: CheckContext,
  skip: ReadonlySet<string>,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const bad = new Set(skip);
  const usable = (field: string) => !bad.has(field);
  const report = (found: readonly FieldProblem[]) => {
    for (const p of found) {
      problems.push(p);
      bad.add(p.field);
    }
  };
  const value = <K extends keyof ApplicationRequest>(field: K): ApplicationRequest[K] | undefined =>
    usable(field) ? app[field] : undefined;
  const { codes } = ctx;
  const read = readApplication(app);
  const canonical = <K extends keyof typeof read>(field: K) => (usable(field) ? read[field] : undefined);

  // Codes first: the country decides which identity, name and address rules apply.
  if (usable('country')) report(checkCode('country', app.country, codes.country));
  if (usable('position')) report(checkCode('position', app.position, codes.position));
  // The "other" text depends only on whether the other code was chosen: a duplicate or an unknown
  // code beside it does not change that, so it is judged in the same response. Only the profession
  // requires it; an "other" purpose or source of funds without its text is a reviewer's risk flag.
  if (usable('profession')) {
    report(checkCode('profession', app.profession, codes.profession));
    if (!skip.has('profession_other')) {
      report(
        checkOtherText(
          'profession_other',
          app.profession_other,
          app.profession,
          'profession',
          codes.profession,
        ),
      );
    }
  }
  for (const list of ['purpose', 'wealth_source'] as const) {
    if (usable(list)) report(checkCodeList(list, app[list], codes[list]));
  }

  // Dates.
  if (usable('birthday')) report(checkBirthday(app.birthday, ctx));
  report(
    checkDocumentDates(
      {
        cert_type: value('cert_type'),
        country: value('country'),
        cert_start_date: usable('cert_start_date') ? app.cert_start_date : null,
        cert_end_date: usable('cert_end_date') ? app.cert_end_date : null,
        birthday: value('birthday'),
      },
      ctx,
    ),
  );

  // Identity document, names, contact details.
  if (usable('cert_id') && usable('cert_type') && usable('country')) {
    report(
      checkIdentity({
        cert_type: app.cert_type,
        cert_id: read.cert_id!,
        country: app.country,
        birthday: value('birthday'),
        sex: value('sex'),
      }),
    );
  }
  if (usable('country')) {
    report(
      checkNames({
        country: app.country,
        name: canonical('name'),
        name_en: canonical('name_en'),
      }),
    );
  }
  if (usable('email')) report(checkEmail(read.email));
  report(
    checkPhone({
      field: 'mob_no',
      areaField: 'mob_no_of',
      number: canonical('mob_no'),
      area: canonical('mob_no_of'),
      kind: 'mobile',
    }),
  );
  report(
    checkPhone({
      field: 'office_tel_no',
      areaField: 'office_tel_no_of',
      number: canonical('office_tel_no'),
      area: canonical('office_tel_no_of'),
      kind: 'telephone',
      office: true,
    }),
  );
  // The spec calls the recipient's number a telephone number: a landline is fine.
  report(
    checkPhone({
      field: 'consignee_mob_no',
      areaField: 'consignee_mob_no_of',
      number: canonical('consignee_mob_no'),
      area: canonical('consignee_mob_no_of'),
      kind: 'telephone',
      plusOptional: true,
    }),
  );

  // Addresses, whoever's they are: `address` in the spec's dashed form when mainland; office and
  // delivery addresses as people write them, their divisions read from the text (address.ts).
  for (const field of ['address', 'office_address', 'consignee_address'] as const) {
    const address = canonical(field);
    if (address !== undefined) report(checkAddress(field, address));
  }

  // Image URLs.
  for (const field of IMAGE_FIELDS) {
    const url = value(field);
    if (url !== undefined) report(checkImageUrl(field, url, ctx.allowPrivateImages === true));
  }

  // Payment password, last: the applicant's own data makes some digests weak.
  if (usable('pay_pwd')) {
    report(
      checkPayPassword({
        pay_pwd: app.pay_pwd,
        birthday: value('birthday'),
        cert_id: canonical('cert_id'),
        mob_no: canonical('mob_no')?.digits,
      }),
    );
  }

  const rank = (p: FieldProblem) => FIELD_ORDER.get(p.field) ?? FIELD_ORDER.size;
  return problems.sort((a, b) => rank(a) - rank(b));
}

import { ACCOUNT_ERRORS } from './catalogue/accountErrors.ts';
import { APPLICATION_ERRORS } from './catalogue/applicationErrors.ts';
import { AUTH_ERRORS } from './catalogue/authErrors.ts';
import { CONTACT_ERRORS } from './catalogue/contactErrors.ts';
import { FIELD_ERRORS } from './catalogue/fieldErrors.ts';
import { IDENTITY_ERRORS } from './catalogue/identityErrors.ts';
import { REQUEST_ERRORS } from './catalogue/requestErrors.ts';
import { RISK_APPROVAL_ERRORS } from './catalogue/riskApprovalErrors.ts';
import { SCREENING_ERRORS } from './catalogue/screeningErrors.ts';
import { SUBJECT_EXPORT_ERRORS } from './catalogue/subjectExportErrors.ts';
import { SUBJECT_ERRORS } from './catalogue/subjectErrors.ts';
import { WEBHOOK_ERRORS } from './catalogue/webhookErrors.ts';

/**
 * The one catalogue of error codes. Every non-zero `code` the service answers with is defined in
 * one of its families (catalogue/), with its HTTP status and its message in English and Chinese.
 * The envelope code is `status * 100 + detail`, so 42201 is a 422.
 *
 * Messages are templates: `{field}` and other `{name}` placeholders are filled from the error's
 * params. A message names the field and the rule; it never echoes the value that was sent.
 * What to do about each code is in guidance.ts.
 */
export const ERRORS = {
  ...REQUEST_ERRORS,
  ...AUTH_ERRORS,
  ...ACCOUNT_ERRORS,
  ...APPLICATION_ERRORS,
  ...FIELD_ERRORS,
  ...IDENTITY_ERRORS,
  ...CONTACT_ERRORS,
  ...WEBHOOK_ERRORS,
  ...SCREENING_ERRORS,
  ...SUBJECT_ERRORS,
  ...SUBJECT_EXPORT_ERRORS,
  ...RISK_APPROVAL_ERRORS,
};

export type ErrorName = keyof typeof ERRORS;

export type Params = Readonly<Record<string, string | number>>;

/** Fill a message template. Unknown placeholders are left empty rather than shown raw. */
export function renderMessage(template: string, params: Params | undefined): string {
  return template.replace(/\{([a-z_]+)\}/g, (_, key: string) => {
    const value = params?.[key];
    return value === undefined ? '' : String(value);
  });
}

export type Language = 'en' | 'zh';

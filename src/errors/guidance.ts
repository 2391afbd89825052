import type { ErrorName } from './catalogue.ts';
import { ACCOUNT_GUIDANCE } from './guidance/accountGuidance.ts';
import { APPLICATION_GUIDANCE } from './guidance/applicationGuidance.ts';
import { AUTH_GUIDANCE } from './guidance/authGuidance.ts';
import { CONTACT_GUIDANCE } from './guidance/contactGuidance.ts';
import { FIELD_GUIDANCE } from './guidance/fieldGuidance.ts';
import type { Guidance } from './guidance/guidanceEntry.ts';
import { IDENTITY_GUIDANCE } from './guidance/identityGuidance.ts';
import { REQUEST_GUIDANCE } from './guidance/requestGuidance.ts';
import { RISK_APPROVAL_GUIDANCE } from './guidance/riskApprovalGuidance.ts';
import { SCREENING_GUIDANCE } from './guidance/screeningGuidance.ts';
import { SUBJECT_EXPORT_GUIDANCE } from './guidance/subjectExportGuidance.ts';
import { SUBJECT_GUIDANCE } from './guidance/subjectGuidance.ts';
import { WEBHOOK_GUIDANCE } from './guidance/webhookGuidance.ts';

/**
 * Every code's own cause and remedy, the source of docs/ERRORS.md: one family beside each of the
 * catalogue's (guidance/), and a code without them does not compile.
 */
export const GUIDANCE: { readonly [K in ErrorName]: Guidance } = {
  ...REQUEST_GUIDANCE,
  ...AUTH_GUIDANCE,
  ...ACCOUNT_GUIDANCE,
  ...APPLICATION_GUIDANCE,
  ...FIELD_GUIDANCE,
  ...IDENTITY_GUIDANCE,
  ...CONTACT_GUIDANCE,
  ...WEBHOOK_GUIDANCE,
  ...SCREENING_GUIDANCE,
  ...SUBJECT_GUIDANCE,
  ...SUBJECT_EXPORT_GUIDANCE,
  ...RISK_APPROVAL_GUIDANCE,
};

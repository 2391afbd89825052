import type { ACCOUNT_ERRORS } from '../catalogue/accountErrors.ts';
import type { Guidance } from './guidanceEntry.ts';

/** The accounts: apps, operators, roles and their administration. */
export const ACCOUNT_GUIDANCE: { readonly [K in keyof typeof ACCOUNT_ERRORS]: Guidance } = {
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
  selfChangeForbidden: {
    cause: 'An admin tried to disable or demote the account it is logged in with.',
    remedy: 'Have another admin do it, so that no one locks the last admin out.',
  },
  operatorNotFound: {
    cause: 'No operator has that user name.',
    remedy: 'Check the name (`GET /admin/v1/operators` lists them).',
  },
  appNotFound: {
    cause: 'No app has that `app_id`.',
    remedy: 'Check the id (`GET /admin/v1/apps` or `cardapply apps list`).',
  },
  mfaAlreadyEnrolled: {
    cause: 'A second enrolment was started for an operator that already has a second factor.',
    remedy: 'Have an admin reset the second factor first if the device was lost.',
  },
  mfaNotPending: {
    cause: 'An enrolment was confirmed without one having been started.',
    remedy: 'Start the enrolment, scan its code, then confirm with a code from the app.',
  },
  operatorExists: {
    cause: 'An operator with this user name already exists.',
    remedy: 'Choose another name, or change the existing operator’s role or password.',
  },
  passwordTooShort: {
    cause: 'An operator password is shorter than the minimum.',
    remedy: 'Choose a longer password (a passphrase of several words).',
  },
  passwordCommon: {
    cause: 'The new operator password is on the list of commonly used passwords.',
    remedy: 'Choose a passphrase of several uncommon words.',
  },
  passwordReused: {
    cause: 'The new operator password is one of the last ones of this operator.',
    remedy: 'Choose a password not used before.',
  },
};

/**
 * The redaction policy, one leaf module that everything below and above the domain may import:
 * which request fields identify or reach a person (encrypted at rest, never logged, masked in
 * views, refused in audit details) and which keys hold secrets or credentials.
 * `record/schema.ts` checks that every name here is a field of the request.
 */
export const SENSITIVE_FIELDS = [
  'cert_id',
  'card_no',
  'name',
  'name_en',
  'email',
  'mob_no',
  'address',
  'office_tel_no',
  'consignee',
  'consignee_mob_no',
  'consignee_address',
  'pay_pwd',
] as const;

export type SensitiveField = (typeof SENSITIVE_FIELDS)[number];

/** Keys whose values are secrets or credentials wherever they appear in a log object. */
export const SECRET_KEYS = [
  'authorization',
  'app_secret',
  'access_token',
  'password',
  'secret',
  'token',
] as const;

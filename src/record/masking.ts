import { maskCardNumber } from '../cards/cardNumber.ts';
import type { ErasedPayload } from './erasure.ts';
import type { ApplicationRequest } from './schema.ts';

/**
 * How operators see an application: every field that identifies or reaches a person is masked, the
 * payment password is never shown at all, and the rest is shown as submitted. A masked field can
 * be revealed, one at a time, by a reviewer or admin, and each reveal is audited.
 *
 * Masks keep just enough to tell records apart at a glance (a surname, the last digits of a phone,
 * the city of an address) and never the part that makes a value usable.
 */
type Mask = (value: string) => string;

const stars = (n: number) => '*'.repeat(Math.max(n, 1));

/** The first character of each word: `李*`, `L* L**`. */
export const maskName: Mask = (value) =>
  value
    .split(' ')
    .map((word) => {
      const chars = [...word];
      return chars.length === 0 ? '' : chars[0] + stars(chars.length - 1);
    })
    .join(' ');

/** First and last character only: `4****************3`. */
export const maskDocumentNumber: Mask = (value) =>
  value.length <= 4 ? stars(value.length) : value[0] + stars(value.length - 2) + value.slice(-1);

/** The last four digits: `*******8000`. */
export const maskPhone: Mask = (value) =>
  value.length <= 6 ? stars(value.length) : stars(value.length - 4) + value.slice(-4);

/** The first character of the local part and the domain: `l***@example.com`. */
export const maskEmail: Mask = (value) => {
  const at = value.lastIndexOf('@');
  if (at < 1) return stars(value.length);
  return `${value[0]}***${value.slice(at)}`;
};

/** Province, city and district of a mainland address; otherwise its first few characters. */
export const maskAddress: Mask = (value) => {
  const parts = value.split('-');
  if (parts.length >= 4) return `${parts.slice(0, 3).join('-')}-****`;
  const chars = [...value];
  return chars.slice(0, Math.min(4, Math.floor(chars.length / 3))).join('') + '****';
};

/** The host of an image URL: where it is, not what it shows. */
export const maskUrl: Mask = (value) => {
  try {
    return `${new URL(value).origin}/****`;
  } catch {
    return '****';
  }
};

/** The fields operators see masked, each with its mask; each can be revealed. */
export const MASKS = {
  name: maskName,
  name_en: maskName,
  consignee: maskName,
  cert_id: maskDocumentNumber,
  card_no: maskCardNumber,
  mob_no: maskPhone,
  office_tel_no: maskPhone,
  consignee_mob_no: maskPhone,
  email: maskEmail,
  address: maskAddress,
  office_address: maskAddress,
  consignee_address: maskAddress,
  id_card_img: maskUrl,
  id_card_back_img: maskUrl,
  passport_img: maskUrl,
  sign_applicant: maskUrl,
  pay_voucher: maskUrl,
} as const satisfies Partial<Record<keyof ApplicationRequest, Mask>>;

export type RevealableField = keyof typeof MASKS;

export const REVEALABLE_FIELDS = Object.keys(MASKS) as RevealableField[];

export function isRevealable(field: string): field is RevealableField {
  return Object.hasOwn(MASKS, field);
}

/** Never shown, not even revealed: the partner's own business, not the issuer's. */
export const HIDDEN_FIELDS = ['pay_pwd'] as const;

/** The operators' view of the submitted fields: masked, hidden, or as submitted. */
export function maskApplication(application: ApplicationRequest | ErasedPayload): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(application)) {
    if ((HIDDEN_FIELDS as readonly string[]).includes(field) || field === 'app_id' || field === 'timestamp')
      continue;
    view[field] = isRevealable(field) && typeof value === 'string' ? MASKS[field](value) : value;
  }
  return view;
}

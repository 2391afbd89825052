import { problem, type FieldProblem } from '../../../errors/problems.ts';
import { isPrivateHost } from '../../../network/publicHost.ts';
import { checkUrlShape } from '../../../network/endpointUrl.ts';

/**
 * Image URLs (`id_card_img`, `id_card_back_img`, `passport_img`, `sign_applicant`, `pay_voucher`).
 *
 * - `urlNotHttps`: not an absolute `https://` URL as the WHATWG URL standard parses it. The text must
 *   begin with `https://` itself and hold no whitespace or control characters: the URL parser would
 *   silently strip or repair those (`https:example.com`, ` https://x`, tabs inside), and the value is
 *   taken as sent.
 * - `urlCredentials`: a user name or password in the URL.
 * - `urlPrivateHost`: a host that is not a public internet name or address (network/publicHost.ts).
 *   No DNS lookup is made: a public name that resolves to a private address is for the image
 *   fetcher to refuse.
 *
 * With DOCUMENT_ALLOW_PRIVATE (tests and closed networks) http and private hosts pass, as webhook
 * receivers do with WEBHOOK_ALLOW_PRIVATE.
 */

const HTTPS_PREFIX = /^https:\/\//i;
const HTTP_PREFIX = /^https?:\/\//i;
const WHITESPACE = /\s/;

/** Whether the text begins with `https://` and holds no whitespace or control character. */
function hasCleanShape(value: string): boolean {
  if (!HTTPS_PREFIX.test(value) || WHITESPACE.test(value)) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return false;
  }
  return true;
}
export function checkImageUrl(field: string, value: string, allowPrivate = false): FieldProblem[] {
  if (allowPrivate)
    return HTTP_PREFIX.test(value) ? checkUrlShape(field, value, true) : [problem(field, 'urlNotHttps')];
  if (!hasCleanShape(value)) return [problem(field, 'urlNotHttps')];
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return [problem(field, 'urlNotHttps')];
  }
  if (url.protocol !== 'https:' || url.hostname === '') return [problem(field, 'urlNotHttps')];
  if (url.username !== '' || url.password !== '') return [problem(field, 'urlCredentials')];
  if (isPrivateHost(url.hostname)) return [problem(field, 'urlPrivateHost')];
  return [];
}

import { hash } from 'node:crypto';
import { problem, type FieldProblem } from '../../../errors/problems.ts';

/**
 * `pay_pwd`: the MD5 digest of the payment password, 32 hexadecimal digits in either case.
 *
 * Digests of trivially weak passwords are refused (`payPwdWeak`; the message does not say which
 * rule matched). The static list, hashed once at load (about 1,200 digests in a Set):
 * - the empty password;
 * - six-digit passwords: one digit six times (`000000`); ascending and descending runs, wrapping
 *   past 9 (`123456`, `234567`, `890123`, `654321`, `987654`, `210987`); a repeated pair or triple
 *   (`121212`, `123123`, `520520`); and a short list of other notorious ones (`112233`, `123321`,
 *   `147258`, `159753` ...).
 * Per applicant (a handful of digests per request): the birthday as YYMMDD, MMDDYY, DDMMYY and
 * YYYYMM; the last six characters of `cert_id` (as sent, upper and lower case); the last six digits
 * of `mob_no`.
 */

const MD5_HEX = /^[0-9a-fA-F]{32}$/;
const FORMAT = {
  rule: 'must be the MD5 digest of the payment password: 32 hexadecimal digits',
  rule_zh: '须为支付密码的 MD5 摘要：32位十六进制数字',
} as const;

/** One-shot `hash`, not `createHash`: no Hash object per digest, half the time (several per request). */
export function md5Hex(text: string): string {
  return hash('md5', text, 'hex');
}

const NOTORIOUS = [
  '112233', '113355', '111222', '111000', '123321', '123654', '147258', '147852', '147369', '258369',
  '159357', '159753', '321654', '456123', '666888', '888666', '168168', '520131', '521314', '741852',
  '789456', '963852', '100200', '123000', '000123', '654123',
]; // prettier-ignore

/** The six-digit passwords of the static list (plain text: for tests and generators). */
export function weakSixDigitPasswords(): ReadonlySet<string> {
  const weak = new Set<string>(NOTORIOUS);
  const digit = (n: number) => String(((n % 10) + 10) % 10);
  for (let start = 0; start < 10; start++) {
    let up = '';
    let down = '';
    for (let i = 0; i < 6; i++) {
      up += digit(start + i);
      down += digit(start - i);
    }
    weak.add(up);
    weak.add(down);
  }
  for (let n = 0; n < 100; n++) weak.add(String(n).padStart(2, '0').repeat(3)); // incl. 000000 ... 999999
  for (let n = 0; n < 1000; n++) weak.add(String(n).padStart(3, '0').repeat(2));
  return weak;
}

const WEAK_DIGESTS: ReadonlySet<string> = new Set(['', ...weakSixDigitPasswords()].map(md5Hex));

/** The passwords derived from the applicant's own data. */
export function personalPasswords(input: PayPasswordInput): string[] {
  const out: string[] = [];
  const b = input.birthday;
  if (b !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(b)) {
    const yyyy = b.slice(0, 4);
    const yy = b.slice(2, 4);
    const mm = b.slice(5, 7);
    const dd = b.slice(8, 10);
    out.push(yy + mm + dd, mm + dd + yy, dd + mm + yy, yyyy + mm);
  }
  if (input.cert_id !== undefined && input.cert_id.length >= 6) {
    const last = input.cert_id.slice(-6);
    out.push(last);
    if (last.toUpperCase() !== last) out.push(last.toUpperCase());
    if (last.toLowerCase() !== last) out.push(last.toLowerCase());
  }
  if (input.mob_no !== undefined && /^\d{6,}$/.test(input.mob_no)) out.push(input.mob_no.slice(-6));
  return out;
}

export interface PayPasswordInput {
  readonly pay_pwd: string;
  /** Each left out when it failed an earlier check. */
  readonly birthday?: string | undefined;
  readonly cert_id?: string | undefined;
  readonly mob_no?: string | undefined;
}

export function isWeakDigest(input: PayPasswordInput): boolean {
  const digest = input.pay_pwd.toLowerCase();
  if (WEAK_DIGESTS.has(digest)) return true;
  return personalPasswords(input).some((p) => md5Hex(p) === digest);
}

export function checkPayPassword(input: PayPasswordInput): FieldProblem[] {
  if (!MD5_HEX.test(input.pay_pwd)) return [problem('pay_pwd', 'fieldFormat', FORMAT)];
  return isWeakDigest(input) ? [problem('pay_pwd', 'payPwdWeak')] : [];
}

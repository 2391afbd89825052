import { randomInt } from 'node:crypto';
import { problem, type FieldProblem } from '../errors/problems.ts';

/**
 * Card numbers (PAN): Luhn check digits, generation within a product's BIN, masking, and the checks
 * on a number the partner asks for. Uniqueness is the store's job (a unique blind index); this module
 * only draws numbers that are well formed and unpredictable.
 */

/** What this module needs of a card product: its BIN (6 to 8 digits) and its length (12 to 19). */
export interface CardProductShape {
  readonly bin: string;
  readonly length: number;
}

const DIGITS = /^[0-9]+$/;
const BIN = /^[0-9]{6,8}$/;

/** Throws when a product's BIN or length is out of range; configuration should call this at start. */
export function assertCardProduct(product: CardProductShape): void {
  if (!BIN.test(product.bin)) throw new Error('card product: BIN must be 6 to 8 digits');
  if (!Number.isInteger(product.length) || product.length < 12 || product.length > 19) {
    throw new Error('card product: length must be an integer from 12 to 19');
  }
  if (product.length - product.bin.length < 2) {
    throw new Error('card product: length must leave room for at least one digit after the BIN');
  }
}

/** The Luhn sum of the digits of `digits`, doubling every second digit counted from the right end. */
function luhnSum(digits: string, doubleRightmost: boolean): number {
  let sum = 0;
  let double = doubleRightmost;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum;
}

/** The digit that, appended to `partial`, makes it Luhn-valid. Throws unless `partial` is digits. */
export function luhnCheckDigit(partial: string): string {
  if (!DIGITS.test(partial)) throw new Error('luhnCheckDigit: expects a non-empty string of digits');
  return String((10 - (luhnSum(partial, true) % 10)) % 10);
}

/** True when `number` is all ASCII digits (at least two) and its last digit is the Luhn check digit. */
export function isLuhnValid(number: string): boolean {
  if (number.length < 2 || !DIGITS.test(number)) return false;
  return luhnSum(number, false) % 10 === 0;
}

/**
 * A fresh card number: the BIN, then digits from the CSPRNG, then the Luhn check digit. The middle
 * digits are one uniform draw from [0, 10^k) (k <= 12 < the 2^48 range `randomInt` allows), so there
 * is no modulo bias.
 */
export function generateCardNumber(product: CardProductShape): string {
  assertCardProduct(product);
  const k = product.length - product.bin.length - 1;
  const partial = product.bin + decimalDigits(randomInt(0, 10 ** k), k);
  return partial + luhnCheckDigit(partial);
}

const DIGIT_STRINGS = '0123456789'.split('');

/**
 * `value` as `width` decimal digits, leading zeros kept, written out digit by digit. Not with
 * `String(value)`: V8 keeps what that returns in its number-to-string cache (thousands of
 * entries under the service's flags) until another number takes its place, so every drawn number's
 * digits outlived its request by seconds, promoted to the old generation on the way (about 30
 * bytes a submission; cardNumber.test.ts).
 */
function decimalDigits(value: number, width: number): string {
  let digits = '';
  for (let rest = value, i = 0; i < width; i++, rest = Math.floor(rest / 10))
    digits = DIGIT_STRINGS[rest % 10]! + digits;
  return digits;
}

/**
 * The first 6 and last 4 digits, every other character `*`. Anything too short to keep 6 + 4 and still
 * hide something (10 characters or fewer) is masked entirely rather than shown.
 */
export function maskCardNumber(number: string): string {
  if (number.length <= 10) return '*'.repeat(number.length);
  return number.slice(0, 6) + '*'.repeat(number.length - 10) + number.slice(-4);
}

/**
 * The checks on a `card_no` the partner asks for, in order: digits of the product's length, the
 * product's BIN, the Luhn check digit. Only the first failure is reported (one problem per field).
 * Whether the number is free is checked against the store, not here.
 */
export function checkRequestedCardNo(cardNo: string, product: CardProductShape): FieldProblem[] {
  const field = 'card_no';
  if (cardNo.length !== product.length || !DIGITS.test(cardNo)) {
    return [problem(field, 'cardNoFormat', { length: product.length })];
  }
  if (!cardNo.startsWith(product.bin)) return [problem(field, 'cardNoBin', { bin: product.bin })];
  if (!isLuhnValid(cardNo)) return [problem(field, 'cardNoLuhn')];
  return [];
}

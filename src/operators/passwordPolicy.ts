import type { Kysely } from 'kysely';
import { verifyPassword } from '../crypto/passwordHash.ts';
import { problem, type FieldProblem } from '../errors/problems.ts';
import type { Database } from '../store/tables.ts';
import { earlierPasswordHashes, insertPasswordHistory } from './operatorRepository.ts';

/**
 * What an operator's password must be (PCI DSS v4 8.3.6, 8.3.7; NIST SP 800-63B): at least 12
 * characters, not on a list of common passwords, and not one of the operator's last four.
 *
 * The common list is the 49,000 passwords of `@zxcvbn-ts/language-common` (maintained, from
 * breach corpora), compared without regard to case. It loads on the first check, not at start.
 */
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;
/** The new password must differ from this many: the current one and the three before it. */
export const PASSWORD_HISTORY = 4;

let common: Promise<ReadonlySet<string>> | undefined;

function commonPasswords(): Promise<ReadonlySet<string>> {
  common ??= import('@zxcvbn-ts/language-common').then(
    (m) => new Set(m.dictionary['passwords-common'].map((p) => p.toLowerCase())),
  );
  return common;
}

export async function isCommonPassword(password: string): Promise<boolean> {
  const list = await commonPasswords();
  const folded = password.normalize('NFKC').toLowerCase();
  return list.has(folded) || list.has(folded.replace(/\s+/g, ''));
}

/** Length and the common list: what can be said of a password without its operator's history. */
export async function passwordProblems(password: string, field = 'password'): Promise<FieldProblem[]> {
  if (password.length < MIN_PASSWORD_LENGTH) {
    return [problem(field, 'passwordTooShort', { min: MIN_PASSWORD_LENGTH })];
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    return [problem(field, 'fieldTooLong', { max: MAX_PASSWORD_LENGTH })];
  }
  if (await isCommonPassword(password)) return [problem(field, 'passwordCommon')];
  return [];
}

/** A problem when `password` is the operator's current one or one of the three before it. */
export async function reuseProblems(
  db: Kysely<Database>,
  username: string,
  currentHash: string,
  password: string,
  field = 'password',
): Promise<FieldProblem[]> {
  const earlier = await earlierPasswordHashes(db, username, PASSWORD_HISTORY - 1);
  for (const hash of [currentHash, ...earlier]) {
    if (await verifyPassword(password, hash)) {
      return [problem(field, 'passwordReused', { count: PASSWORD_HISTORY })];
    }
  }
  return [];
}

/** Keeps the replaced hash, so that the next changes can refuse it; older ones are not needed. */
export async function rememberPassword(
  db: Kysely<Database>,
  username: string,
  replacedHash: string,
  now: number,
): Promise<void> {
  await insertPasswordHistory(db, { username, password_hash: replacedHash, created_at: now });
}

import type * as OtpAuth from 'otpauth';
import type encodeQR from 'qr';
import type { Kysely } from 'kysely';
import { actorName, type ChangedBy } from '../audit/actor.ts';
import { recordAudit } from '../audit/auditTrail.ts';
import type { ServiceContext } from '../context.ts';
import { hashSecret } from '../crypto/secrets.ts';
import { randomBytes } from 'node:crypto';
import { ServiceError } from '../errors/serviceError.ts';
import type { Database } from '../store/tables.ts';
import { findOperator, revokeSessionsOf, widenSessionScope } from './operatorRepository.ts';
import {
  advanceLastStep,
  confirmFactor,
  deleteFactor,
  findFactor,
  listFactors,
  replaceRecoveryCodes,
  replaceWithPendingFactor,
  useRecoveryCode,
} from './secondFactorRepository.ts';

/**
 * The operators' second factor (PCI DSS v4 8.4.2): TOTP (RFC 6238, HMAC-SHA1, 6 digits, 30 s),
 * computed by the `otpauth` library. Enrolment hands out a secret (an `otpauth://` URI and its QR
 * code, drawn here as SVG: nothing leaves the service) that becomes active once a code of it is
 * confirmed; then ten one-time recovery codes are shown once and stored as SHA-256 hashes.
 *
 * A code is accepted one step either side of now (clock drift), and only for a time step later than
 * the last one accepted: a code seen once, on the wire or over a shoulder, cannot be used again.
 */
export const TOTP_PERIOD_SECONDS = 30;
const TOTP_WINDOW = 1;
const ISSUER = 'cardapply';
export const RECOVERY_CODE_COUNT = 10;

export function totpAad(username: string): string {
  return `operator-totp:${username}`;
}

/**
 * otpauth and qr: loaded on the first second-factor step, not with the service
 * (docs/PERFORMANCE.md, "Loaded when used").
 */
interface TotpLibraries {
  otpauth: typeof OtpAuth;
  encodeQR: typeof encodeQR;
}
let libraries: Promise<TotpLibraries> | undefined;

function totpLibraries(): Promise<TotpLibraries> {
  libraries ??= Promise.all([import('otpauth'), import('qr')]).then(([otpauth, qr]) => ({
    otpauth,
    encodeQR: qr.default,
  }));
  return libraries;
}

function totpOf(lib: TotpLibraries, username: string, secretBase32: string): OtpAuth.TOTP {
  return new lib.otpauth.TOTP({
    issuer: ISSUER,
    label: username,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: lib.otpauth.Secret.fromBase32(secretBase32),
  });
}

export interface Enrolment {
  /** The base32 secret, for typing into an authenticator by hand. */
  secret: string;
  otpauth_uri: string;
  /** The URI as a QR code, an SVG document. */
  qr_svg: string;
}

/** Whether the operator has a confirmed second factor. */
export async function hasSecondFactor(db: Kysely<Database>, username: string): Promise<boolean> {
  const row = await findFactor(db, username);
  return row !== undefined && row.confirmed_at !== null;
}

export type SecondFactorState = 'none' | 'pending' | 'active';

/**
 * An operator's second factor as the operator sees it: none, pending (started, not confirmed: the
 * same secret again, so that a reload or a detour does not lose what was scanned; it stays stored
 * encrypted until confirmed or replaced on request) or active.
 */
export async function secondFactorOf(
  ctx: ServiceContext,
  username: string,
): Promise<{ state: SecondFactorState; enrolment?: Enrolment }> {
  const row = await findFactor(ctx.store.db, username);
  if (row === undefined) return { state: 'none' };
  if (row.confirmed_at !== null) return { state: 'active' };
  return {
    state: 'pending',
    enrolment: enrolmentOf(
      await totpLibraries(),
      username,
      ctx.keyRing.decrypt(row.secret_enc, totpAad(username)),
    ),
  };
}

/** Every operator's second factor state, for the admins' list. */
export async function secondFactorStates(db: Kysely<Database>): Promise<Map<string, SecondFactorState>> {
  const rows = await listFactors(db);
  return new Map(rows.map((row) => [row.username, row.confirmed_at === null ? 'pending' : 'active']));
}

/** Step 1: a new secret, pending until confirmed. Replaces an unconfirmed one; refused when one is active. */
export async function startEnrolment(
  ctx: ServiceContext,
  username: string,
  by: ChangedBy,
): Promise<Enrolment> {
  const lib = await totpLibraries();
  const secret = new lib.otpauth.Secret({ size: 20 }).base32;
  const secretEnc = ctx.keyRing.encrypt(secret, totpAad(username));
  const now = ctx.now();
  await ctx.store.transaction(async (trx) => {
    if ((await findOperator(trx, username)) === undefined) throw new ServiceError('operatorNotFound');
    if (await hasSecondFactor(trx, username)) throw new ServiceError('mfaAlreadyEnrolled');
    await replaceWithPendingFactor(trx, {
      username,
      secret_enc: secretEnc,
      key_id: ctx.keyRing.keyIdOf(secretEnc),
      created_at: now,
    });
    await recordAudit(trx, {
      actor: actorName(by.actor),
      action: 'operator.mfa_enrol_start',
      targetType: 'operator',
      targetId: username,
      source: by.source,
      at: now,
    });
  });
  return enrolmentOf(lib, username, secret);
}

function enrolmentOf(lib: TotpLibraries, username: string, secret: string): Enrolment {
  const uri = totpOf(lib, username, secret).toString();
  // With a size of its own, so that it also renders as an <img> (an SVG without one has none).
  const svg = lib
    .encodeQR(uri, 'svg', { ecc: 'medium', border: 2 })
    .replace('<svg ', '<svg width="200" height="200" ');
  return { secret, otpauth_uri: uri, qr_svg: svg };
}

/** A recovery code: 80 random bits as 16 base32 characters in groups of four. */
function newRecoveryCode(): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(16);
  let code = '';
  for (let i = 0; i < 16; i++) code += alphabet[bytes[i]! % 32];
  return code.match(/.{4}/g)!.join('-');
}

function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

/**
 * Step 2: a code of the pending secret makes it active and answers the recovery codes (shown only
 * now). `sessionHash`, when the operator confirms in a session limited to enrolment, lifts the
 * limit of that session: it has now shown both factors.
 */
export async function confirmEnrolment(
  ctx: ServiceContext,
  username: string,
  code: string,
  by: ChangedBy,
  sessionHash?: string,
): Promise<{ recovery_codes: string[] }> {
  const now = ctx.now();
  const lib = await totpLibraries();
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await ctx.store.transaction(async (trx) => {
    const row = await findFactor(trx, username);
    if (row === undefined || row.confirmed_at !== null) throw new ServiceError('mfaNotPending');
    const step = acceptedStep(lib, ctx, username, row.secret_enc, code, now, row.last_step);
    if (step === null) throw new ServiceError('mfaEnrolmentCodeWrong');
    await confirmFactor(trx, username, now, step);
    await replaceRecoveryCodes(
      trx,
      username,
      codes.map((c) => hashSecret(normalizeRecoveryCode(c))),
      now,
    );
    if (sessionHash !== undefined) await widenSessionScope(trx, sessionHash, username);
    await recordAudit(trx, {
      actor: actorName(by.actor),
      action: 'operator.mfa_enrol',
      targetType: 'operator',
      targetId: username,
      details: { recovery_codes: RECOVERY_CODE_COUNT },
      source: by.source,
      at: now,
    });
  });
  return { recovery_codes: codes };
}

/** The time step `code` belongs to when it is valid now and later than `lastStep`; else null. */
function acceptedStep(
  lib: TotpLibraries,
  ctx: ServiceContext,
  username: string,
  secretEnc: string,
  code: string,
  now: number,
  lastStep: number | null,
): number | null {
  if (!/^[0-9]{6}$/.test(code)) return null;
  const secret = ctx.keyRing.decrypt(secretEnc, totpAad(username));
  const delta = totpOf(lib, username, secret).validate({ token: code, timestamp: now, window: TOTP_WINDOW });
  if (delta === null) return null;
  const step = Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}

export type SecondFactorCheck = 'none' | 'missing' | 'invalid' | 'totp' | 'recovery_code';

/**
 * The second factor of a sign-in: `none` when the operator has none, `missing` when one is needed
 * and none was sent, `invalid`, or which one was accepted (and is now used up).
 */
export async function checkSecondFactor(
  ctx: ServiceContext,
  db: Kysely<Database>,
  username: string,
  sent: { otp?: string | undefined; recovery_code?: string | undefined },
  now: number,
): Promise<SecondFactorCheck> {
  const row = await findFactor(db, username);
  if (row === undefined || row.confirmed_at === null) return 'none';
  if (sent.otp !== undefined) {
    const step = acceptedStep(
      await totpLibraries(),
      ctx,
      username,
      row.secret_enc,
      sent.otp,
      now,
      row.last_step,
    );
    if (step === null) return 'invalid';
    // Conditional, so that two sign-ins racing with one code cannot both win.
    return (await advanceLastStep(db, username, step)) ? 'totp' : 'invalid';
  }
  if (sent.recovery_code !== undefined) {
    const hash = hashSecret(normalizeRecoveryCode(sent.recovery_code));
    return (await useRecoveryCode(db, username, hash, now)) ? 'recovery_code' : 'invalid';
  }
  return 'missing';
}

/** An admin removes an operator's factor (lost phone): its sessions end; it enrols again at sign-in. */
export async function resetSecondFactor(ctx: ServiceContext, username: string, by: ChangedBy): Promise<void> {
  const now = ctx.now();
  await ctx.store.transaction(async (trx) => {
    if ((await findOperator(trx, username)) === undefined) throw new ServiceError('operatorNotFound');
    await deleteFactor(trx, username);
    await revokeSessionsOf(trx, username, now);
    await recordAudit(trx, {
      actor: actorName(by.actor),
      action: 'operator.mfa_reset',
      targetType: 'operator',
      targetId: username,
      source: by.source,
      at: now,
    });
  });
}

import type { Kysely } from 'kysely';
import { actorName, type ChangedBy } from '../../audit/actor.ts';
import { recordAudit } from '../../audit/auditTrail.ts';
import { findApplication } from '../../record/applicationRepository.ts';
import {
  deleteClaim,
  findClaim,
  liveClaims,
  putClaim,
  type ClaimRow,
} from '../../record/reviewClaimRepository.ts';
import { isSerialNumber } from '../../record/serialNumber.ts';
import type { ServiceContext } from '../../context.ts';
import { ServiceError } from '../../errors/serviceError.ts';
import type { Database } from '../../store/tables.ts';
import { findOperator } from '../../operators/operatorRepository.ts';
import { takeReveal, type RevealPurpose } from '../rules/revealPolicy.ts';
import { hasRole, type Role } from '../../access/roles.ts';
import { openApplication } from '../../record/sealedPayload.ts';
import { DOCUMENT_FIELDS } from '../../events/documentOutcomes.ts';

/**
 * Review claims: a reviewer claims an application in review, so that two do not work on one and
 * everyone sees who holds it. A claim lapses after `REVIEW_CLAIM_SECONDS` unless claimed again; an
 * admin can hand it to another reviewer. The holder may open the application's identity fields and
 * document images for review in one audited action with one purpose (PCI DSS 3.3, 3.4.1): instead
 * of a dozen reveals, one row that says who saw what, when and why. The full card number is not
 * part of it: it stays a reveal of its own. Every claim, release, reassignment and opening is one
 * audit row.
 */
export const REVIEWED_STATUS = 'IN_REVIEW';
/** What opening for review shows: the identity fields and images, never the card number. */
export const REVIEW_FIELDS = [
  'name',
  'name_en',
  'cert_id',
  'mob_no',
  'email',
  'address',
  'office_tel_no',
  'office_address',
  'consignee',
  'consignee_mob_no',
  'consignee_address',
  ...DOCUMENT_FIELDS,
] as const;

export interface ClaimView {
  busi_water_no: string;
  username: string;
  claimed_at: number;
  expires_at: number;
}

type Operator = { username: string; role: Role };

const view = (row: ClaimRow): ClaimView => ({
  busi_water_no: row.busi_water_no,
  username: row.username,
  claimed_at: Math.floor(row.claimed_at / 1000),
  expires_at: Math.floor(row.expires_at / 1000),
});

/** A claim of `username` from `at` on, for a claim period. */
function newClaim(ctx: ServiceContext, serial: string, username: string, at: number): ClaimRow {
  return {
    busi_water_no: serial,
    username,
    claimed_at: at,
    expires_at: at + ctx.config.operators.claimSeconds * 1000,
  };
}

const isLive = (row: ClaimRow | undefined, now: number): row is ClaimRow =>
  row !== undefined && row.expires_at > now;

async function liveClaim(db: Kysely<Database>, serial: string, now: number) {
  const row = await findClaim(db, serial);
  return isLive(row, now) ? row : undefined;
}

async function inReview(db: Kysely<Database>, serial: string) {
  if (!isSerialNumber(serial)) throw new ServiceError('applicationNotFound');
  const row = await findApplication(db, serial);
  if (row === undefined) throw new ServiceError('applicationNotFound');
  if (row.status !== REVIEWED_STATUS) {
    throw new ServiceError('claimNotPossible', { params: { status: row.status } });
  }
  return row;
}

function heldBy(holder: { username: string; expires_at: number }): ServiceError {
  return new ServiceError('applicationClaimed', {
    params: { holder: holder.username },
    data: { holder: holder.username, expires_at: Math.floor(holder.expires_at / 1000) },
  });
}

async function audit(
  db: Kysely<Database>,
  by: ChangedBy,
  action: 'application.claim' | 'application.release' | 'application.reassign' | 'application.review_open',
  serial: string,
  details: Record<string, unknown> | null,
  at: number,
) {
  await recordAudit(db, {
    actor: actorName(by.actor),
    action,
    targetType: 'application',
    targetId: serial,
    details,
    source: by.source,
    at,
  });
}

/** Claims (or renews) an application in review for the operator; 409 while someone else holds it. */
export async function claimApplication(
  ctx: ServiceContext,
  serial: string,
  operator: Operator,
  by: ChangedBy,
): Promise<ClaimView> {
  const now = ctx.now();
  return ctx.store.transaction(async (trx) => {
    await inReview(trx, serial);
    const current = await liveClaim(trx, serial, now);
    if (current !== undefined && current.username !== operator.username) throw heldBy(current);
    const row = { ...newClaim(ctx, serial, operator.username, now), claimed_at: current?.claimed_at ?? now };
    await putClaim(trx, row);
    await audit(
      trx,
      by,
      'application.claim',
      serial,
      { renewed: current !== undefined, expires_at: Math.floor(row.expires_at / 1000) },
      now,
    );
    return view(row);
  });
}

/** Ends a claim: its holder, or an admin. */
export async function releaseClaim(
  ctx: ServiceContext,
  serial: string,
  operator: Operator,
  by: ChangedBy,
): Promise<{ released: true }> {
  const now = ctx.now();
  return ctx.store.transaction(async (trx) => {
    const current = await liveClaim(trx, serial, now);
    if (current === undefined) throw new ServiceError('claimNotHeld');
    if (current.username !== operator.username && !hasRole(operator.role, 'admin')) throw heldBy(current);
    await deleteClaim(trx, serial);
    await audit(trx, by, 'application.release', serial, { holder: current.username }, now);
    return { released: true as const };
  });
}

/** An admin hands an application in review to another reviewer (a fresh claim period). */
export async function reassignClaim(
  ctx: ServiceContext,
  serial: string,
  username: string,
  by: ChangedBy,
): Promise<ClaimView> {
  const now = ctx.now();
  return ctx.store.transaction(async (trx) => {
    await inReview(trx, serial);
    const target = await findOperator(trx, username);
    if (target === undefined) throw new ServiceError('operatorNotFound');
    if (target.disabled === 1 || !hasRole(target.role, 'reviewer')) {
      throw new ServiceError('forbidden', {
        params: {
          reason: `${username} cannot review (a reviewer or admin is required)`,
          reason_zh: `${username} 无审核权限（需要 reviewer 或 admin）`,
        },
      });
    }
    const previous = await liveClaim(trx, serial, now);
    const row = newClaim(ctx, serial, username, now);
    await putClaim(trx, row);
    await audit(
      trx,
      by,
      'application.reassign',
      serial,
      { from: previous?.username ?? null, to: username },
      now,
    );
    return view(row);
  });
}

/** A move of an application, as its review claim sees it: `operator` is null for anyone else. */
export interface ClaimMove {
  serial: string;
  from: string;
  to: string;
  operator: string | null;
  at: number;
}

/**
 * The claim follows the application's moves; the move carries it out inside its own transaction
 * (transitionApplication.ts): an operator who starts a review holds it from then on (`start`, when
 * the operator is known: a test fixture's made-up actor holds none); a move out of review (a
 * decision, a partner's cancel) ends the claim (`end`), and an operator's decision over someone
 * else's live claim is refused (`refuseOverClaim`, 409), as is opening it.
 */
export function claimOnMove(
  ctx: ServiceContext,
  move: ClaimMove,
): { kind: 'end' } | { kind: 'start'; claim: ClaimRow } | { kind: 'none' } {
  if (move.from === REVIEWED_STATUS && move.to !== REVIEWED_STATUS) return { kind: 'end' };
  if (move.to === REVIEWED_STATUS && move.operator !== null)
    return { kind: 'start', claim: newClaim(ctx, move.serial, move.operator, move.at) };
  return { kind: 'none' };
}

/** Refuses an operator's move that ends the claim while someone else holds it (`claim` as stored). */
export function refuseOverClaim(claim: ClaimRow | undefined, move: ClaimMove): void {
  if (isLive(claim, move.at) && move.operator !== null && claim.username !== move.operator)
    throw heldBy(claim);
}

/** Live claims, for the queue: who holds what, until when. */
export async function listClaims(ctx: ServiceContext): Promise<ClaimView[]> {
  return (await liveClaims(ctx.store.db, ctx.now())).map(view);
}

/**
 * The holder opens the application's identity fields and images for review: one audited action,
 * one purpose, counted as one reveal towards the hourly allowance.
 */
export async function openForReview(
  ctx: ServiceContext,
  serial: string,
  operator: Operator,
  purpose: RevealPurpose,
  by: ChangedBy,
): Promise<{ busi_water_no: string; fields: Record<string, unknown>; claim_expires_at: number }> {
  const now = ctx.now();
  return ctx.store.transaction(async (trx) => {
    const row = await inReview(trx, serial);
    const claim = await liveClaim(trx, serial, now);
    if (claim === undefined || claim.username !== operator.username) {
      if (claim !== undefined) throw heldBy(claim);
      throw new ServiceError('claimNotHeld');
    }
    await takeReveal(ctx, trx, operator.username, purpose);
    const application: Record<string, unknown> = openApplication(
      ctx.keyRing,
      row.busi_water_no,
      row.payload_enc,
    );
    const fields: Record<string, unknown> = {};
    for (const field of REVIEW_FIELDS)
      if (application[field] !== undefined) fields[field] = application[field];
    await audit(
      trx,
      by,
      'application.review_open',
      serial,
      { fields: Object.keys(fields), purpose: purpose.code, purpose_text: purpose.text },
      now,
    );
    return { busi_water_no: serial, fields, claim_expires_at: Math.floor(claim.expires_at / 1000) };
  });
}

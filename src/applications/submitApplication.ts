import type { Transaction } from 'kysely';
import type { Caller } from '../apps/credentials.ts';
import { generateCardNumber, maskCardNumber } from '../cards/cardNumber.ts';
import type { ServiceContext } from '../context.ts';
import { ServiceError } from '../errors/serviceError.ts';
import { recordEvent } from '../events/outbox.ts';
import { isUniqueViolation, violatedConstraint } from '../store/errors.ts';
import type { Database } from '../store/tables.ts';
import {
  findActiveByCertHash,
  insertApplication,
  insertTransition,
  isCardNumberTaken,
} from './applicationRepository.ts';
import { eventTypeFor, INITIAL_STATUS } from './lifecycle.ts';
import type { ApplicationRequest } from './schema.ts';
import { newSerialNumber } from './serialNumber.ts';
import { validateApplication, type ValidationContext } from './validateApplication.ts';

/** How often a randomly drawn card number may collide before we give up (1 in 10^9 each). */
const CARD_DRAW_ATTEMPTS = 5;

/** A randomly drawn card number is already taken: draw another. */
class DrawnCardNumberTaken extends Error {}

export function validationContext(ctx: ServiceContext): ValidationContext {
  return { now: new Date(ctx.now()), minAge: ctx.config.minAge, codes: ctx.codes, card: ctx.config.card };
}

/** The document an application is for, as one keyed hash: equal documents, equal hashes. */
export function certHash(
  ctx: ServiceContext,
  application: Pick<ApplicationRequest, 'cert_type' | 'cert_id'>,
): string {
  return ctx.keyRing.blindIndex('cert', `${application.cert_type}:${application.cert_id.toUpperCase()}`);
}

/**
 * Submit an application: validate, assign a serial and a card number, and store the encrypted
 * application with its first history row and its `application.submitted` event in one
 * transaction. Returns only after the commit: acknowledged means durable.
 */
export async function submitApplication(
  ctx: ServiceContext,
  caller: Caller,
  body: unknown,
): Promise<{ busi_water_no: string }> {
  const application = validateApplication(body, validationContext(ctx));
  const requested = application.card_no;
  const documentHash = certHash(ctx, application);

  for (let attempt = 1; ; attempt++) {
    const cardNo = requested ?? generateCardNumber(ctx.config.card);
    try {
      return await ctx.store.transaction((trx) =>
        storeSubmission(
          ctx,
          trx,
          caller,
          { ...application, card_no: cardNo },
          documentHash,
          requested !== undefined,
        ),
      );
    } catch (error) {
      if (error instanceof DrawnCardNumberTaken) {
        if (attempt >= CARD_DRAW_ATTEMPTS) throw error;
        continue;
      }
      if (!isUniqueViolation(error)) throw error;
      // Another submission won a race that the checks inside the transaction could not see
      // (PostgreSQL, several instances). Name the conflict by the constraint it broke.
      const constraint = violatedConstraint(error);
      if (constraint === 'applications_active_cert_hash_key') {
        throw await duplicateError(ctx, caller, documentHash);
      }
      if (constraint === 'applications_card_no_hash_key' && requested !== undefined) {
        throw new ServiceError('cardNoTaken');
      }
      if (attempt >= CARD_DRAW_ATTEMPTS) throw error;
    }
  }
}

async function duplicateError(
  ctx: ServiceContext,
  caller: Caller,
  documentHash: string,
): Promise<ServiceError> {
  const existing = await findActiveByCertHash(ctx.store.db, documentHash);
  return duplicateOf(caller, existing);
}

/** The serial is shown only to the app that owns it: another app's application stays invisible. */
function duplicateOf(
  caller: Caller,
  existing: { busi_water_no: string; app_id: string } | undefined,
): ServiceError {
  const own = existing !== undefined && existing.app_id === caller.appId;
  return new ServiceError(
    'duplicateApplication',
    own ? { data: { busi_water_no: existing.busi_water_no } } : {},
  );
}

async function storeSubmission(
  ctx: ServiceContext,
  trx: Transaction<Database>,
  caller: Caller,
  application: ApplicationRequest & { card_no: string },
  documentHash: string,
  cardRequested: boolean,
): Promise<{ busi_water_no: string }> {
  const existing = await findActiveByCertHash(trx, documentHash);
  if (existing !== undefined) throw duplicateOf(caller, existing);

  const cardHash = ctx.keyRing.blindIndex('card', application.card_no);
  if (await isCardNumberTaken(trx, cardHash)) {
    if (cardRequested) throw new ServiceError('cardNoTaken');
    throw new DrawnCardNumberTaken();
  }

  const now = ctx.now();
  const busiWaterNo = newSerialNumber(now);
  const masked = maskCardNumber(application.card_no);
  const payload = ctx.keyRing.encrypt(JSON.stringify(application), busiWaterNo);
  await insertApplication(trx, {
    busi_water_no: busiWaterNo,
    app_id: caller.appId,
    status: INITIAL_STATUS,
    status_reason: null,
    cert_type: application.cert_type,
    cert_hash: documentHash,
    active_cert_hash: documentHash,
    card_no_hash: cardHash,
    card_no_masked: masked,
    payload_enc: payload,
    key_id: ctx.keyRing.keyIdOf(payload),
    version: 1,
    created_at: now,
    updated_at: now,
  });
  await insertTransition(trx, {
    busi_water_no: busiWaterNo,
    from_status: null,
    to_status: INITIAL_STATUS,
    actor: `caller:${caller.appId}`,
    reason: null,
    details: null,
    at: now,
  });
  await recordEvent(trx, {
    appId: caller.appId,
    type: eventTypeFor(INITIAL_STATUS),
    payload: {
      busi_water_no: busiWaterNo,
      status: INITIAL_STATUS,
      previous_status: null,
      reason: null,
      card_no_masked: masked,
    },
    at: now,
  });
  return { busi_water_no: busiWaterNo };
}

import type { Transaction } from 'kysely';
import type { Caller } from '../callers/credentials.ts';
import { generateCardNumber, maskCardNumber } from '../cards/cardNumber.ts';
import type { ServiceContext } from '../context.ts';
import { ServiceError } from '../errors/serviceError.ts';
import { firstEventRow } from '../events/outbox.ts';
import type { IdempotentCompletion } from '../idempotency/idempotencyKeys.ts';
import { isUniqueViolation, violatedConstraint } from '../store/errors.ts';
import type { Database } from '../store/tables.ts';
import {
  findActiveByCertHash,
  findActiveByExternalId,
  insertSubmission,
  insertSubmissionAlone,
  isCardNumberTaken,
  type SubmissionRows,
} from './applicationRepository.ts';
import { canonicalDocumentNumber, readApplication } from './checks/canonical.ts';
import { documentHash } from './documentHash.ts';
import { findLegacyDuplicate } from './documentRekey.ts';
import { eventTypeFor, INITIAL_STATUS } from './lifecycle.ts';
import type { ApplicationRequest } from './schema.ts';
import { newSerialNumber } from './serialNumber.ts';
import { validateApplication, type ValidationContext } from './validateApplication.ts';

/** How often a randomly drawn card number may collide before we give up (1 in 10^9 each). */
const CARD_DRAW_ATTEMPTS = 5;

/** A randomly drawn card number is already taken: draw another. */
class DrawnCardNumberTaken extends Error {}

export function validationContext(ctx: ServiceContext): ValidationContext {
  return {
    now: new Date(ctx.now()),
    timeZone: ctx.config.businessTimeZone,
    minAge: ctx.config.minAge,
    codes: ctx.codes,
    card: ctx.config.card,
  };
}

/** The document an application is for, as one keyed hash of its canonical number: equal documents, equal hashes. */
export function certHash(ctx: ServiceContext, application: ApplicationRequest): string {
  const canonical = readApplication(application).cert_id ?? canonicalDocumentNumber(application.cert_id);
  return documentHash(ctx.keyRing, application.cert_type, canonical);
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
  options: { idempotency?: IdempotentCompletion | undefined } = {},
): Promise<{ busi_water_no: string }> {
  const application = validateApplication(body, validationContext(ctx));
  const requested = application.card_no;
  const documentHash = certHash(ctx, application);
  // Applications stored before the canonical hash, until they are re-keyed (documentRekey.ts).
  const legacy = await findLegacyDuplicate(ctx, application);
  if (legacy !== undefined) throw duplicateOf(caller, legacy);

  for (let attempt = 1; ; attempt++) {
    const cardNo = requested ?? generateCardNumber(ctx.config.card);
    const rows = submissionRows(ctx, caller, { ...application, card_no: cardNo }, documentHash);
    const result = { busi_water_no: rows.application.busi_water_no };
    try {
      if (ctx.store.kind === 'postgres' && options.idempotency === undefined) {
        // One statement is its own transaction: one round trip, durable when it returns.
        await insertSubmissionAlone(ctx.store, rows);
      } else {
        await ctx.store.transaction(async (trx) => {
          if (ctx.store.kind === 'sqlite') await checkConflicts(trx, caller, rows, requested !== undefined);
          await insertSubmission(ctx.store, trx, rows);
          // In the same transaction: acknowledged and replayable are one commit.
          await options.idempotency?.complete(trx, result);
        });
      }
      ctx.metrics.onSubmitted();
      return result;
    } catch (error) {
      if (error instanceof DrawnCardNumberTaken) {
        if (attempt >= CARD_DRAW_ATTEMPTS) throw error;
        continue;
      }
      if (!isUniqueViolation(error)) throw error;
      // PostgreSQL names the unique constraint a submission broke: the document has an active
      // application, or the card number is taken (requested: 409; drawn: draw again).
      const constraint = violatedConstraint(error);
      if (constraint === 'applications_active_cert_hash_key') {
        throw await duplicateError(ctx, caller, documentHash);
      }
      if (constraint === 'applications_active_external_id_key' && application.external_id !== undefined) {
        throw externalIdTaken(
          await findActiveByExternalId(ctx.store.db, caller.appId, application.external_id),
        );
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

/** The partner reference is in use by another active application of the app: name it. */
export function externalIdTaken(existing: { busi_water_no: string } | undefined): ServiceError {
  return new ServiceError(
    'externalIdTaken',
    existing === undefined ? {} : { data: { busi_water_no: existing.busi_water_no } },
  );
}

/**
 * The conflicts the unique indexes guard against, checked first where the store cannot name the
 * index a write broke (SQLite). Inside the transaction, and SQLite has one writer: no race.
 */
async function checkConflicts(
  trx: Transaction<Database>,
  caller: Caller,
  rows: SubmissionRows,
  cardRequested: boolean,
): Promise<void> {
  const existing = await findActiveByCertHash(trx, rows.application.cert_hash);
  if (existing !== undefined) throw duplicateOf(caller, existing);
  const externalId = rows.application.active_external_id;
  if (externalId !== undefined && externalId !== null) {
    const sameReference = await findActiveByExternalId(trx, caller.appId, externalId);
    if (sameReference !== undefined) throw externalIdTaken(sameReference);
  }
  if (await isCardNumberTaken(trx, rows.application.card_no_hash)) {
    if (cardRequested) throw new ServiceError('cardNoTaken');
    throw new DrawnCardNumberTaken();
  }
}

/** Everything a submission stores, built before the store is touched (CPU only). */
function submissionRows(
  ctx: ServiceContext,
  caller: Caller,
  application: ApplicationRequest & { card_no: string },
  documentHash: string,
): SubmissionRows {
  const now = ctx.now();
  const busiWaterNo = newSerialNumber(now);
  const masked = maskCardNumber(application.card_no);
  const payload = ctx.keyRing.encrypt(JSON.stringify(application), busiWaterNo);
  return {
    application: {
      busi_water_no: busiWaterNo,
      app_id: caller.appId,
      status: INITIAL_STATUS,
      status_reason: null,
      cert_type: application.cert_type,
      cert_hash: documentHash,
      active_cert_hash: documentHash,
      card_no_hash: ctx.keyRing.blindIndex('card', application.card_no),
      card_no_masked: masked,
      payload_enc: payload,
      key_id: ctx.keyRing.keyIdOf(payload),
      version: 1,
      created_at: now,
      updated_at: now,
      external_id: application.external_id ?? null,
      active_external_id: application.external_id ?? null,
    },
    transition: {
      busi_water_no: busiWaterNo,
      from_status: null,
      to_status: INITIAL_STATUS,
      actor: `caller:${caller.appId}`,
      reason: null,
      details: null,
      at: now,
    },
    event: firstEventRow({
      appId: caller.appId,
      type: eventTypeFor(INITIAL_STATUS),
      payload: {
        busi_water_no: busiWaterNo,
        status: INITIAL_STATUS,
        previous_status: null,
        reason: null,
        reason_codes: [],
        card_no_masked: masked,
        external_id: application.external_id ?? null,
      },
      at: now,
    }),
  };
}

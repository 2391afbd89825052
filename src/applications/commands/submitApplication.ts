import { EXAMPLE_APPLICANT } from '../rules/exampleApplicant.ts';
import type { Partner } from '../../partners/credentials.ts';
import { generateCardNumber, maskCardNumber } from '../../cards/cardNumber.ts';
import type { ServiceContext } from '../../context.ts';
import { ServiceError } from '../../errors/serviceError.ts';
import { firstEventRow } from '../../events/outbox.ts';
import type { IdempotencyClaim } from '../../idempotency/idempotencyKeys.ts';
import {
  findActiveByCertHash,
  findActiveByExternalId,
  isCardNumberTaken,
  type SubmissionRows,
} from '../../record/applicationRepository.ts';
import { canonicalDocumentNumber } from '../../record/canonical.ts';
import { documentHash } from '../rules/documentHash.ts';
import { findLegacyDuplicate } from './documentRekey.ts';
import { eventPayload } from './changeState.ts';
import { duplicateOf, externalIdTaken } from './conflicts.ts';
import { eventTypeFor, INITIAL_STATUS } from '../../record/lifecycle.ts';
import type { ApplicationRequest } from '../../record/schema.ts';
import { newSerialNumber } from '../../record/serialNumber.ts';
import { validateApplication, type ValidationContext } from '../validation/validateApplication.ts';
import { sealApplication } from '../../record/sealedPayload.ts';

/** How often a randomly drawn card number may collide before we give up (1 in 10^9 each). */
const CARD_DRAW_ATTEMPTS = 5;

export function validationContext(ctx: ServiceContext): ValidationContext {
  return {
    now: new Date(ctx.now()),
    timeZone: ctx.config.businessTimeZone,
    minAge: ctx.config.minAge,
    codes: ctx.codes,
    card: ctx.config.card,
    allowPrivateImages: ctx.config.documents.allowPrivate,
  };
}

/** The document an application is for, as one keyed hash of its canonical number: equal documents, equal hashes. */
export function certHash(ctx: ServiceContext, application: ApplicationRequest): string {
  return documentHash(ctx.keyRing, application.cert_type, canonicalDocumentNumber(application.cert_id));
}

/**
 * Submit an application: validate, assign a serial and a card number, and store the encrypted
 * application with its `application.submitted` event (its first history entry too) in one commit.
 * Returns only after the commit: acknowledged means durable. With an idempotency claim, the same
 * commit records the result under the key (acknowledged and replayable are one commit); the
 * caller's transport builds its response from the result, now and when it replays it.
 */
export async function submitApplication(
  ctx: ServiceContext,
  partner: Partner,
  body: unknown,
  options: { idempotency?: IdempotencyClaim | undefined } = {},
): Promise<SubmitResult> {
  const application = validateApplication(body, validationContext(ctx));
  const requested = application.card_no;
  const documentHash = certHash(ctx, application);
  // Applications stored before the canonical hash, until they are re-keyed (documentRekey.ts).
  const legacy = await findLegacyDuplicate(ctx, application);
  if (legacy !== undefined) throw duplicateOf(partner, legacy);

  for (let attempt = 1; ; attempt++) {
    const cardNo = requested ?? generateCardNumber(ctx.config.card);
    const rows = submissionRows(ctx, partner, { ...application, card_no: cardNo }, documentHash);
    const result: SubmitResult = { busi_water_no: rows.application.busi_water_no };
    const claim = options.idempotency;
    const outcome = await ctx.store.insertSubmission(
      rows,
      claim === undefined ? undefined : { ...claim, result: JSON.stringify(result) },
    );
    switch (outcome.kind) {
      case 'ok':
        ctx.metrics.onSubmitted();
        return result;
      case 'document_taken':
        throw duplicateOf(
          partner,
          outcome.holder ?? (await findActiveByCertHash(ctx.store.db, documentHash)),
        );
      case 'external_id_taken':
        throw externalIdTaken(
          outcome.holder ??
            (await findActiveByExternalId(ctx.store.db, partner.appId, application.external_id ?? '')),
        );
      case 'card_no_taken':
        // Requested: 409. Drawn at random (1 in 10^9 to collide): draw another.
        if (requested !== undefined) throw new ServiceError('cardNoTaken');
        if (attempt >= CARD_DRAW_ATTEMPTS) throw new Error(`no free card number in ${attempt} draws`);
        continue;
      case 'claim_lost':
        // A retry took the key over after our lease: its run is the one that counts.
        throw new ServiceError('idempotencyInProgress', { headers: { 'retry-after': '1' } });
    }
  }
}

/**
 * The validate-only call: every check of the submit, its conflicts included, and nothing stored.
 * The conflicts are read, not claimed, so a submit that follows may still meet one that arrived
 * in between; what validate answers is what the submit would have answered at that moment.
 */
export async function checkSubmission(ctx: ServiceContext, partner: Partner, body: unknown): Promise<void> {
  const application = validateApplication(body, validationContext(ctx));
  const legacy = await findLegacyDuplicate(ctx, application);
  if (legacy !== undefined) throw duplicateOf(partner, legacy);
  const holder = await findActiveByCertHash(ctx.store.db, certHash(ctx, application));
  if (holder !== undefined) throw duplicateOf(partner, holder);
  if (application.external_id !== undefined) {
    const taken = await findActiveByExternalId(ctx.store.db, partner.appId, application.external_id);
    if (taken !== undefined) throw externalIdTaken(taken);
  }
  const requested = application.card_no;
  if (requested !== undefined) {
    const cardHash = ctx.keyRing.blindIndex('card', requested);
    if (await isCardNumberTaken(ctx.store.db, cardHash)) throw new ServiceError('cardNoTaken');
  }
}

/** What a submission answers: its serial number. */
export interface SubmitResult {
  busi_water_no: string;
}

/** Everything a submission stores, built before the store is touched (CPU only). */
function submissionRows(
  ctx: ServiceContext,
  partner: Partner,
  application: ApplicationRequest & { card_no: string },
  documentHash: string,
): SubmissionRows {
  const now = ctx.now();
  const busiWaterNo = newSerialNumber(now);
  const masked = maskCardNumber(application.card_no);
  const payload = sealApplication(ctx.keyRing, busiWaterNo, application);
  return {
    application: {
      busi_water_no: busiWaterNo,
      app_id: partner.appId,
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
    event: firstEventRow({
      appId: partner.appId,
      type: eventTypeFor(INITIAL_STATUS),
      payload: eventPayload({
        busi_water_no: busiWaterNo,
        from: null,
        to: INITIAL_STATUS,
        reason: null,
        reason_codes: [],
        card_no_masked: masked,
        external_id: application.external_id ?? null,
      }),
      at: now,
      history: {
        from_status: null,
        to_status: INITIAL_STATUS,
        actor: `caller:${partner.appId}`,
        reason: null,
        reason_codes: null,
        details: null,
      },
    }),
  };
}

/**
 * A submission's CPU work, `rounds` times, on the example applicant, with nothing stored: run
 * before the process listens, so that its first callers do not meet the validation checks and the
 * sealing in V8's interpreter.
 */
export function warmSubmitPath(ctx: ServiceContext, rounds: number): void {
  const partner: Partner = {
    appId: 'warm-up',
    rateLimitPerSecond: null,
    rateLimitBurst: null,
    concurrencyLimit: null,
  };
  for (let round = 0; round < rounds; round++) {
    const body: unknown = JSON.parse(
      JSON.stringify({
        ...EXAMPLE_APPLICANT,
        app_id: partner.appId,
        timestamp: Math.floor(ctx.now() / 1000),
      }),
    );
    const application = validateApplication(body, validationContext(ctx));
    const cardNo = generateCardNumber(ctx.config.card);
    submissionRows(ctx, partner, { ...application, card_no: cardNo }, certHash(ctx, application));
  }
}

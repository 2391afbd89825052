import type { Kysely } from 'kysely';
import type { Database } from '../../store/tables.ts';
import { restartDocuments } from '../../documents/fetchDocuments.ts';
import { actorName } from '../../audit/actor.ts';
import type { Partner } from '../../partners/credentials.ts';
import { maskCardNumber } from '../../cards/cardNumber.ts';
import type { ServiceContext } from '../../context.ts';
import { problem, type FieldProblem } from '../../errors/problems.ts';
import { ServiceError, ValidationError } from '../../errors/serviceError.ts';
import { isUniqueViolation, violatedConstraint } from '../../store/errors.ts';
import { findActiveByCertHash, findForAmend, isCardNumberTaken } from '../../record/applicationRepository.ts';
import { changeState } from './changeState.ts';
import { duplicateOf } from './conflicts.ts';
import { resolveSerial } from '../rules/applicationReference.ts';
import { AMENDED_EVENT } from '../../record/lifecycle.ts';
import { queryApplication, type StatusView } from '../views/queryApplication.ts';
import { fieldListOf } from '../rules/requestedFields.ts';
import { ApplicationRequest } from '../../record/schema.ts';
import { isSerialNumber } from '../../record/serialNumber.ts';
import { certHash, validationContext } from './submitApplication.ts';
import { validateApplication } from '../validation/validateApplication.ts';
import { openApplication, sealApplication } from '../../record/sealedPayload.ts';

/**
 * The partner's amendment of an application an operator asked more of (SUPPLEMENT_REQUIRED): it
 * takes exactly the requested fields, checks the whole merged application again as the submit does
 * (every field check, the one-active-application-per-document rule and the card number), stores it
 * encrypted, and returns the application to IN_REVIEW through `changeState` (history row,
 * `application.amended` event and audit entry), in one transaction.
 */

const REFERENCE_KEYS = new Set(['app_id', 'timestamp', 'busi_water_no', 'external_id']);
const SUBMIT_FIELDS = new Set(Object.keys(ApplicationRequest.properties));

export async function amendApplication(
  ctx: ServiceContext,
  partner: Partner,
  body: Record<string, unknown>,
  options: {
    /**
     * Writes that belong to the amendment, in its transaction after it is recorded (a correction
     * request it answers ends: subjects/): a throw rolls the amendment back.
     */
    alsoInTransaction?: ((trx: Kysely<Database>, busiWaterNo: string) => Promise<void>) | undefined;
  } = {},
): Promise<StatusView> {
  const reference = referenceOf(body);
  const serial = await resolveSerial(ctx, partner, reference);
  if (!isSerialNumber(serial)) throw new ServiceError('applicationNotFound');
  const row = await findForAmend(ctx.store.db, serial, partner.appId);
  if (row === undefined) throw new ServiceError('applicationNotFound');
  if (row.status !== 'SUPPLEMENT_REQUIRED') {
    throw new ServiceError('amendNotOpen', { params: { status: row.status }, data: { status: row.status } });
  }

  const requested = fieldListOf(row.requested_fields);
  const amended = Object.fromEntries(Object.entries(body).filter(([key]) => !REFERENCE_KEYS.has(key)));
  const problems: FieldProblem[] = [];
  for (const field of Object.keys(amended)) {
    if (!SUBMIT_FIELDS.has(field)) problems.push(problem(field, 'fieldUnknown'));
    else if (!requested.includes(field)) {
      problems.push(problem(field, 'fieldNotRequested', { requested: requested.join(', ') }));
    }
  }
  for (const field of requested) {
    if (!(field in amended)) problems.push(problem(field, 'fieldRequired'));
  }
  if (problems.length > 0) throw new ValidationError(problems);

  const stored: Record<string, unknown> = openApplication(ctx.keyRing, serial, row.payload_enc);
  // Every check of the submit, on the application as it will be.
  const application = validateApplication({ ...stored, ...amended }, validationContext(ctx));
  const changed = requested.filter(
    (field) => JSON.stringify(stored[field]) !== JSON.stringify(amended[field]),
  );
  const documentHash = certHash(ctx, application);
  const cardNo = application.card_no ?? String(stored['card_no']);
  const cardHash = ctx.keyRing.blindIndex('card', cardNo);
  const payload = sealApplication(ctx.keyRing, serial, { ...application, card_no: cardNo });
  const now = ctx.now();
  const actor = actorName({ kind: 'caller', id: partner.appId });

  try {
    await ctx.store.transaction(async (trx) => {
      const holder = await findActiveByCertHash(trx, documentHash);
      if (holder !== undefined && holder.busi_water_no !== serial) throw duplicateOf(partner, holder);
      if (cardHash !== row.card_no_hash && (await isCardNumberTaken(trx, cardHash))) {
        throw new ServiceError('cardNoTaken');
      }
      const fields = { amended_fields: requested, changed_fields: changed };
      await changeState(ctx, trx, {
        busi_water_no: serial,
        app_id: partner.appId,
        from: 'SUPPLEMENT_REQUIRED',
        to: 'IN_REVIEW',
        version: row.version,
        actor,
        source: 'caller-api',
        reason: null,
        reason_codes: [],
        details: fields,
        event_type: AMENDED_EVENT,
        event_fields: fields,
        columns: {
          cert_type: application.cert_type,
          cert_hash: documentHash,
          active_cert_hash: documentHash,
          card_no_hash: cardHash,
          card_no_masked: maskCardNumber(cardNo),
          payload_enc: payload,
          key_id: ctx.keyRing.keyIdOf(payload),
        },
        card_no_masked: maskCardNumber(cardNo),
        external_id: row.external_id ?? null,
        // Field names only: the values are identity data. A transition like any other; its details
        // say it was the partner's amendment.
        audit: { from: 'SUPPLEMENT_REQUIRED', to: 'IN_REVIEW', amend: true, ...fields },
        at: now,
      });
      // The image fields sent again are fetched again (documents.fetch): pending from this commit.
      await restartDocuments(ctx, trx, serial, amended, now);
      await options.alsoInTransaction?.(trx, serial);
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // PostgreSQL: another submission or amendment took the document or the card number meanwhile.
    const constraint = violatedConstraint(error);
    if (constraint === 'applications_card_no_hash_key') throw new ServiceError('cardNoTaken');
    throw duplicateOf(partner, await findActiveByCertHash(ctx.store.db, documentHash));
  }
  ctx.metrics.onTransition('SUPPLEMENT_REQUIRED', 'IN_REVIEW');
  return queryApplication(ctx, partner, serial);
}

function referenceOf(body: Record<string, unknown>): { busi_water_no?: string; external_id?: string } {
  const problems: FieldProblem[] = [];
  const reference: { busi_water_no?: string; external_id?: string } = {};
  for (const key of ['busi_water_no', 'external_id'] as const) {
    const value = body[key];
    if (value === undefined) continue;
    if (typeof value !== 'string')
      problems.push(problem(key, 'fieldType', { expected: 'a string', expected_zh: '字符串' }));
    else reference[key] = value;
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return reference;
}

import type { Kysely } from 'kysely';
import type { ApplicationsTable, ApplicationTransitionsTable, Database, EventsTable } from './tables.ts';

/**
 * The rows of a submission and what storing them can answer. The store decides how they are
 * written (one statement, a shared commit, a batch); the domain only learns the outcome.
 */

/** A submission's rows: the application, its first history row and its first event. */
export interface SubmissionRows {
  application: ApplicationsTable;
  transition: Omit<ApplicationTransitionsTable, 'id'>;
  event: EventsTable;
}

/**
 * The idempotency record completed in the same commit as the submission: acknowledged and
 * replayable are one commit. Written only while `claimToken` still holds the key.
 */
export interface SubmissionCompletion {
  appId: string;
  key: string;
  claimToken: string;
  /** The domain result, as JSON. */
  result: string;
}

/**
 * `ok`: stored and durable. Or nothing was stored because the document already has an active
 * application (`document_taken`, with it when the store read it), the app's reference
 * (`external_id`) is held by another of its active applications (`external_id_taken`), the card
 * number is taken (`card_no_taken`), or the idempotency claim was taken over by a retry after its
 * lease (`claim_lost`).
 */
export type SubmissionOutcome =
  | { readonly kind: 'ok' }
  | { readonly kind: 'document_taken'; readonly holder?: DocumentHolder | undefined }
  | { readonly kind: 'external_id_taken'; readonly holder?: DocumentHolder | undefined }
  | { readonly kind: 'card_no_taken' }
  | { readonly kind: 'claim_lost' };

/** The active application that holds a document (or an app's reference). */
export interface DocumentHolder {
  busi_water_no: string;
  app_id: string;
}

export const STORED: SubmissionOutcome = { kind: 'ok' };
export const CARD_NO_TAKEN: SubmissionOutcome = { kind: 'card_no_taken' };
export const CLAIM_LOST: SubmissionOutcome = { kind: 'claim_lost' };

/** Thrown inside a transaction to roll a submission back; never leaves the store. */
export class SubmissionRefused extends Error {
  readonly outcome: SubmissionOutcome;
  constructor(outcome: SubmissionOutcome) {
    super(outcome.kind);
    this.outcome = outcome;
  }
}

/**
 * The active application of a document, if any: a read, so that a duplicate is answered without
 * an insert (the unique index still decides when two race).
 */
export async function documentHolder(
  db: Kysely<Database>,
  certHash: string,
): Promise<DocumentHolder | undefined> {
  return db
    .selectFrom('applications')
    .select(['busi_water_no', 'app_id'])
    .where('active_cert_hash', '=', certHash)
    .executeTakeFirst();
}

/** Completes an idempotency claim with the operation's result, if the claim still holds. */
export async function completeClaimWithResult(
  db: Kysely<Database>,
  completion: SubmissionCompletion,
): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_keys')
    .set({ state: 'completed', result: completion.result, locked_until: null })
    .where('app_id', '=', completion.appId)
    .where('idempotency_key', '=', completion.key)
    .where('claim_token', '=', completion.claimToken)
    .where('state', '=', 'in_progress')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * SQLite: the unique indexes checked first (node:sqlite does not say which index a write broke),
 * then the three inserts. Inside the caller's write transaction, and SQLite has one writer: no race.
 */
export async function insertSubmissionSqlite(
  db: Kysely<Database>,
  rows: SubmissionRows,
  completion: SubmissionCompletion | undefined,
): Promise<SubmissionOutcome> {
  const holder = await documentHolder(db, rows.application.cert_hash);
  if (holder !== undefined) return { kind: 'document_taken', holder };
  const externalId = rows.application.active_external_id;
  if (externalId !== undefined && externalId !== null) {
    const sameReference = await db
      .selectFrom('applications')
      .select(['busi_water_no', 'app_id'])
      .where('app_id', '=', rows.application.app_id)
      .where('active_external_id', '=', externalId)
      .executeTakeFirst();
    if (sameReference !== undefined) return { kind: 'external_id_taken', holder: sameReference };
  }
  const card = await db
    .selectFrom('applications')
    .select('busi_water_no')
    .where('card_no_hash', '=', rows.application.card_no_hash)
    .executeTakeFirst();
  if (card !== undefined) return CARD_NO_TAKEN;
  await db.insertInto('applications').values(rows.application).execute();
  await db.insertInto('application_transitions').values(rows.transition).execute();
  await db.insertInto('events').values(rows.event).execute();
  if (completion !== undefined && !(await completeClaimWithResult(db, completion))) {
    throw new SubmissionRefused(CLAIM_LOST);
  }
  return STORED;
}

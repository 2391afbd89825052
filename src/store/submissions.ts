import type { ApplicationsTable, EventHistory, EventsTable } from './tables.ts';

/**
 * The rows of a submission and what storing them can answer. The store decides how they are
 * written (one statement, a shared commit, a batch); the domain only learns the outcome.
 */

/** A submission's rows: the application and its first event, which is also its first history entry. */
export interface SubmissionRows {
  application: ApplicationsTable;
  event: EventsTable & EventHistory;
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

import type { Kysely } from 'kysely';
import { statement } from './statements.ts';
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
 * application (`document_taken`), the app's reference (`external_id`) is held by another of its
 * active applications (`external_id_taken`), the card number is taken (`card_no_taken`), or the idempotency
 * claim was taken over by a retry after its lease (`claim_lost`).
 */
export type SubmissionOutcome =
  'ok' | 'document_taken' | 'external_id_taken' | 'card_no_taken' | 'claim_lost';

/** The unique constraints a submission can meet, by name (PostgreSQL reports the name). */
export const SUBMISSION_CONSTRAINTS: Readonly<Record<string, SubmissionOutcome>> = {
  applications_active_cert_hash_key: 'document_taken',
  applications_active_external_id_key: 'external_id_taken',
  applications_card_no_hash_key: 'card_no_taken',
};

/** Thrown inside a transaction to roll a submission back; never leaves the store. */
export class SubmissionRefused extends Error {
  readonly outcome: SubmissionOutcome;
  constructor(outcome: SubmissionOutcome) {
    super(outcome);
    this.outcome = outcome;
  }
}

export function submissionParameters({ application: a, transition: t, event: e }: SubmissionRows): unknown[] {
  return [
    a.busi_water_no,
    a.app_id,
    a.status,
    a.status_reason,
    a.cert_type,
    a.cert_hash,
    a.active_cert_hash,
    a.card_no_hash,
    a.card_no_masked,
    a.payload_enc,
    a.key_id,
    a.version,
    a.created_at,
    a.updated_at,
    a.external_id ?? null,
    a.active_external_id ?? null,
    t.busi_water_no,
    t.from_status,
    t.to_status,
    t.actor,
    t.reason,
    t.details,
    t.at,
    e.event_id,
    e.app_id,
    e.busi_water_no,
    e.type,
    e.payload,
    e.created_at,
    e.seq,
    e.fanned_out_at,
  ];
}

/** PostgreSQL: the three rows of a submission in one statement (data-modifying CTEs). */
export const INSERT_SUBMISSION = statement(
  'insert_submission',
  `WITH application AS (
     INSERT INTO {applications} (busi_water_no, app_id, status, status_reason, cert_type, cert_hash,
       active_cert_hash, card_no_hash, card_no_masked, payload_enc, key_id, version, created_at, updated_at,
       external_id, active_external_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)),
   transition AS (
     INSERT INTO {application_transitions} (busi_water_no, from_status, to_status, actor, reason, details, at)
     VALUES (?, ?, ?, ?, ?, ?, ?))
   INSERT INTO {events} (event_id, app_id, busi_water_no, type, payload, created_at, seq, fanned_out_at)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
);

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
  const active = await db
    .selectFrom('applications')
    .select('busi_water_no')
    .where('active_cert_hash', '=', rows.application.cert_hash)
    .executeTakeFirst();
  if (active !== undefined) return 'document_taken';
  const externalId = rows.application.active_external_id;
  if (externalId !== undefined && externalId !== null) {
    const sameReference = await db
      .selectFrom('applications')
      .select('busi_water_no')
      .where('app_id', '=', rows.application.app_id)
      .where('active_external_id', '=', externalId)
      .executeTakeFirst();
    if (sameReference !== undefined) return 'external_id_taken';
  }
  const card = await db
    .selectFrom('applications')
    .select('busi_water_no')
    .where('card_no_hash', '=', rows.application.card_no_hash)
    .executeTakeFirst();
  if (card !== undefined) return 'card_no_taken';
  await db.insertInto('applications').values(rows.application).execute();
  await db.insertInto('application_transitions').values(rows.transition).execute();
  await db.insertInto('events').values(rows.event).execute();
  if (completion !== undefined && !(await completeClaimWithResult(db, completion))) {
    throw new SubmissionRefused('claim_lost');
  }
  return 'ok';
}

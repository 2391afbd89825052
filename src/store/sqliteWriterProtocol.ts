import type { SubmissionCompletion, SubmissionOutcome, SubmissionRows } from './submissions.ts';

/**
 * What the service and the submission writer thread send each other. A submission goes as one flat
 * array (copying it between threads costs less than copying the row objects): the request id, then
 * the columns of the application and its event (with the history's) in the order of the thread's
 * INSERTs, then the idempotency completion (app, key, claim token, result) or nulls. The service
 * sends the submissions of one turn of its event loop together, as an array of these.
 */
export type EncodedRequest = unknown[];

export const APPLICATION = 1;
export const EVENT = APPLICATION + 16;
export const COMPLETION = EVENT + 14;

export function encodeRequest(
  id: number,
  { application: a, event: e }: SubmissionRows,
  completion: SubmissionCompletion | undefined,
): EncodedRequest {
  return [
    id,
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
    e.event_id,
    e.app_id,
    e.busi_water_no,
    e.type,
    e.payload,
    e.created_at,
    e.seq,
    e.fanned_out_at,
    e.from_status,
    e.to_status,
    e.actor,
    e.reason,
    e.reason_codes,
    e.details,
    completion?.appId ?? null,
    completion?.key ?? null,
    completion?.claimToken ?? null,
    completion?.result ?? null,
  ];
}

export type WriterReply =
  | { id: number; outcome: SubmissionOutcome }
  | { id: number; error: { message: string; code?: unknown; errcode?: unknown } };

export type WriterMessage = { batch: WriterReply[]; commits: number } | { closed: true };

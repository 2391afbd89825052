import { statement, type Statement } from './statements.ts';
import {
  CARD_NO_TAKEN,
  CLAIM_LOST,
  STORED,
  type DocumentHolder,
  type SubmissionCompletion,
  type SubmissionOutcome,
  type SubmissionRows,
} from './submissions.ts';

/**
 * Group commit of submissions on PostgreSQL. Submissions that arrive while earlier ones are being
 * stored go together into ONE statement (its own transaction, one round trip, one commit): rows
 * passed as arrays and unnested, each application inserted with `ON CONFLICT DO NOTHING`, its
 * event (the history's first entry too) and its idempotency completion inserted only for the
 * applications that went in. Each is acknowledged only after that commit; one that meets a unique index is skipped
 * alone (no error, no aborted transaction, nothing in the server log), and then a read tells which
 * index it met. Should the statement fail as a whole (a deadlock with another instance, say), its
 * submissions are stored one by one, so that a failing one is refused alone.
 *
 * Up to `maxInFlight` statements run at once: under light load every submission goes alone at
 * once; batches form only while the earlier ones are in flight, and grow with the load.
 */
export interface SubmissionBatcher {
  insert(rows: SubmissionRows, completion: SubmissionCompletion | undefined): Promise<SubmissionOutcome>;
  stats(): { commits: number; units: number };
}

export interface BatchExecutor {
  /** Runs a hand-written statement on its own (autocommit) and returns its rows. */
  run<R>(statement: Statement, parameters: readonly unknown[]): Promise<R[]>;
}

interface Unit {
  rows: SubmissionRows;
  completion: SubmissionCompletion | undefined;
  /** Times it came back skipped with no conflict to show for it (a race): tried again. */
  retries: number;
  resolve: (outcome: SubmissionOutcome) => void;
  reject: (error: unknown) => void;
}

/** A skip whose cause cannot be found again is retried this often before it is an error. */
const MAX_RETRIES = 3;

export function submissionBatcher(
  executor: BatchExecutor,
  options: { maxInFlight: number; maxBatch: number },
): SubmissionBatcher {
  let queue: Unit[] = [];
  let inFlight = 0;
  let commits = 0;
  let units = 0;

  function pump(): void {
    while (inFlight < options.maxInFlight && queue.length > 0) {
      const batch = queue.slice(0, options.maxBatch);
      queue = queue.slice(batch.length);
      inFlight += 1;
      void runBatch(batch).finally(() => {
        inFlight -= 1;
        pump();
      });
    }
  }

  async function runBatch(batch: Unit[]): Promise<void> {
    let results: BatchRow[];
    try {
      results = await executor.run<BatchRow>(INSERT_SUBMISSIONS, batchParameters(batch));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      // One at a time, so that only the submission that fails is refused.
      for (const unit of batch) await runBatch([unit]);
      return;
    }
    commits += 1;
    units += batch.length;
    const bySerial = new Map(results.map((row) => [row.busi_water_no, row]));
    const refused: Unit[] = [];
    for (const unit of batch) {
      const row = bySerial.get(unit.rows.application.busi_water_no);
      if (row?.stored === true) unit.resolve(STORED);
      else if (row?.claim_lost === true) unit.resolve(CLAIM_LOST);
      else refused.push(unit);
    }
    if (refused.length > 0) await explain(refused);
  }

  /** Which unique index each skipped submission met; after the commit, so the holder is visible. */
  async function explain(refused: Unit[]): Promise<void> {
    let found: ConflictRow[];
    try {
      found = await executor.run<ConflictRow>(FIND_CONFLICTS, [
        refused.map((u) => u.rows.application.active_cert_hash),
        refused.map((u) => u.rows.application.card_no_hash),
        refused.map((u) => u.rows.application.app_id),
        refused.map((u) => u.rows.application.active_external_id ?? null),
      ]);
    } catch (error) {
      for (const unit of refused) unit.reject(error);
      return;
    }
    for (const unit of refused) {
      const { active_cert_hash: document, card_no_hash: card, app_id: app } = unit.rows.application;
      const reference = unit.rows.application.active_external_id ?? null;
      const holder = found.find((row) => row.active_cert_hash === document);
      const referenceHolder =
        reference === null
          ? undefined
          : found.find((row) => row.app_id === app && row.active_external_id === reference);
      if (holder !== undefined) {
        unit.resolve({ kind: 'document_taken', holder: toHolder(holder) });
      } else if (referenceHolder !== undefined) {
        unit.resolve({ kind: 'external_id_taken', holder: toHolder(referenceHolder) });
      } else if (found.some((row) => row.card_no_hash === card)) {
        unit.resolve(CARD_NO_TAKEN);
      } else if (unit.retries < MAX_RETRIES) {
        // The conflicting row went away in between (it reached a final state): try again.
        unit.retries += 1;
        queue.push(unit);
      } else {
        unit.reject(new Error('submission skipped by a unique index that no row holds'));
      }
    }
    pump();
  }

  return {
    insert: (rows, completion) =>
      new Promise<SubmissionOutcome>((resolve, reject) => {
        queue.push({ rows, completion, retries: 0, resolve, reject });
        pump();
      }),
    stats: () => ({ commits, units }),
  };
}

interface BatchRow {
  busi_water_no: string;
  stored: boolean;
  claim_lost: boolean;
}

interface ConflictRow {
  busi_water_no: string;
  app_id: string;
  active_cert_hash: string | null;
  active_external_id: string | null;
  card_no_hash: string;
}

function toHolder(row: ConflictRow): DocumentHolder {
  return { busi_water_no: row.busi_water_no, app_id: row.app_id };
}

/** One array per column, in the order of the statement's `unnest`. */
function batchParameters(batch: Unit[]): unknown[][] {
  const column = <T>(pick: (unit: Unit) => T) => batch.map(pick);
  return [
    column((u) => u.rows.application.busi_water_no),
    column((u) => u.rows.application.app_id),
    column((u) => u.rows.application.status),
    column((u) => u.rows.application.status_reason),
    column((u) => u.rows.application.cert_type),
    column((u) => u.rows.application.cert_hash),
    column((u) => u.rows.application.active_cert_hash),
    column((u) => u.rows.application.card_no_hash),
    column((u) => u.rows.application.card_no_masked),
    column((u) => u.rows.application.payload_enc),
    column((u) => u.rows.application.key_id),
    column((u) => u.rows.application.version),
    column((u) => u.rows.application.created_at),
    column((u) => u.rows.application.updated_at),
    column((u) => u.rows.application.external_id ?? null),
    column((u) => u.rows.application.active_external_id ?? null),
    column((u) => u.rows.event.event_id),
    column((u) => u.rows.event.type),
    column((u) => u.rows.event.payload),
    column((u) => u.rows.event.created_at),
    column((u) => u.rows.event.seq),
    column((u) => u.rows.event.fanned_out_at),
    column((u) => u.rows.event.from_status),
    column((u) => u.rows.event.to_status),
    column((u) => u.rows.event.actor),
    column((u) => u.rows.event.reason),
    column((u) => u.rows.event.reason_codes),
    column((u) => u.rows.event.details),
    column((u) => u.completion?.key ?? null),
    column((u) => u.completion?.claimToken ?? null),
    column((u) => u.completion?.result ?? null),
  ];
}

/**
 * The batch, a function of migration 0070 (so that PostgreSQL plans it once per connection, not at
 * every call: a pooler cannot keep a named prepared statement). `held` locks the idempotency
 * claims still held by their requests (a retry that took one over after the lease has changed its
 * token: that submission is not stored, `claim_lost`); `inserted` are the applications that went
 * in; only theirs get their event (with the history's first entry) and completion. Events carry
 * the application's serial and app (the rows are built that way). Its arguments are the arrays of
 * `batchParameters`, in that order.
 */
export const INSERT_SUBMISSIONS = statement(
  'insert_submissions',
  `SELECT busi_water_no, stored, claim_lost FROM {insert_submissions}(
     ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[],
     ?::text[], ?::text[], ?::int[], ?::bigint[], ?::bigint[], ?::text[], ?::text[],
     ?::text[], ?::text[], ?::text[], ?::bigint[], ?::int[], ?::bigint[],
     ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[],
     ?::text[], ?::text[], ?::text[])`,
);

/**
 * The applications holding the documents, card numbers or app references of skipped submissions:
 * three probes, each answered by its unique index (an OR of them, or a row IN a subquery, is not).
 */
const FIND_CONFLICTS = statement(
  'find_submission_conflicts',
  `SELECT busi_water_no, app_id, active_cert_hash, active_external_id, card_no_hash
     FROM {applications} WHERE active_cert_hash = ANY(?::text[])
   UNION
   SELECT busi_water_no, app_id, active_cert_hash, active_external_id, card_no_hash
     FROM {applications} WHERE card_no_hash = ANY(?::text[])
   UNION
   SELECT a.busi_water_no, a.app_id, a.active_cert_hash, a.active_external_id, a.card_no_hash
     FROM unnest(?::text[], ?::text[]) AS refs (app, reference)
     JOIN {applications} a ON a.app_id = refs.app AND a.active_external_id = refs.reference`,
);

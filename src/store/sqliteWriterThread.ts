import type { SQLInputValue } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import type { SubmissionOutcome } from './submissions.ts';
import {
  APPLICATION,
  COMPLETION,
  EVENT,
  type EncodedRequest,
  type WriterReply,
} from './sqliteWriterProtocol.ts';
import { openWriterConnection } from './sqliteConnection.ts';
import { WriteTurn } from './writeTurn.ts';

/**
 * The embedded store's submission writer: a thread with a connection of its own, so that the
 * commits (an fsync each, synchronous in node:sqlite) and the WAL checkpoints never hold the
 * service's event loop. Submissions that arrive together share ONE transaction, each in its own
 * savepoint (a failing one is rolled back and refused alone), and are answered only after its
 * COMMIT returned: acknowledged means durable (WAL, synchronous=FULL).
 *
 * The thread runs at the event loop's priority. It ran ten nice steps below it for a while, to
 * commit larger batches while the loop was busy; since the loop sends a turn's submissions as one
 * message, that gained 2 to 5% at full speed and, where the two share a core, left messages waiting
 * up to 57 ms for the thread to be scheduled: most of the tail at half the maximum rate
 * (docs/PERFORMANCE.md, "The writer thread at the loop's priority").
 */
interface WriterData {
  file: string;
  /** How often an idle writer checkpoints the WAL (PASSIVE: never waits for readers). */
  checkpointIntervalMs: number;
  /** The process's write turn, shared with the event loop's connection (writeTurn.ts). */
  turn: SharedArrayBuffer;
}

const data = workerData as WriterData;
const { file, checkpointIntervalMs } = data;
const turn = new WriteTurn(data.turn, 'thread');
/** As long as SQLite's busy_timeout: past it, the batch is refused as it would be on SQLITE_BUSY. */
const TURN_TIMEOUT_MS = 5_000;
const port = parentPort!;
const database = openWriterConnection(file);

const statements = {
  holder: database.prepare('SELECT busi_water_no, app_id FROM applications WHERE active_cert_hash = ?'),
  reference: database.prepare(
    'SELECT busi_water_no, app_id FROM applications WHERE app_id = ? AND active_external_id = ?',
  ),
  card: database.prepare('SELECT 1 AS taken FROM applications WHERE card_no_hash = ?'),
  application: database.prepare(
    `INSERT INTO applications (busi_water_no, app_id, status, status_reason, cert_type, cert_hash,
       active_cert_hash, card_no_hash, card_no_masked, payload_enc, key_id, version, created_at, updated_at,
       external_id, active_external_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
  event: database.prepare(
    `INSERT INTO events (event_id, app_id, busi_water_no, type, payload, created_at, seq, fanned_out_at,
       from_status, to_status, actor, reason, reason_codes, details)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
  complete: database.prepare(
    `UPDATE idempotency_keys SET state = 'completed', result = ?, locked_until = NULL
      WHERE app_id = ? AND idempotency_key = ? AND claim_token = ? AND state = 'in_progress'`,
  ),
};

/** Thrown inside a savepoint to roll one submission back with its outcome. */
class Refused extends Error {
  readonly outcome: SubmissionOutcome;
  constructor(outcome: SubmissionOutcome) {
    super(outcome.kind);
    this.outcome = outcome;
  }
}

function store(request: EncodedRequest): SubmissionOutcome {
  const values = request as SQLInputValue[];
  const certHash = values[APPLICATION + 5]!;
  const cardNoHash = values[APPLICATION + 7]!;
  const holder = statements.holder.get(certHash) as { busi_water_no: string; app_id: string } | undefined;
  if (holder !== undefined) {
    return { kind: 'document_taken', holder: { busi_water_no: holder.busi_water_no, app_id: holder.app_id } };
  }
  const reference = values[APPLICATION + 15]!;
  if (reference !== null) {
    const same = statements.reference.get(values[APPLICATION + 1]!, reference) as
      { busi_water_no: string; app_id: string } | undefined;
    if (same !== undefined) {
      return {
        kind: 'external_id_taken',
        holder: { busi_water_no: same.busi_water_no, app_id: same.app_id },
      };
    }
  }
  if (statements.card.get(cardNoHash) !== undefined) return { kind: 'card_no_taken' };
  statements.application.run(...values.slice(APPLICATION, EVENT));
  statements.event.run(...values.slice(EVENT, COMPLETION));
  if (values[COMPLETION] !== null) {
    // result, app_id, idempotency_key, claim_token
    const { changes } = statements.complete.run(
      ...values.slice(COMPLETION + 3, COMPLETION + 4),
      ...values.slice(COMPLETION, COMPLETION + 3),
    );
    if (Number(changes) !== 1) throw new Refused({ kind: 'claim_lost' });
  }
  return { kind: 'ok' };
}

function describeError(error: unknown): { message: string; code?: unknown; errcode?: unknown } {
  const { message, code, errcode } = error as { message?: unknown; code?: unknown; errcode?: unknown };
  return { message: typeof message === 'string' ? message : String(error), code, errcode };
}

let queue: EncodedRequest[] = [];
let scheduled = false;
let commits = 0;
let closing = false;

function flush(): void {
  scheduled = false;
  const batch = queue;
  queue = [];
  if (batch.length === 0) return;
  const replies: WriterReply[] = [];
  try {
    turn.takeBlocking(TURN_TIMEOUT_MS);
    try {
      flushHoldingTurn(batch, replies);
    } finally {
      turn.give();
    }
  } catch (error) {
    // Nothing of this batch was committed: every submission in it is refused.
    const failed = describeError(error);
    port.postMessage({ batch: batch.map((r) => ({ id: r[0] as number, error: failed })), commits });
    return;
  }
  port.postMessage({ batch: replies, commits });
}

/** One transaction for the batch, each submission in its own savepoint; throws if nothing was committed. */
function flushHoldingTurn(batch: EncodedRequest[], replies: WriterReply[]): void {
  database.exec('BEGIN IMMEDIATE');
  try {
    for (const request of batch) {
      database.exec('SAVEPOINT unit');
      try {
        replies.push({ id: request[0] as number, outcome: store(request) });
        database.exec('RELEASE unit');
      } catch (error) {
        database.exec('ROLLBACK TO unit');
        database.exec('RELEASE unit');
        replies.push(
          error instanceof Refused
            ? { id: request[0] as number, outcome: error.outcome }
            : { id: request[0] as number, error: describeError(error) },
        );
      }
    }
    database.exec('COMMIT');
    commits += 1;
  } catch (error) {
    if (database.isTransaction) database.exec('ROLLBACK');
    throw error;
  }
}

port.on('message', (message: EncodedRequest[] | 'close') => {
  if (message === 'close') {
    closing = true;
    flush();
    clearInterval(checkpoints);
    database.close();
    port.postMessage({ closed: true });
    port.close();
    return;
  }
  if (closing) return;
  // The service sends the submissions of one turn of its event loop as one message; everything
  // that arrives in this turn of the thread's goes into one transaction.
  for (const request of message) queue.push(request);
  if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
  }
});

// The service's own connection does not checkpoint (wal_autocheckpoint=0): this one does, after
// its commits (SQLite's automatic checkpoint) and on a timer while idle, off the event loop.
const checkpoints = setInterval(() => {
  if (queue.length > 0 || closing) return;
  try {
    database.exec('PRAGMA wal_checkpoint(PASSIVE)');
  } catch {
    // Busy (another process checkpoints or holds the lock): the next tick tries again.
  }
}, checkpointIntervalMs);

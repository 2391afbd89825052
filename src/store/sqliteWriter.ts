import { Worker } from 'node:worker_threads';
import type { SubmissionCompletion, SubmissionOutcome, SubmissionRows } from './submissions.ts';
import { encodeRequest, type EncodedRequest, type WriterMessage } from './sqliteWriterProtocol.ts';
import { WaitingById } from './waitingById.ts';
import { WriteTurn } from './writeTurn.ts';

/**
 * The service side of the submission writer thread (sqliteWriterThread.ts): hands it submissions,
 * answers each when its batch's commit returned. Should the thread die (it never should), the
 * submissions it held are refused (none was acknowledged) and a new thread takes over.
 */
export interface SqliteWriter {
  insert(rows: SubmissionRows, completion: SubmissionCompletion | undefined): Promise<SubmissionOutcome>;
  stats(): { commits: number; units: number };
  close(): Promise<void>;
}

interface Pending {
  resolve: (outcome: SubmissionOutcome) => void;
  reject: (error: unknown) => void;
}

/** A JavaScript entry, so that the thread never loads the TypeScript stripper (see the file). */
const THREAD = new URL('./sqliteWriterThread.js', import.meta.url);

export function startSqliteWriter(
  file: string,
  /** The process's write turn (writeTurn.ts), shared with the event loop's connection. */
  turn: SharedArrayBuffer,
  options: { checkpointIntervalMs?: number } = {},
): SqliteWriter {
  const pending = new WaitingById<Pending>();
  let nextId = 1;
  let units = 0;
  let commitsBefore = 0;
  let commits = 0;
  let closing: Promise<void> | undefined;
  let worker = spawn();
  /**
   * The submissions of this turn of the event loop, sent to the thread as one message after it: the
   * thread then wakes once and commits them together. A message each woke it for the first one, and
   * under load it committed batches of three on average (one at the median) instead of thirteen.
   */
  let outgoing: EncodedRequest[] = [];
  const send = (): void => {
    if (outgoing.length === 0) return;
    worker.postMessage(outgoing);
    outgoing = [];
  };

  function spawn(): Worker {
    const thread = new Worker(THREAD, {
      workerData: { file, checkpointIntervalMs: options.checkpointIntervalMs ?? 1_000, turn },
    });
    // The service may exit while the thread idles; close() ends it properly.
    thread.unref();
    thread.on('message', (message: WriterMessage) => {
      if ('closed' in message) return;
      commits = commitsBefore + message.commits;
      for (const reply of message.batch) {
        const waiting = pending.take(reply.id);
        if (waiting === undefined) continue;
        if ('outcome' in reply) {
          units += 1;
          waiting.resolve(reply.outcome);
        } else {
          waiting.reject(Object.assign(new Error(reply.error.message), reply.error));
        }
      }
      if (pending.size === 0) thread.unref();
    });
    thread.on('error', (error) => fail(thread, error));
    thread.on('exit', (code) => {
      if (closing === undefined) fail(thread, new Error(`the submission writer stopped (exit ${code})`));
    });
    return thread;
  }

  /** The thread is gone: what it held was not committed, or not known to be; refuse it, go on. */
  function fail(thread: Worker, error: unknown): void {
    if (thread !== worker) return;
    // It may have died holding the write turn, or waiting for it.
    WriteTurn.forfeitThread(turn);
    for (const waiting of pending.takeAll()) waiting.reject(error);
    outgoing = [];
    commitsBefore = commits;
    if (closing === undefined) worker = spawn();
  }

  return {
    insert(rows, completion) {
      if (closing !== undefined) return Promise.reject(new Error('the store is closed'));
      const id = nextId++;
      return new Promise<SubmissionOutcome>((resolve, reject) => {
        pending.add(id, { resolve, reject });
        worker.ref();
        // The turn's first submission schedules the send.
        if (outgoing.length === 0) setImmediate(send);
        // A flat array: cheaper to copy between threads than the row objects.
        outgoing.push(encodeRequest(id, rows, completion));
      });
    },
    stats: () => ({ commits, units }),
    close() {
      closing ??= new Promise<void>((resolve) => {
        const thread = worker;
        thread.ref();
        thread.on('message', (message: WriterMessage) => {
          if ('closed' in message) resolve();
        });
        thread.once('exit', () => resolve());
        send();
        thread.postMessage('close');
      });
      return closing;
    },
  };
}

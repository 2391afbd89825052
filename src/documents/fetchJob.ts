import { randomInt } from 'node:crypto';
import { scheduler } from 'node:timers/promises';
import type { Logger } from 'pino';
import { AMENDED_EVENT } from '../record/lifecycle.ts';
import type { ServiceContext } from '../context.ts';
import { describe } from '../errors/describe.ts';
import { DOCUMENT_FIELDS } from '../events/documentOutcomes.ts';
import type { ClaimedJob, JobKind, JobResult, OutboxEvent } from '../jobs/jobQueue.ts';
import { fetchApplicationDocuments } from './fetchDocuments.ts';
import { applicationPlacesOf, FetchDeferred, fetchSlotsOf, type Slot } from './fetchSlots.ts';
import { partnersOf } from '../record/applicationRepository.ts';
import { isDocumentField } from './outcome.ts';

/**
 * `documents.fetch`: queued by the outbox relay in the transaction that fans out a batch of events
 * (up to a hundred under load): one job for the batch's `application.submitted` (every image field)
 * and `application.amended` (the image fields sent again), so the submit pays nothing and the job's
 * own writes (insert, claim, completion) are paid once per batch, not once per submission. The job
 * names each application with the fields still to do. Unreachable documents are tried again with
 * backoff until DOCUMENT_FETCH_HOURS after the events, then failed for good. Idempotent
 * (fetchDocuments.ts): a run after a crash does only what is left.
 */

export const DOCUMENT_FETCH_KIND = 'documents.fetch';
const SUBMITTED_EVENT = 'application.submitted';

/**
 * One application of a job: the fields still to do, when (ms) they are due if not now, and why
 * they were not done (a short description, never a URL or a byte).
 */
export interface FetchEntry {
  busi_water_no: string;
  fields: string[];
  at?: number;
  error?: string;
}

/** A job of a relay batch. (A job queued before batches names one application: `{ fields }`.) */
export interface FetchJobPayload {
  applications: FetchEntry[];
}

/**
 * The job's lease: one and a half DOCUMENT_TIMEOUT_MS (90 s by default). It has no way to renew
 * it, so a run starts no application, and no fetch, later than 1.25 DOCUMENT_TIMEOUT_MS before it
 * runs out: room for one whole fetch (within DOCUMENT_TIMEOUT_MS) and its writes. Its first
 * application it always starts; what it had no time or no fetch slot for is left in the payload,
 * due at once (a field whose host backs off, when it may be tried: fetchSlots.ts).
 */
const leaseMsOf = (ctx: ServiceContext) => ctx.config.documents.timeoutMs * 1.5;
const startWithinMs = (ctx: ServiceContext) => leaseMsOf(ctx) - ctx.config.documents.timeoutMs * 1.25;

/** 0.5 to 1 × min(1 h, 30 s × 2^(n-1)): spread out, never sooner than half the step. */
function backoffMs(attempts: number): number {
  const step = Math.min(3_600_000, 30_000 * 2 ** Math.min(attempts - 1, 20));
  return step / 2 + randomInt(step / 2 + 1);
}

/** The fields an event asks for: every image field at submission, the ones an amend sent again. */
function fieldsOf(event: OutboxEvent): string[] {
  return event.type === SUBMITTED_EVENT
    ? [...DOCUMENT_FIELDS]
    : (event.payload.amended_fields ?? []).filter(isDocumentField);
}

/** The applications of a batch's events, each once with the union of its fields. */
function entriesOf(events: readonly OutboxEvent[]): FetchEntry[] {
  const bySerial = new Map<string, Set<string>>();
  for (const event of events) {
    const fields = fieldsOf(event);
    if (fields.length === 0) continue;
    const held = bySerial.get(event.busi_water_no) ?? new Set();
    for (const field of fields) held.add(field);
    bySerial.set(event.busi_water_no, held);
  }
  return [...bySerial].map(([serial, fields]) => ({
    busi_water_no: serial,
    fields: DOCUMENT_FIELDS.filter((field) => fields.has(field)),
  }));
}

/** The job's applications, from either payload; undefined when it is malformed. */
function jobEntries(job: ClaimedJob): FetchEntry[] | undefined {
  const payload = job.payload as Partial<FetchJobPayload> & { fields?: unknown };
  if (Array.isArray(payload?.applications)) return payload.applications;
  if (job.busi_water_no !== null && Array.isArray(payload?.fields))
    return [{ busi_water_no: job.busi_water_no, fields: payload.fields as string[] }];
  return undefined;
}

/** A count of free places, shared by the process's runs; `take` waits for one. */
function places(count: number) {
  let free = count;
  const waiting: (() => void)[] = [];
  return {
    async take(): Promise<void> {
      if (free > 0) {
        free--;
        return;
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    },
    give(): void {
      const next = waiting.shift();
      if (next !== undefined) next();
      else free++;
    },
  };
}

/**
 * Applications being started at once in a process, over all its runs: an application holds its
 * place only while it reads its row and marks its fields pending, until its fetches are in line
 * for their slots (fetchSlots.ts), so the store sees no more of this work at once than before.
 */
const startingPlaces = places(4);

async function runFetchJob(
  ctx: ServiceContext,
  job: ClaimedJob,
  log: Logger,
  signal: AbortSignal,
): Promise<JobResult> {
  const entries = jobEntries(job);
  if (entries === undefined) return { outcome: 'failed', error: 'malformed job' };
  const giveUpAt = job.created_at + ctx.config.documents.fetchForMs;
  const started = ctx.now();
  const startBy = started + startWithinMs(ctx);
  const due = entries.filter((entry) => (entry.at ?? 0) <= started);
  const left: FetchEntry[] = entries.filter((entry) => (entry.at ?? 0) > started);
  // No fetch waits for its slot past the window: one started later might not end within the lease.
  const window = fetchSlotsOf(ctx.config.documents).window(startBy, signal);

  const fetchOne = async (entry: FetchEntry, inLine: () => void): Promise<void> => {
    /** Fields deferred without a try (no slot in time, their host backing off), and until when. */
    const deferred = new Map<string, number>();
    try {
      const run = await fetchApplicationDocuments(ctx, entry.busi_water_no, entry.fields, log, {
        giveUp: ctx.now() >= giveUpAt,
        signal,
        slots: (partner, field) => (host) => {
          inLine();
          return window.take(partner, host).catch((error: unknown) => {
            if (error instanceof FetchDeferred) deferred.set(field, error.at);
            throw error;
          });
        },
      });
      const now = ctx.now();
      // The last try is made at the give-up time itself.
      const retryAt = Math.min(now + backoffMs(job.attempts), giveUpAt);
      const failed = run.retry.filter((field) => !deferred.has(field));
      if (failed.length > 0)
        left.push({
          busi_water_no: entry.busi_water_no,
          fields: failed,
          at: retryAt,
          error: run.lastError ?? 'unreachable',
        });
      const putOff = run.retry.filter((field) => deferred.has(field));
      if (putOff.length === 0) return;
      // No slot in time: due at once. A host backing off: not before its backoff ends, nor before
      // a try that had failed would have come again (a down host costs no more runs than before).
      const at = Math.min(...putOff.map((field) => deferred.get(field)!));
      left.push(
        at === 0
          ? { busi_water_no: entry.busi_water_no, fields: putOff }
          : {
              busi_water_no: entry.busi_water_no,
              fields: putOff,
              at: Math.max(at, retryAt),
              error: 'deferred: the host backs off',
            },
      );
    } catch (error) {
      // Stopped by the runner: not the document's fault; due again at once.
      if (signal.aborted) {
        left.push({ busi_water_no: entry.busi_water_no, fields: entry.fields });
        return;
      }
      // Not the document's (the store, say): this application alone is tried again later.
      log.warn({ busi_water_no: entry.busi_water_no, err: describe(error) }, 'documents not fetched');
      left.push({ ...entry, at: ctx.now() + backoffMs(job.attempts), error: 'internal error' });
    }
  };

  // Every due application waits for its place (applicationPlacesOf: shared by partner, in turn)
  // at once, so none waits behind another's slow hosts, and is started when it has one; its
  // fetches then wait for their slots. A place not had within the window: left for the next run,
  // untried. Stopping: what is left waits for the job's next run.
  const places = applicationPlacesOf(ctx.config.documents).window(startBy, signal);
  const partners = await partnersOf(
    ctx.store.db,
    due.map((entry) => entry.busi_water_no),
  );
  const startOne = async (entry: FetchEntry): Promise<void> => {
    let place: Slot;
    try {
      place = await places.take(partners.get(entry.busi_water_no) ?? '', '');
    } catch {
      left.push(signal.aborted ? { busi_water_no: entry.busi_water_no, fields: entry.fields } : entry);
      return;
    }
    try {
      // Four at once read their rows and mark their fields pending, each a turn apart (SQLite's
      // calls are synchronous: requests are answered between them).
      await startingPlaces.take();
      let given = false;
      const give = () => {
        if (given) return;
        given = true;
        startingPlaces.give();
      };
      try {
        await scheduler.yield();
        await fetchOne(entry, give);
      } finally {
        give();
      }
    } finally {
      place.release('neither');
    }
  };
  try {
    await Promise.all(due.map(startOne));
  } finally {
    places.close();
    window.close();
  }

  if (left.length === 0) return { outcome: 'done' };
  const now = ctx.now();
  const at = Math.min(...left.map((entry) => entry.at ?? now));
  const error = signal.aborted ? 'interrupted' : (left.find((entry) => entry.error)?.error ?? 'continued');
  const payload: FetchJobPayload = { applications: left };
  return { outcome: 'retry', at, error, payload };
}

export const documentFetchJob: JobKind = {
  kind: DOCUMENT_FETCH_KIND,
  // Jobs at once per runner: more than the four of other kinds, since a run mostly waits (for its
  // fetch slots, or a slow host) and one partner's runs must not hold every place while another's
  // job waits unclaimed; what runs at once is bounded by the fetch slots (fetchSlots.ts).
  concurrency: 8,
  // Longer than a run can take, and no longer: a process that died holding the job leaves it for
  // this long (90 s by default). A run starts no application in its last 1.25 DOCUMENT_TIMEOUT_MS.
  leaseMs: leaseMsOf,
  onEvents: {
    types: [SUBMITTED_EVENT, AMENDED_EVENT],
    jobsFor(events) {
      const applications = entriesOf(events);
      if (applications.length === 0) return [];
      const payload: FetchJobPayload = { applications };
      return [
        {
          kind: DOCUMENT_FETCH_KIND,
          // Unique: each event is fanned out in one committed batch only.
          key: events.find((event) => fieldsOf(event).length > 0)!.event_id,
          busi_water_no: applications.length === 1 ? applications[0]!.busi_water_no : null,
          payload,
        },
      ];
    },
  },
  run: runFetchJob,
};

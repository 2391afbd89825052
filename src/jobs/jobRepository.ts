import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Store } from '../store/store.ts';
import type { Database } from '../store/tables.ts';
import type { ClaimedJob, JobResult, JobSpec } from './jobQueue.ts';

/**
 * Queries over the jobs table: queue (in the caller's transaction), claim under a lease, complete,
 * the latest of a kind, and pruning the finished ones. What a job and a kind are is jobQueue.ts's.
 */

/** Queues jobs inside the caller's transaction (or on their own); a known key is left as it is. */
export async function enqueueJobs(
  db: Kysely<Database>,
  jobs: readonly JobSpec[],
  now: number,
): Promise<void> {
  if (jobs.length === 0) return;
  await db
    .insertInto('jobs')
    .values(
      jobs.map((job) => ({
        id: `job_${randomUUID()}`,
        kind: job.kind,
        job_key: job.key,
        busi_water_no: job.busi_water_no ?? null,
        payload: job.payload === undefined ? null : JSON.stringify(job.payload),
        status: 'pending' as const,
        attempts: 0,
        run_at: job.runAt ?? now,
        lease_until: null,
        leased_by: null,
        give_up_at: job.giveUpAt ?? null,
        last_error: null,
        created_at: now,
        updated_at: now,
        finished_at: null,
      })),
    )
    .onConflict((oc) => oc.columns(['kind', 'job_key']).doNothing())
    .execute();
}

/**
 * Takes up to `limit` due jobs of one kind: pending ones whose time has come, and running ones whose
 * lease ran out (their runner died). Each is leased to `workerId` until `now + leaseMs`.
 */
export async function claimJobs(
  store: Store,
  options: { kind: string; workerId: string; now: number; leaseMs: number; limit: number },
): Promise<ClaimedJob[]> {
  const { kind, workerId, now, leaseMs, limit } = options;
  const due = (db: Kysely<Database>) =>
    db
      .selectFrom('jobs')
      .where('kind', '=', kind)
      .where('status', 'in', ['pending', 'running'])
      .where('run_at', '<=', now);
  // A read first, so that an idle runner does not take SQLite's write lock on every poll.
  if ((await due(store.db).select('id').limit(1).executeTakeFirst()) === undefined) return [];
  return store.transaction(async (trx) => {
    const query = due(trx)
      .select(['id', 'kind', 'job_key', 'busi_water_no', 'payload', 'attempts', 'created_at', 'give_up_at'])
      .orderBy('run_at')
      .limit(limit);
    const rows = await store.skipLocked(query).execute();
    if (rows.length === 0) return [];
    const leaseUntil = now + leaseMs;
    await trx
      .updateTable('jobs')
      .set((eb) => ({
        status: 'running',
        attempts: eb('attempts', '+', 1),
        run_at: leaseUntil,
        lease_until: leaseUntil,
        leased_by: workerId,
        updated_at: now,
      }))
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      key: row.job_key,
      busi_water_no: row.busi_water_no,
      payload: row.payload === null ? null : (JSON.parse(row.payload) as unknown),
      attempts: row.attempts + 1,
      created_at: row.created_at,
      give_up_at: row.give_up_at,
    }));
  });
}

/**
 * Records how a run ended, if this runner still holds the job's lease (false when it ran out and
 * another runner took the job over: that runner's result counts). A retry past `give_up_at` fails.
 */
export async function completeJob(
  store: Store,
  job: { id: string; workerId: string; giveUpAt: number | null },
  result: JobResult,
  now: number,
): Promise<boolean> {
  const gaveUp = result.outcome === 'retry' && job.giveUpAt !== null && result.at > job.giveUpAt;
  const error = result.outcome === 'done' ? null : (result.error ?? null);
  const finished = result.outcome !== 'retry' || gaveUp;
  const updated = await store.db
    .updateTable('jobs')
    .set({
      status: finished ? (result.outcome === 'done' ? 'done' : 'failed') : 'pending',
      run_at: result.outcome === 'retry' && !gaveUp ? result.at : now,
      lease_until: null,
      leased_by: null,
      last_error: error === null ? null : error.slice(0, 500),
      updated_at: now,
      finished_at: finished ? now : null,
      ...(result.outcome !== 'failed' && result.payload !== undefined
        ? { payload: JSON.stringify(result.payload) }
        : {}),
    })
    .where('id', '=', job.id)
    .where('status', '=', 'running')
    .where('leased_by', '=', job.workerId)
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

/** The latest jobs of a kind, newest first: for a status page. */
export async function latestJobsOf(db: Kysely<Database>, kind: string, limit: number) {
  return db
    .selectFrom('jobs')
    .select(['job_key', 'status', 'payload'])
    .where('kind', '=', kind)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

/** Deletes finished jobs older than `before` (ms), at most `limit`; returns how many. */
export async function pruneFinishedJobs(store: Store, before: number, limit: number): Promise<number> {
  const old = await store.db
    .selectFrom('jobs')
    .select('id')
    .where('finished_at', 'is not', null)
    .where('finished_at', '<', before)
    .limit(limit)
    .execute();
  if (old.length === 0) return 0;
  await store.db
    .deleteFrom('jobs')
    .where(
      'id',
      'in',
      old.map((row) => row.id),
    )
    .execute();
  return old.length;
}

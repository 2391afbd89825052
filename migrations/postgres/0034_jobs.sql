-- Durable background jobs of the service (fetching documents, screening, re-screens). A job is queued
-- by the outbox relay in the same transaction that fans its event out (so it exists exactly when the
-- change that asked for it is committed), or directly inside another change's transaction. Runners
-- claim due jobs with SKIP LOCKED under a lease; a runner that dies leaves a lease that runs out.
CREATE TABLE jobs (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  -- Unique per kind: a relay that runs twice queues nothing twice.
  job_key TEXT NOT NULL,
  busi_water_no TEXT,
  -- JSON; never identity data in the clear.
  payload TEXT,
  status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'done', 'failed')),
  attempts INTEGER NOT NULL,
  -- When it may be claimed: the next try, or the end of the lease while running.
  run_at BIGINT NOT NULL,
  lease_until BIGINT,
  leased_by TEXT,
  -- A job that asks to run again after this fails for good.
  give_up_at BIGINT,
  last_error TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  finished_at BIGINT,
  UNIQUE (kind, job_key)
);
-- Only unfinished jobs are indexed for claiming, so the index stays as small as the backlog.
CREATE INDEX jobs_due ON jobs (kind, run_at) WHERE status IN ('pending', 'running');
CREATE INDEX jobs_application ON jobs (busi_water_no) WHERE busi_water_no IS NOT NULL;
CREATE INDEX jobs_finished ON jobs (finished_at) WHERE finished_at IS NOT NULL;

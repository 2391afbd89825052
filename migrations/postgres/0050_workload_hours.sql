-- Issue 28: the workload's hourly backlog (arrivals and decisions per hour of the last seven days)
-- from counters kept by triggers in the transaction of every change, so that the page reads at
-- most 168 hours of a few rows each instead of a week of applications and transitions.
-- `hour` is the Unix hour (milliseconds / 3600000). Each connection adds to its own shard (its
-- backend pid modulo 16), as in application_counts (0036); an hour is the sum of its shards.
--
-- Only hours of the last eight days are kept: a change to an application created, or a decision
-- taken, earlier than that touches no counter (the backlog never reads it), so the fill below reads
-- eight days through the indexes on created_at and (to_status, at), not the whole history.
CREATE TABLE workload_hours (
  hour BIGINT NOT NULL,
  shard SMALLINT NOT NULL,
  arrivals BIGINT NOT NULL DEFAULT 0,
  decisions BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (hour, shard)
);

-- The earliest time whose hour is still kept (milliseconds): eight days before now.
CREATE FUNCTION workload_hours_since() RETURNS BIGINT LANGUAGE sql STABLE
  AS $$ SELECT (extract(epoch FROM now()) * 1000)::bigint - 691200000 $$;

-- No writes meanwhile: the counters start from exactly what is stored.
LOCK TABLE applications, application_transitions IN SHARE ROW EXCLUSIVE MODE;
INSERT INTO workload_hours (hour, shard, arrivals)
  SELECT created_at / 3600000, 0, count(*) FROM applications
   WHERE created_at >= workload_hours_since() GROUP BY 1;
INSERT INTO workload_hours (hour, shard, decisions)
  SELECT at / 3600000, 0, count(*) FROM application_transitions
   WHERE to_status IN ('APPROVED', 'REJECTED') AND at >= workload_hours_since() GROUP BY 1
  ON CONFLICT (hour, shard) DO UPDATE SET decisions = EXCLUDED.decisions;

-- SET search_path FROM CURRENT: the migration's schema, since the service sets none. Each trigger
-- names only the transition tables its operation has.
CREATE FUNCTION workload_arrivals_add() RETURNS trigger LANGUAGE plpgsql
  SET search_path FROM CURRENT AS $$
DECLARE
  since CONSTANT BIGINT := workload_hours_since();
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO workload_hours (hour, shard, arrivals)
      SELECT created_at / 3600000, pg_backend_pid() % 16, count(*) FROM new_rows
       WHERE created_at >= since GROUP BY 1
      ON CONFLICT (hour, shard) DO UPDATE SET arrivals = workload_hours.arrivals + EXCLUDED.arrivals;
  ELSIF TG_OP = 'UPDATE' THEN
    -- Only a change of created_at moves an arrival (never, but for repairs and tests).
    INSERT INTO workload_hours (hour, shard, arrivals)
      SELECT h, pg_backend_pid() % 16, sum(d) FROM (
          SELECT o.created_at / 3600000 AS h, -1 AS d FROM old_rows o JOIN new_rows c USING (busi_water_no)
           WHERE o.created_at <> c.created_at AND o.created_at >= since
          UNION ALL
          SELECT c.created_at / 3600000, 1 FROM old_rows o JOIN new_rows c USING (busi_water_no)
           WHERE o.created_at <> c.created_at AND c.created_at >= since
        ) AS changes GROUP BY h
      ON CONFLICT (hour, shard) DO UPDATE SET arrivals = workload_hours.arrivals + EXCLUDED.arrivals;
  ELSE
    INSERT INTO workload_hours (hour, shard, arrivals)
      SELECT created_at / 3600000, pg_backend_pid() % 16, -count(*) FROM old_rows
       WHERE created_at >= since GROUP BY 1
      ON CONFLICT (hour, shard) DO UPDATE SET arrivals = workload_hours.arrivals + EXCLUDED.arrivals;
  END IF;
  RETURN NULL;
END
$$;

CREATE FUNCTION workload_decisions_add() RETURNS trigger LANGUAGE plpgsql
  SET search_path FROM CURRENT AS $$
DECLARE
  since CONSTANT BIGINT := workload_hours_since();
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO workload_hours (hour, shard, decisions)
      SELECT at / 3600000, pg_backend_pid() % 16, count(*) FROM new_rows
       WHERE to_status IN ('APPROVED', 'REJECTED') AND at >= since GROUP BY 1
      ON CONFLICT (hour, shard) DO UPDATE SET decisions = workload_hours.decisions + EXCLUDED.decisions;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO workload_hours (hour, shard, decisions)
      SELECT h, pg_backend_pid() % 16, sum(d) FROM (
          SELECT at / 3600000 AS h, -1 AS d FROM old_rows
           WHERE to_status IN ('APPROVED', 'REJECTED') AND at >= since
          UNION ALL
          SELECT at / 3600000, 1 FROM new_rows
           WHERE to_status IN ('APPROVED', 'REJECTED') AND at >= since
        ) AS changes GROUP BY h
      ON CONFLICT (hour, shard) DO UPDATE SET decisions = workload_hours.decisions + EXCLUDED.decisions;
  ELSE
    INSERT INTO workload_hours (hour, shard, decisions)
      SELECT at / 3600000, pg_backend_pid() % 16, -count(*) FROM old_rows
       WHERE to_status IN ('APPROVED', 'REJECTED') AND at >= since GROUP BY 1
      ON CONFLICT (hour, shard) DO UPDATE SET decisions = workload_hours.decisions + EXCLUDED.decisions;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER workload_arrivals_insert AFTER INSERT ON applications
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION workload_arrivals_add();
CREATE TRIGGER workload_arrivals_update AFTER UPDATE ON applications
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION workload_arrivals_add();
CREATE TRIGGER workload_arrivals_delete AFTER DELETE ON applications
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION workload_arrivals_add();
CREATE TRIGGER workload_decisions_insert AFTER INSERT ON application_transitions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION workload_decisions_add();
CREATE TRIGGER workload_decisions_update AFTER UPDATE ON application_transitions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION workload_decisions_add();
CREATE TRIGGER workload_decisions_delete AFTER DELETE ON application_transitions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION workload_decisions_add();

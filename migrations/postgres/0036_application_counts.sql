-- Issue 28: how many applications each app has in each status, kept by triggers in the
-- transaction of every change, so that counts per status and the workload read a few rows
-- instead of aggregating every application ever stored. Statement triggers: a batch of
-- submissions adds one row per app and status, not one per submission. Each connection adds to
-- its own shard (its backend pid modulo 16), so that concurrent transactions do not queue on one
-- counter row until they commit; a count is the sum of the shards.
--
-- A store that applied this file before it filled in batches (in one statement, under a lock on
-- applications) keeps its complete counts and its triggers without `below`: the runner records
-- versions, not checksums, so it never applies this file again there.
CREATE TABLE application_counts (
  app_id TEXT NOT NULL,
  status TEXT NOT NULL,
  shard SMALLINT NOT NULL,
  n BIGINT NOT NULL,
  PRIMARY KEY (app_id, status, shard)
);

-- Filled after this migration in short batches, newest first, that writers can pass between
-- (src/store/counterFills.ts), instead of one statement that would hold them for the whole table
-- (1.2 s at 1,000,000 applications): the triggers count the applications created at or after
-- `below`, and each batch counts those just under it and lowers it, under a lock as short as the
-- batch. Done when `below` is lower than any key. IF NOT EXISTS: 0051 creates it too, for stores
-- that applied this file before it had it.
CREATE TABLE IF NOT EXISTS counter_fills (
  name TEXT PRIMARY KEY,
  below BIGINT NOT NULL
);
INSERT INTO counter_fills (name, below) VALUES ('application_counts', 9223372036854775807);

-- SET search_path FROM CURRENT: the migration's schema, since the service sets none. An update
-- changes a count when it changes the status, or moves the row across `below` (created_at).
CREATE FUNCTION application_counts_add() RETURNS trigger LANGUAGE plpgsql
  SET search_path FROM CURRENT AS $$
DECLARE
  filled CONSTANT BIGINT := (SELECT below FROM counter_fills WHERE name = 'application_counts');
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO application_counts (app_id, status, shard, n)
      SELECT app_id, status, pg_backend_pid() % 16, count(*) FROM new_rows
       WHERE created_at >= filled GROUP BY app_id, status
      ON CONFLICT (app_id, status, shard) DO UPDATE SET n = application_counts.n + EXCLUDED.n;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO application_counts (app_id, status, shard, n)
      SELECT app_id, status, pg_backend_pid() % 16, sum(d) FROM (
          SELECT o.app_id, o.status, -1 AS d FROM old_rows o JOIN new_rows c USING (busi_water_no)
           WHERE (o.status <> c.status OR (o.created_at >= filled) <> (c.created_at >= filled))
             AND o.created_at >= filled
          UNION ALL
          SELECT c.app_id, c.status, 1 FROM old_rows o JOIN new_rows c USING (busi_water_no)
           WHERE (o.status <> c.status OR (o.created_at >= filled) <> (c.created_at >= filled))
             AND c.created_at >= filled
        ) AS changes GROUP BY app_id, status
      ON CONFLICT (app_id, status, shard) DO UPDATE SET n = application_counts.n + EXCLUDED.n;
  ELSE
    INSERT INTO application_counts (app_id, status, shard, n)
      SELECT app_id, status, pg_backend_pid() % 16, -count(*) FROM old_rows
       WHERE created_at >= filled GROUP BY app_id, status
      ON CONFLICT (app_id, status, shard) DO UPDATE SET n = application_counts.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER application_counts_insert AFTER INSERT ON applications
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION application_counts_add();
CREATE TRIGGER application_counts_update AFTER UPDATE ON applications
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION application_counts_add();
CREATE TRIGGER application_counts_delete AFTER DELETE ON applications
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION application_counts_add();

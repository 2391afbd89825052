-- Issue 28: how many applications each app has in each status per day of creation (the Unix day,
-- milliseconds / 86400000), kept by triggers in the transaction of every change, so that counts
-- with a creation range read the range's whole days from here and only the partial days at its
-- ends from the applications themselves. Sharded per connection as application_counts (0036).
CREATE TABLE application_days (
  app_id TEXT NOT NULL,
  day INTEGER NOT NULL,
  status TEXT NOT NULL,
  shard SMALLINT NOT NULL,
  n BIGINT NOT NULL,
  PRIMARY KEY (app_id, day, status, shard)
);
-- Every app's days, for counts without an app.
CREATE INDEX application_days_day ON application_days (day, status);

-- Filled after this migration in short batches, newest first, that writers can pass between
-- (src/store/counterFills.ts), instead of one statement that would hold them for the whole table:
-- the triggers count the applications created at or after `below`, and each batch counts those
-- just under it and lowers it, under a lock as short as the batch. Done when `below` is lower than
-- any key. IF NOT EXISTS: 0036 creates it on stores that applied it after it filled in batches.
CREATE TABLE IF NOT EXISTS counter_fills (
  name TEXT PRIMARY KEY,
  below BIGINT NOT NULL
);
INSERT INTO counter_fills (name, below) VALUES ('application_days', 9223372036854775807);

-- SET search_path FROM CURRENT: the migration's schema, since the service sets none. Each branch
-- names only the transition tables its operation has.
CREATE FUNCTION application_days_add() RETURNS trigger LANGUAGE plpgsql
  SET search_path FROM CURRENT AS $$
DECLARE
  filled CONSTANT BIGINT := (SELECT below FROM counter_fills WHERE name = 'application_days');
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO application_days (app_id, day, status, shard, n)
      SELECT app_id, created_at / 86400000, status, pg_backend_pid() % 16, count(*) FROM new_rows
       WHERE created_at >= filled GROUP BY 1, 2, 3
      ON CONFLICT (app_id, day, status, shard) DO UPDATE SET n = application_days.n + EXCLUDED.n;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO application_days (app_id, day, status, shard, n)
      SELECT app_id, day, status, pg_backend_pid() % 16, sum(d) FROM (
          SELECT o.app_id, o.created_at / 86400000 AS day, o.status, -1 AS d
            FROM old_rows o JOIN new_rows c USING (busi_water_no)
           WHERE (o.status <> c.status OR o.created_at <> c.created_at) AND o.created_at >= filled
          UNION ALL
          SELECT c.app_id, c.created_at / 86400000, c.status, 1
            FROM old_rows o JOIN new_rows c USING (busi_water_no)
           WHERE (o.status <> c.status OR o.created_at <> c.created_at) AND c.created_at >= filled
        ) AS changes GROUP BY 1, 2, 3
      ON CONFLICT (app_id, day, status, shard) DO UPDATE SET n = application_days.n + EXCLUDED.n;
  ELSE
    INSERT INTO application_days (app_id, day, status, shard, n)
      SELECT app_id, created_at / 86400000, status, pg_backend_pid() % 16, -count(*) FROM old_rows
       WHERE created_at >= filled GROUP BY 1, 2, 3
      ON CONFLICT (app_id, day, status, shard) DO UPDATE SET n = application_days.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER application_days_insert AFTER INSERT ON applications
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION application_days_add();
CREATE TRIGGER application_days_update AFTER UPDATE ON applications
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION application_days_add();
CREATE TRIGGER application_days_delete AFTER DELETE ON applications
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION application_days_add();

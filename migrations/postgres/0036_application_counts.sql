-- Issue 28: how many applications each app has in each status, kept by triggers in the
-- transaction of every change, so that counts per status and the workload read a few rows
-- instead of aggregating every application ever stored. Statement triggers: a batch of
-- submissions adds one row per app and status, not one per submission. Each connection adds to
-- its own shard (its backend pid modulo 16), so that concurrent transactions do not queue on one
-- counter row until they commit; a count is the sum of the shards.
CREATE TABLE application_counts (
  app_id TEXT NOT NULL,
  status TEXT NOT NULL,
  shard SMALLINT NOT NULL,
  n BIGINT NOT NULL,
  PRIMARY KEY (app_id, status, shard)
);

-- No writes meanwhile: the counts start from exactly what is stored.
LOCK TABLE applications IN SHARE ROW EXCLUSIVE MODE;
INSERT INTO application_counts (app_id, status, shard, n)
  SELECT app_id, status, 0, count(*) FROM applications GROUP BY app_id, status;

-- SET search_path FROM CURRENT: the migration's schema, since the service sets none.
CREATE FUNCTION application_counts_add() RETURNS trigger LANGUAGE plpgsql
  SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO application_counts (app_id, status, shard, n)
      SELECT app_id, status, pg_backend_pid() % 16, count(*) FROM new_rows GROUP BY app_id, status
      ON CONFLICT (app_id, status, shard) DO UPDATE SET n = application_counts.n + EXCLUDED.n;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO application_counts (app_id, status, shard, n)
      SELECT app_id, status, pg_backend_pid() % 16, sum(d) FROM (
          SELECT o.app_id, o.status, -1 AS d FROM old_rows o JOIN new_rows c USING (busi_water_no)
           WHERE o.status <> c.status
          UNION ALL
          SELECT c.app_id, c.status, 1 FROM old_rows o JOIN new_rows c USING (busi_water_no)
           WHERE o.status <> c.status
        ) AS changes GROUP BY app_id, status
      ON CONFLICT (app_id, status, shard) DO UPDATE SET n = application_counts.n + EXCLUDED.n;
  ELSE
    INSERT INTO application_counts (app_id, status, shard, n)
      SELECT app_id, status, pg_backend_pid() % 16, -count(*) FROM old_rows GROUP BY app_id, status
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

-- Issue 28: how many applications each app has in each status, kept by triggers in the
-- transaction of every change, so that counts per status and the workload read a few rows
-- instead of aggregating every application ever stored.
CREATE TABLE application_counts (
  app_id TEXT NOT NULL,
  status TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (app_id, status)
) STRICT, WITHOUT ROWID;

INSERT INTO application_counts (app_id, status, n)
  SELECT app_id, status, count(*) FROM applications GROUP BY app_id, status;

CREATE TRIGGER application_counts_insert AFTER INSERT ON applications BEGIN
  INSERT INTO application_counts (app_id, status, n) VALUES (NEW.app_id, NEW.status, 1)
    ON CONFLICT (app_id, status) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER application_counts_update AFTER UPDATE OF status ON applications
  WHEN OLD.status <> NEW.status BEGIN
  UPDATE application_counts SET n = n - 1 WHERE app_id = OLD.app_id AND status = OLD.status;
  INSERT INTO application_counts (app_id, status, n) VALUES (NEW.app_id, NEW.status, 1)
    ON CONFLICT (app_id, status) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER application_counts_delete AFTER DELETE ON applications BEGIN
  UPDATE application_counts SET n = n - 1 WHERE app_id = OLD.app_id AND status = OLD.status;
END;

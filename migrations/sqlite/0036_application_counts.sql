-- Issue 28: how many applications each app has in each status, kept by triggers in the
-- transaction of every change, so that counts per status and the workload read a few rows
-- instead of aggregating every application ever stored.
--
-- A store that applied this file before it filled in batches (in one statement, under the write
-- lock) keeps its complete counts and its triggers without `below`: the runner records versions,
-- not checksums, so it never applies this file again there.
CREATE TABLE application_counts (
  app_id TEXT NOT NULL,
  status TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (app_id, status)
) STRICT, WITHOUT ROWID;

-- Filled after this migration in short batches, newest first, that writers can pass between
-- (src/store/counterFills.ts), instead of one statement that would hold the write lock for the
-- whole table (1.8 s at 1,000,000 applications): the triggers count the applications created at
-- or after `below`, and each batch counts those just under it and lowers it. Done when `below` is
-- lower than any key. IF NOT EXISTS: 0051 creates it too, for stores that applied this file before
-- it had it.
CREATE TABLE IF NOT EXISTS counter_fills (
  name TEXT PRIMARY KEY,
  below INTEGER NOT NULL
) STRICT;
INSERT INTO counter_fills (name, below) VALUES ('application_counts', 9223372036854775807);

CREATE TRIGGER application_counts_insert AFTER INSERT ON applications
  WHEN NEW.created_at >= (SELECT below FROM counter_fills WHERE name = 'application_counts') BEGIN
  INSERT INTO application_counts (app_id, status, n) VALUES (NEW.app_id, NEW.status, 1)
    ON CONFLICT (app_id, status) DO UPDATE SET n = n + 1;
END;

-- A count changes when the status does, or when created_at moves the row across `below`.
CREATE TRIGGER application_counts_update AFTER UPDATE OF status, created_at ON applications
  WHEN OLD.status <> NEW.status
    OR (OLD.created_at >= (SELECT below FROM counter_fills WHERE name = 'application_counts'))
       <> (NEW.created_at >= (SELECT below FROM counter_fills WHERE name = 'application_counts')) BEGIN
  UPDATE application_counts SET n = n - 1
   WHERE app_id = OLD.app_id AND status = OLD.status
     AND OLD.created_at >= (SELECT below FROM counter_fills WHERE name = 'application_counts');
  INSERT INTO application_counts (app_id, status, n)
    SELECT NEW.app_id, NEW.status, 1
     WHERE NEW.created_at >= (SELECT below FROM counter_fills WHERE name = 'application_counts')
    ON CONFLICT (app_id, status) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER application_counts_delete AFTER DELETE ON applications
  WHEN OLD.created_at >= (SELECT below FROM counter_fills WHERE name = 'application_counts') BEGIN
  UPDATE application_counts SET n = n - 1 WHERE app_id = OLD.app_id AND status = OLD.status;
END;

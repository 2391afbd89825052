-- Issue 28: how many applications each app has in each status per day of creation (the Unix day,
-- milliseconds / 86400000), kept by triggers in the transaction of every change, so that counts
-- with a creation range read the range's whole days from here and only the partial days at its
-- ends from the applications themselves.
CREATE TABLE application_days (
  app_id TEXT NOT NULL,
  day INTEGER NOT NULL,
  status TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (app_id, day, status)
) STRICT, WITHOUT ROWID;
-- Every app's days, for counts without an app.
CREATE INDEX application_days_day ON application_days (day, status);

-- Filled after this migration in short batches, newest first, that writers can pass between
-- (src/store/counterFills.ts), instead of one statement that would hold the write lock for the
-- whole table: the triggers count the applications created at or after `below`, and each batch
-- counts those just under it and lowers it. Done when `below` is lower than any key. IF NOT EXISTS:
-- 0036 creates it on stores that applied it after it filled in batches.
CREATE TABLE IF NOT EXISTS counter_fills (
  name TEXT PRIMARY KEY,
  below INTEGER NOT NULL
) STRICT;
INSERT INTO counter_fills (name, below) VALUES ('application_days', 9223372036854775807);

CREATE TRIGGER application_days_insert AFTER INSERT ON applications
  WHEN NEW.created_at >= (SELECT below FROM counter_fills WHERE name = 'application_days') BEGIN
  INSERT INTO application_days (app_id, day, status, n)
    VALUES (NEW.app_id, NEW.created_at / 86400000, NEW.status, 1)
    ON CONFLICT (app_id, day, status) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER application_days_update AFTER UPDATE OF status, created_at ON applications
  WHEN OLD.status <> NEW.status OR OLD.created_at <> NEW.created_at BEGIN
  UPDATE application_days SET n = n - 1
   WHERE app_id = OLD.app_id AND day = OLD.created_at / 86400000 AND status = OLD.status
     AND OLD.created_at >= (SELECT below FROM counter_fills WHERE name = 'application_days');
  INSERT INTO application_days (app_id, day, status, n)
    SELECT NEW.app_id, NEW.created_at / 86400000, NEW.status, 1
     WHERE NEW.created_at >= (SELECT below FROM counter_fills WHERE name = 'application_days')
    ON CONFLICT (app_id, day, status) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER application_days_delete AFTER DELETE ON applications
  WHEN OLD.created_at >= (SELECT below FROM counter_fills WHERE name = 'application_days') BEGIN
  UPDATE application_days SET n = n - 1
   WHERE app_id = OLD.app_id AND day = OLD.created_at / 86400000 AND status = OLD.status;
END;

-- Issue 28: the workload's hourly backlog (arrivals and decisions per hour of the last seven days)
-- from counters kept by triggers in the transaction of every change, so that the page reads at
-- most 168 rows instead of a week of applications and transitions. `hour` is the Unix hour
-- (milliseconds / 3600000).
--
-- Only hours of the last eight days are kept: a change to an application created, or a decision
-- taken, earlier than that touches no counter (the backlog never reads it), so the fill below reads
-- eight days through the indexes on created_at and (to_status, at), not the whole history.
CREATE TABLE workload_hours (
  hour INTEGER PRIMARY KEY,
  arrivals INTEGER NOT NULL DEFAULT 0,
  decisions INTEGER NOT NULL DEFAULT 0
) STRICT;

INSERT INTO workload_hours (hour, arrivals)
  SELECT created_at / 3600000, count(*) FROM applications
   WHERE created_at >= unixepoch() * 1000 - 691200000 GROUP BY 1;
INSERT INTO workload_hours (hour, decisions)
  SELECT at / 3600000, count(*) FROM application_transitions
   WHERE to_status IN ('APPROVED', 'REJECTED') AND at >= unixepoch() * 1000 - 691200000 GROUP BY 1
   ON CONFLICT (hour) DO UPDATE SET decisions = excluded.decisions;

CREATE TRIGGER workload_arrivals_insert AFTER INSERT ON applications
  WHEN NEW.created_at >= unixepoch() * 1000 - 691200000 BEGIN
  INSERT INTO workload_hours (hour, arrivals) VALUES (NEW.created_at / 3600000, 1)
    ON CONFLICT (hour) DO UPDATE SET arrivals = arrivals + 1;
END;

-- Only a change of created_at moves an arrival (never, but for repairs and tests).
CREATE TRIGGER workload_arrivals_update AFTER UPDATE OF created_at ON applications
  WHEN OLD.created_at <> NEW.created_at BEGIN
  UPDATE workload_hours SET arrivals = arrivals - 1
   WHERE hour = OLD.created_at / 3600000 AND OLD.created_at >= unixepoch() * 1000 - 691200000;
  INSERT INTO workload_hours (hour, arrivals)
    SELECT NEW.created_at / 3600000, 1 WHERE NEW.created_at >= unixepoch() * 1000 - 691200000
    ON CONFLICT (hour) DO UPDATE SET arrivals = arrivals + 1;
END;

CREATE TRIGGER workload_arrivals_delete AFTER DELETE ON applications
  WHEN OLD.created_at >= unixepoch() * 1000 - 691200000 BEGIN
  UPDATE workload_hours SET arrivals = arrivals - 1 WHERE hour = OLD.created_at / 3600000;
END;

CREATE TRIGGER workload_decisions_insert AFTER INSERT ON application_transitions
  WHEN NEW.to_status IN ('APPROVED', 'REJECTED') AND NEW.at >= unixepoch() * 1000 - 691200000 BEGIN
  INSERT INTO workload_hours (hour, decisions) VALUES (NEW.at / 3600000, 1)
    ON CONFLICT (hour) DO UPDATE SET decisions = decisions + 1;
END;

CREATE TRIGGER workload_decisions_update AFTER UPDATE OF to_status, at ON application_transitions BEGIN
  UPDATE workload_hours SET decisions = decisions - 1
   WHERE hour = OLD.at / 3600000 AND OLD.to_status IN ('APPROVED', 'REJECTED')
     AND OLD.at >= unixepoch() * 1000 - 691200000;
  INSERT INTO workload_hours (hour, decisions)
    SELECT NEW.at / 3600000, 1
     WHERE NEW.to_status IN ('APPROVED', 'REJECTED') AND NEW.at >= unixepoch() * 1000 - 691200000
    ON CONFLICT (hour) DO UPDATE SET decisions = decisions + 1;
END;

CREATE TRIGGER workload_decisions_delete AFTER DELETE ON application_transitions
  WHEN OLD.to_status IN ('APPROVED', 'REJECTED') AND OLD.at >= unixepoch() * 1000 - 691200000 BEGIN
  UPDATE workload_hours SET decisions = decisions - 1 WHERE hour = OLD.at / 3600000;
END;

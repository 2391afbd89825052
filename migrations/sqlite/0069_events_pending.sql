-- Insert-only events (issue 22): the fan-out's to-do list moves out of the events into a table of
-- its own, so that an event is written once and never updated (migrations/postgres/0069 says why
-- and how the versions share it in a rolling deploy). Events of this version are written with
-- fanned_out_at = -1, "pending in events_pending"; those of the earlier version with null.
CREATE TABLE events_pending (
  created_at INTEGER NOT NULL,
  event_id TEXT NOT NULL,
  PRIMARY KEY (created_at, event_id)
) WITHOUT ROWID;

CREATE TRIGGER events_pending_add AFTER INSERT ON events
  WHEN NEW.fanned_out_at IS NULL OR NEW.fanned_out_at = -1 BEGIN
  INSERT INTO events_pending (created_at, event_id) VALUES (NEW.created_at, NEW.event_id);
END;

INSERT INTO events_pending (created_at, event_id)
  SELECT created_at, event_id FROM events WHERE fanned_out_at IS NULL;

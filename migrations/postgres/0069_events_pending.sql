-- Insert-only events (issue 22): the fan-out's to-do list moves out of the events into a table of
-- its own. Marking an event fanned out was an update of fanned_out_at, a column the partial index
-- events_fanout_pending names, so it was never a HOT update: a new version of the event's row and
-- an entry in each of its four other indexes, for every event. Now an event is written once; the
-- fan-out deletes its row here instead (one narrow row and one index entry, both short-lived).
--
-- This version writes its events with fanned_out_at = -1 ("pending in events_pending"), which an
-- instance of the earlier version (a rolling deploy) never claims (it claims fanned_out_at IS NULL)
-- and which the partial index leaves out. An event the earlier version writes (null) is pending here
-- as well; whichever version's fan-out sets its fanned_out_at first (under the row's lock) fans it
-- out, and the other passes over it (src/events/eventRepository.ts, claimNewEvents).
--
-- No foreign key to events: its check would lock each event's row (FOR KEY SHARE) at every insert,
-- and nothing deletes a pending event; a pending row without its event is dropped by the fan-out.
-- The primary key is the claim's order, so the table has one index.
CREATE TABLE events_pending (
  created_at BIGINT NOT NULL,
  event_id TEXT NOT NULL,
  PRIMARY KEY (created_at, event_id)
);

-- Once per statement, so a batch of submissions adds its pending rows in one insert.
CREATE FUNCTION events_pending_add() RETURNS trigger LANGUAGE plpgsql
  SET search_path FROM CURRENT AS $$
BEGIN
  INSERT INTO events_pending (created_at, event_id)
    SELECT created_at, event_id FROM inserted WHERE fanned_out_at IS NULL OR fanned_out_at = -1;
  RETURN NULL;
END
$$;

CREATE TRIGGER events_pending_add AFTER INSERT ON events REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION events_pending_add();

-- What waits now. CREATE TRIGGER has locked out inserts until this migration commits, so no event
-- is both here and added by the trigger.
INSERT INTO events_pending (created_at, event_id)
  SELECT created_at, event_id FROM events WHERE fanned_out_at IS NULL;

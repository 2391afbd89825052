-- One write per change: the event of a change of state carries the change's history (from, to,
-- actor, reason, codes, details), so a change writes one row where it wrote a history row and an
-- event. An event that is no change of state (a document's outcome) leaves them null. The history
-- of an application is its events with a to_status, in seq order, at their created_at. Nullable
-- columns without a default rewrite nothing.
ALTER TABLE events ADD COLUMN from_status TEXT;
ALTER TABLE events ADD COLUMN to_status TEXT;
ALTER TABLE events ADD COLUMN actor TEXT;
ALTER TABLE events ADD COLUMN reason TEXT;
ALTER TABLE events ADD COLUMN reason_codes TEXT;
ALTER TABLE events ADD COLUMN details TEXT;

-- Until the next release drops application_transitions: an instance of the earlier version (a
-- rolling deploy) still writes a history row and then the event, in one transaction; its event
-- takes the history from that row, the application's latest. This version's events carry their
-- own (the WHEN is false for them).
CREATE TRIGGER events_history_of_earlier_version AFTER INSERT ON events
  WHEN NEW.to_status IS NULL AND NEW.type IN (
    'application.submitted', 'application.in_review', 'application.approved', 'application.card_issued',
    'application.shipped', 'application.delivered', 'application.rejected', 'application.cancelled',
    'application.supplement_required', 'application.expired', 'application.returned', 'application.amended') BEGIN
  UPDATE events SET (from_status, to_status, actor, reason, reason_codes, details) = (
      SELECT from_status, to_status, actor, reason, reason_codes, details FROM application_transitions
       WHERE busi_water_no = NEW.busi_water_no ORDER BY id DESC LIMIT 1)
   WHERE event_id = NEW.event_id;
END;

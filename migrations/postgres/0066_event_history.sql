-- One write per change: the event of a change of state carries the change's history (from, to,
-- actor, reason, codes, details), so a change writes one row where it wrote a history row and an
-- event. An event that is no change of state (a document's outcome) leaves them null. The history
-- of an application is its events with a to_status, in seq order, at their created_at. Nullable
-- columns without a default rewrite nothing (the table's lock lasts milliseconds).
ALTER TABLE events ADD COLUMN from_status TEXT, ADD COLUMN to_status TEXT, ADD COLUMN actor TEXT,
  ADD COLUMN reason TEXT, ADD COLUMN reason_codes TEXT, ADD COLUMN details TEXT;

-- Until the next release drops application_transitions: an instance of the earlier version (a
-- rolling deploy) still writes a history row and then the event, in one transaction; its event
-- takes the history from that row, the application's latest. Its submission writes both in one
-- statement, whose other rows a trigger cannot see, but that history row is always the same.
-- This version's events carry their own (the WHEN is false for them).
CREATE FUNCTION events_history_of_earlier_version() RETURNS trigger LANGUAGE plpgsql
  SET search_path FROM CURRENT AS $$
BEGIN
  IF NEW.type = 'application.submitted' THEN
    NEW.to_status := 'SUBMITTED';
    NEW.actor := 'caller:' || NEW.app_id;
  ELSE
    SELECT t.from_status, t.to_status, t.actor, t.reason, t.reason_codes, t.details
      INTO NEW.from_status, NEW.to_status, NEW.actor, NEW.reason, NEW.reason_codes, NEW.details
      FROM application_transitions t
     WHERE t.busi_water_no = NEW.busi_water_no ORDER BY t.id DESC LIMIT 1;
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER events_history_of_earlier_version BEFORE INSERT ON events FOR EACH ROW
  WHEN (NEW.to_status IS NULL AND NEW.type IN (
    'application.submitted', 'application.in_review', 'application.approved', 'application.card_issued',
    'application.shipped', 'application.delivered', 'application.rejected', 'application.cancelled',
    'application.supplement_required', 'application.expired', 'application.returned', 'application.amended'))
  EXECUTE FUNCTION events_history_of_earlier_version();

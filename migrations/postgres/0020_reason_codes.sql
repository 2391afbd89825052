-- Reason codes (codes of the `reason` code table, a JSON array as text) beside the free-text reason:
-- on the application (those of its last change) and on each transition of its history.
ALTER TABLE applications ADD COLUMN reason_codes TEXT;
ALTER TABLE application_transitions ADD COLUMN reason_codes TEXT;

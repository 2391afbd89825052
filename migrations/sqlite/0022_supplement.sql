-- A request for more information: while an application is SUPPLEMENT_REQUIRED it names the fields
-- the caller is to send again (a JSON array) and when the request lapses (EXPIRED after
-- SUPPLEMENT_DAYS). EXPIRED is final: the retention index learns it.
ALTER TABLE applications ADD COLUMN requested_fields TEXT;
ALTER TABLE applications ADD COLUMN supplement_due_at INTEGER;
CREATE INDEX applications_supplement_due ON applications (supplement_due_at)
  WHERE status = 'SUPPLEMENT_REQUIRED';
DROP INDEX applications_retention;
CREATE INDEX applications_retention ON applications (updated_at)
  WHERE erased_at IS NULL AND status IN ('REJECTED', 'CANCELLED', 'DELIVERED', 'EXPIRED');

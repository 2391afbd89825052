-- Issue 56: the ends of an applicant's requests (docs/PRIVACY.md).
-- An application a deletion could not erase because anti-money-laundering record keeping applies:
-- kept until then (Unix ms), withdrawn from every operator's view but a compliance operator's, and
-- erased by retention at that date. Null: not restricted.
ALTER TABLE applications ADD COLUMN restricted_until INTEGER;
-- Retention's walk of the restricted applications whose date has come.
CREATE INDEX applications_restricted ON applications (restricted_until) WHERE restricted_until IS NOT NULL;
-- An operator with a compliance duty (1) still sees restricted applications; set by an admin, audited.
ALTER TABLE operators ADD COLUMN compliance INTEGER NOT NULL DEFAULT 0;
-- A correction answered by a request for information: the application asked, whose amend ends it.
ALTER TABLE subject_requests ADD COLUMN linked_serial TEXT;
CREATE INDEX subject_requests_linked ON subject_requests (linked_serial)
  WHERE linked_serial IS NOT NULL AND status IN ('received', 'in_progress');
-- The workload's count of open requests past their due date.
CREATE INDEX subject_requests_open_due ON subject_requests (due_at)
  WHERE status IN ('received', 'in_progress');

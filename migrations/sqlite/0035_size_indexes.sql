-- Issue 28: an index for each filter and order the APIs use, so that no request reads more of a
-- table than its page at any size; SQLite has no concurrent build: each is one statement.
-- The caller's events by type; the deliveries of an endpoint newest first, whatever their status.
CREATE INDEX IF NOT EXISTS events_app_type ON events (app_id, type, created_at, event_id);
CREATE INDEX IF NOT EXISTS deliveries_endpoint_created ON deliveries (endpoint_id, created_at DESC, id);
-- Listings by status within an app, by status, by external_id alone: each in the list's order.
CREATE INDEX IF NOT EXISTS applications_app_status_created
  ON applications (app_id, status, created_at, busi_water_no);
CREATE INDEX IF NOT EXISTS applications_status_created_serial
  ON applications (status, created_at, busi_water_no);
CREATE INDEX IF NOT EXISTS applications_external_created
  ON applications (external_id, created_at, busi_water_no);
-- An operator's reveals of the last hour; the audit trail by target type, or by target alone,
-- newest first.
CREATE INDEX IF NOT EXISTS audit_log_actor_action_at ON audit_log (actor, action, at);
CREATE INDEX IF NOT EXISTS audit_log_target_type ON audit_log (target_type, id);
CREATE INDEX IF NOT EXISTS audit_log_target_id ON audit_log (target_id, id);
-- Replaced by applications_status_created_serial and applications_external_created.
DROP INDEX IF EXISTS applications_status_created;
DROP INDEX IF EXISTS applications_external_id;

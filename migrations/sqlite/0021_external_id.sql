-- The partner's own reference for an application (`external_id`, optional on the submit), stored in
-- the clear: it is the partner's order number, not identity data. Unique per app among active
-- applications: active_external_id holds it until the application reaches a final state.
ALTER TABLE applications ADD COLUMN external_id TEXT;
ALTER TABLE applications ADD COLUMN active_external_id TEXT;
CREATE UNIQUE INDEX applications_active_external_id_key ON applications (app_id, active_external_id);
CREATE INDEX applications_external_id ON applications (app_id, external_id, created_at);

-- The duplicate check's document hash is now taken over the canonical reading of cert_id (upper
-- case, no spaces, no brackets around the check character); version 1 was the upper-cased number
-- as sent. Rows written from now on are version 2; the rows already stored are version 1 until the
-- re-keying job has computed their canonical hash (src/applications/documentRekey.ts).
ALTER TABLE applications ADD COLUMN cert_hash_version INTEGER NOT NULL DEFAULT 2;
UPDATE applications SET cert_hash_version = 1;
-- What the re-keying job looks for: the rows still under the old hash, in key order.
CREATE INDEX applications_cert_hash_pending ON applications (busi_water_no) WHERE cert_hash_version = 1;

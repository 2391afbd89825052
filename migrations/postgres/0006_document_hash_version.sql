-- The duplicate check's document hash is now taken over the canonical reading of cert_id (upper
-- case, no spaces, no brackets around the check character); version 1 was the upper-cased number
-- as sent. The rows already stored are version 1 until the re-keying job has computed their
-- canonical hash (src/applications/documentRekey.ts); rows written from now on are version 2.
-- Adding the column with a constant default does not rewrite the table; changing the default after
-- affects new rows only.
ALTER TABLE applications ADD COLUMN cert_hash_version SMALLINT NOT NULL DEFAULT 1;
ALTER TABLE applications ALTER COLUMN cert_hash_version SET DEFAULT 2;
-- What the re-keying job looks for: the rows still under the old hash, in key order.
CREATE INDEX applications_cert_hash_pending ON applications (busi_water_no) WHERE cert_hash_version = 1;

-- Operations: retention erases the identity data of old final applications (erased_at marks it),
-- and key rotation re-encrypts rows by key id.
ALTER TABLE applications ADD COLUMN erased_at BIGINT;
-- What the retention job looks for: final, not yet erased, by the time it became final.
CREATE INDEX applications_retention ON applications (updated_at)
  WHERE erased_at IS NULL AND status IN ('REJECTED', 'CANCELLED', 'DELIVERED');
-- What the re-encryption job looks for: the rows of one old key, in key order.
CREATE INDEX applications_key_id ON applications (key_id, busi_water_no);
CREATE INDEX webhook_secrets_key_id ON webhook_secrets (key_id, id);

-- Endpoint health: since when its attempts have failed without a success in between (null when the
-- last attempt succeeded), and why it was disabled when the service did it (five days failing).
ALTER TABLE webhook_endpoints ADD COLUMN failing_since BIGINT;
ALTER TABLE webhook_endpoints ADD COLUMN disabled_reason TEXT;

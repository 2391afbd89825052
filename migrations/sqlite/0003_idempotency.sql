-- Idempotency keys: one row per (app, key), claimed before the operation runs and completed with
-- its response (status and body, exactly as sent), kept at least a day. The request body itself is
-- never stored, only a hash of its canonical form.
CREATE TABLE idempotency_keys (
  app_id TEXT NOT NULL REFERENCES apps (app_id),
  idempotency_key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('in_progress', 'completed')),
  -- Random per claim: only its holder may complete or release it (fencing after a takeover).
  claim_token TEXT NOT NULL,
  -- While in progress: after this time a retry may take the claim over (its holder crashed).
  locked_until INTEGER,
  status_code INTEGER,
  response_body TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (app_id, idempotency_key)
) STRICT;
CREATE INDEX idempotency_keys_expires ON idempotency_keys (expires_at);

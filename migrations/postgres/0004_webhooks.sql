-- Webhooks: endpoints per app with their signing secrets, one delivery per (event, endpoint) and
-- every attempt of it. Events gain a per-application sequence number (receivers order by it) and a
-- fan-out mark (the dispatcher turns unmarked events into deliveries).
ALTER TABLE events ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
ALTER TABLE events ADD COLUMN fanned_out_at BIGINT;
UPDATE events SET
  seq = (
    SELECT COUNT(*) FROM events AS earlier
    WHERE earlier.busi_water_no = events.busi_water_no
      AND (earlier.created_at < events.created_at
        OR (earlier.created_at = events.created_at AND earlier.event_id <= events.event_id))
  ),
  -- No endpoint existed before this migration: older events have nothing to fan out.
  fanned_out_at = created_at;
CREATE UNIQUE INDEX events_serial_seq ON events (busi_water_no, seq);
CREATE INDEX events_fanout_pending ON events (created_at) WHERE fanned_out_at IS NULL;

CREATE TABLE webhook_endpoints (
  id TEXT PRIMARY KEY,
  app_id TEXT NOT NULL REFERENCES apps (app_id),
  url TEXT NOT NULL,
  -- JSON array of event types, or NULL for every type.
  event_types TEXT,
  status TEXT NOT NULL CHECK (status IN ('active', 'disabled')),
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX webhook_endpoints_app ON webhook_endpoints (app_id, created_at);

CREATE TABLE webhook_secrets (
  id TEXT PRIMARY KEY,
  endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  -- Encrypted with the key ring: it must be usable for signing, so it cannot be a hash.
  secret_enc TEXT NOT NULL,
  key_id TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  -- Set when rotated out: it keeps signing until then (the overlap).
  expires_at BIGINT
);
CREATE INDEX webhook_secrets_endpoint ON webhook_secrets (endpoint_id);

CREATE TABLE deliveries (
  id TEXT PRIMARY KEY,
  event_id TEXT NOT NULL REFERENCES events (event_id),
  endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivering', 'delivered', 'failed')),
  attempt_count INTEGER NOT NULL,
  -- When it may be claimed: the next retry, or the end of the lease while delivering.
  next_attempt_at BIGINT NOT NULL,
  -- Retries stop after this time (the last attempt is made at or after it).
  give_up_at BIGINT NOT NULL,
  lease_until BIGINT,
  leased_by TEXT,
  last_status_code INTEGER,
  last_error TEXT,
  delivered_at BIGINT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  UNIQUE (event_id, endpoint_id)
);
CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status IN ('pending', 'delivering');
CREATE INDEX deliveries_endpoint ON deliveries (endpoint_id, status, created_at);

CREATE TABLE delivery_attempts (
  id BIGSERIAL PRIMARY KEY,
  delivery_id TEXT NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
  started_at BIGINT NOT NULL,
  duration_ms INTEGER,
  status_code INTEGER,
  error TEXT,
  worker TEXT NOT NULL
);
CREATE INDEX delivery_attempts_delivery ON delivery_attempts (delivery_id, id);

-- Callers, their credentials, applications with their history, and the event outbox.
CREATE TABLE apps (
  app_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'disabled')),
  rate_limit_per_second INTEGER,
  rate_limit_burst INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE app_secrets (
  secret_hash TEXT PRIMARY KEY,
  app_id TEXT NOT NULL REFERENCES apps (app_id),
  created_at INTEGER NOT NULL,
  expires_at INTEGER
) STRICT;
CREATE INDEX app_secrets_app_id ON app_secrets (app_id);

CREATE TABLE access_tokens (
  token_hash TEXT PRIMARY KEY,
  app_id TEXT NOT NULL REFERENCES apps (app_id),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  revoked_at INTEGER
) STRICT;
CREATE INDEX access_tokens_app_id ON access_tokens (app_id);

CREATE TABLE applications (
  busi_water_no TEXT PRIMARY KEY,
  app_id TEXT NOT NULL REFERENCES apps (app_id),
  status TEXT NOT NULL,
  status_reason TEXT,
  cert_type TEXT NOT NULL,
  cert_hash TEXT NOT NULL,
  active_cert_hash TEXT UNIQUE,
  card_no_hash TEXT NOT NULL UNIQUE,
  card_no_masked TEXT NOT NULL,
  payload_enc TEXT NOT NULL,
  key_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX applications_app_created ON applications (app_id, created_at, busi_water_no);
CREATE INDEX applications_status_created ON applications (status, created_at);
CREATE INDEX applications_cert_hash ON applications (cert_hash);

CREATE TABLE application_transitions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  busi_water_no TEXT NOT NULL REFERENCES applications (busi_water_no),
  from_status TEXT,
  to_status TEXT NOT NULL,
  actor TEXT NOT NULL,
  reason TEXT,
  details TEXT,
  at INTEGER NOT NULL
) STRICT;
CREATE INDEX application_transitions_serial ON application_transitions (busi_water_no, id);

CREATE TABLE events (
  event_id TEXT PRIMARY KEY,
  app_id TEXT NOT NULL REFERENCES apps (app_id),
  busi_water_no TEXT NOT NULL REFERENCES applications (busi_water_no),
  type TEXT NOT NULL,
  payload TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX events_app_created ON events (app_id, created_at, event_id);

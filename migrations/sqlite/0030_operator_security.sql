-- PCI DSS v4 requirement 8 for operators: failed sign-ins in a row and the lock they cause (8.3.4),
-- a TOTP second factor with its replay guard and one-time recovery codes (8.4.2), the last
-- passwords (8.3.7), and sessions that end when idle (8.2.8) or only let their operator enrol.
ALTER TABLE operators ADD COLUMN failed_logins INTEGER NOT NULL DEFAULT 0;
ALTER TABLE operators ADD COLUMN locked_until INTEGER;
ALTER TABLE operator_sessions ADD COLUMN last_seen_at INTEGER NOT NULL DEFAULT 0;
-- 'full', or 'enrol': signed in with a password alone where a second factor is required, so the
-- session may only enrol one.
ALTER TABLE operator_sessions ADD COLUMN scope TEXT NOT NULL DEFAULT 'full' CHECK (scope IN ('full', 'enrol'));

CREATE TABLE operator_password_history (
  username TEXT NOT NULL REFERENCES operators (username),
  password_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX operator_password_history_username ON operator_password_history (username, created_at);

-- SHA-256 of each recovery code (80 random bits each, so a fast hash is enough, as for tokens).
CREATE TABLE operator_recovery_codes (
  username TEXT NOT NULL REFERENCES operators (username),
  code_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  used_at INTEGER,
  PRIMARY KEY (username, code_hash)
) STRICT;

-- The TOTP secret (base32), encrypted with the key ring like every other secret (so rotation and
-- re-encryption cover it); confirmed_at is null while the enrolment waits for its first code.
CREATE TABLE operator_totp (
  username TEXT PRIMARY KEY REFERENCES operators (username),
  secret_enc TEXT NOT NULL,
  key_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  confirmed_at INTEGER,
  -- The time step of the last code accepted: a code of that step or earlier is refused (replay).
  last_step INTEGER
) STRICT;
CREATE INDEX operator_totp_key_id ON operator_totp (key_id, username);

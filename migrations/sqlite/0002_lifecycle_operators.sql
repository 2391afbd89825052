-- Operators (the issuer's back office) with their login sessions, the append-only audit trail, and
-- an index for searching all applications by creation time.
CREATE TABLE operators (
  username TEXT PRIMARY KEY,
  role TEXT NOT NULL CHECK (role IN ('viewer', 'reviewer', 'admin')),
  password_hash TEXT NOT NULL,
  disabled INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE operator_sessions (
  token_hash TEXT PRIMARY KEY,
  username TEXT NOT NULL REFERENCES operators (username),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  revoked_at INTEGER
) STRICT;
CREATE INDEX operator_sessions_username ON operator_sessions (username);

CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  target_type TEXT,
  target_id TEXT,
  details TEXT,
  source TEXT NOT NULL
) STRICT;
CREATE INDEX audit_log_target ON audit_log (target_type, target_id, id);
CREATE INDEX audit_log_actor ON audit_log (actor, id);
CREATE INDEX audit_log_action ON audit_log (action, id);

-- Append-only: the store itself refuses to change or remove a row.
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;

CREATE INDEX applications_created ON applications (created_at, busi_water_no);

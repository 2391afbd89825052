-- Issue 56: an applicant's requests through the partner (PIPL articles 45 to 47): access, a portable
-- copy, correction, deletion. One row a request; it covers every application of that person at that
-- partner (`serials`, a JSON array), matched by the identity document's keyed hash (`cert_hash`), as
-- the duplicate check matches them. Numbered 0106 (30 above 0076) so that helpers working at once
-- do not collide.
CREATE TABLE subject_requests (
  request_id TEXT PRIMARY KEY,
  app_id TEXT NOT NULL REFERENCES apps (app_id),
  kind TEXT NOT NULL CHECK (kind IN ('access', 'portability', 'correction', 'deletion')),
  status TEXT NOT NULL CHECK (status IN ('received', 'in_progress', 'completed', 'restricted', 'refused')),
  busi_water_no TEXT NOT NULL,
  cert_hash TEXT NOT NULL,
  serials TEXT NOT NULL,
  reason_code TEXT,
  reason TEXT,
  restricted_until BIGINT,
  due_at BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  ended_at BIGINT
);
-- A partner's list, newest first (request ids are in the order of time).
CREATE INDEX subject_requests_app ON subject_requests (app_id, request_id);
-- An open request of a kind for a person: one at a time.
CREATE UNIQUE INDEX subject_requests_open ON subject_requests (app_id, cert_hash, kind)
  WHERE status IN ('received', 'in_progress');

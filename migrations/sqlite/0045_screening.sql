-- Sanctions screening (docs/SCREENING.md). Each import of a list file is a version with its counts;
-- the newest version of each list is in force. Entries are published list data (no applicant's).
CREATE TABLE screening_lists (
  version_id TEXT PRIMARY KEY,
  list TEXT NOT NULL CHECK (list IN ('un', 'ofac-sdn')),
  entries INTEGER NOT NULL,
  names INTEGER NOT NULL,
  documents INTEGER NOT NULL,
  -- SHA-256 of the file as imported, and the date the file says it was published, if it says.
  sha256 TEXT NOT NULL,
  published_at TEXT,
  imported_at BIGINT NOT NULL,
  imported_by TEXT NOT NULL
);
CREATE INDEX screening_lists_in_force ON screening_lists (list, imported_at);

CREATE TABLE screening_entries (
  version_id TEXT NOT NULL REFERENCES screening_lists (version_id),
  reference TEXT NOT NULL,
  -- JSON: names, dates of birth, nationalities, documents.
  entry TEXT NOT NULL,
  PRIMARY KEY (version_id, reference)
);

-- A listed entry an application matched. One row per application and entry: a re-screen finds it
-- again and leaves it as it is (a hit cleared stays cleared). While a hit is unresolved or only
-- half cleared (`clearing`: one operator's word, awaiting a second's), the application cannot be
-- approved, issued or shipped.
CREATE TABLE screening_hits (
  id TEXT PRIMARY KEY,
  busi_water_no TEXT NOT NULL REFERENCES applications (busi_water_no),
  list TEXT NOT NULL,
  version_id TEXT NOT NULL,
  reference TEXT NOT NULL,
  -- The listed name that matched (list data) and what kind of name it is.
  matched_name TEXT NOT NULL,
  matched_kind TEXT NOT NULL,
  -- JSON array of the application's fields that matched (names, never their values).
  fields TEXT NOT NULL,
  -- The score times 1000 (0 to 1000).
  score INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('unresolved', 'clearing', 'cleared', 'confirmed')),
  -- 1 when found after the card was delivered: an alert in the workload view.
  after_delivery INTEGER NOT NULL,
  resolved_by TEXT,
  resolution_note TEXT,
  resolved_at BIGINT,
  confirmed_by TEXT,
  confirmed_at BIGINT,
  created_at BIGINT NOT NULL,
  UNIQUE (busi_water_no, list, reference)
);
CREATE INDEX screening_hits_open ON screening_hits (busi_water_no) WHERE state IN ('unresolved', 'clearing');

-- More lists (docs/SCREENING.md): the EU's, the UK's (FCDO) and OpenSanctions' entities, beside
-- the UN's and OFAC's. SQLite cannot change a CHECK: the table is made again, and its entries'
-- table with it (their foreign key names it), the rows kept.
CREATE TABLE screening_entries_kept AS SELECT * FROM screening_entries;
DROP TABLE screening_entries;
CREATE TABLE screening_lists_new (
  version_id TEXT PRIMARY KEY,
  list TEXT NOT NULL CHECK (list IN ('un', 'ofac-sdn', 'eu', 'uk', 'opensanctions')),
  entries INTEGER NOT NULL,
  names INTEGER NOT NULL,
  documents INTEGER NOT NULL,
  -- SHA-256 of the file as imported, and the date the file says it was published, if it says.
  sha256 TEXT NOT NULL,
  published_at TEXT,
  imported_at BIGINT NOT NULL,
  imported_by TEXT NOT NULL
);
INSERT INTO screening_lists_new SELECT version_id, list, entries, names, documents, sha256, published_at,
  imported_at, imported_by FROM screening_lists;
DROP TABLE screening_lists;
ALTER TABLE screening_lists_new RENAME TO screening_lists;
CREATE INDEX screening_lists_in_force ON screening_lists (list, imported_at);
CREATE TABLE screening_entries (
  version_id TEXT NOT NULL REFERENCES screening_lists (version_id),
  reference TEXT NOT NULL,
  -- JSON: names, dates of birth, nationalities, documents.
  entry TEXT NOT NULL,
  PRIMARY KEY (version_id, reference)
);
INSERT INTO screening_entries SELECT version_id, reference, entry FROM screening_entries_kept;
DROP TABLE screening_entries_kept;

-- An applicant who matches a politically exposed person (`pep`) or a relative or close associate
-- of one (`rca`) on a PEP list: shown to the reviewer, weighed by the risk rating; it holds
-- nothing and is not resolved. One row per application and entry: a re-screen leaves it as it is.
CREATE TABLE screening_pep_matches (
  id TEXT PRIMARY KEY,
  busi_water_no TEXT NOT NULL REFERENCES applications (busi_water_no),
  list TEXT NOT NULL,
  version_id TEXT NOT NULL,
  reference TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('pep', 'rca')),
  -- The listed name that matched (list data) and what kind of name it is.
  matched_name TEXT NOT NULL,
  matched_kind TEXT NOT NULL,
  -- JSON array of the application's fields that matched (names, never their values).
  fields TEXT NOT NULL,
  -- The score times 1000 (0 to 1000).
  score INTEGER NOT NULL,
  created_at BIGINT NOT NULL,
  UNIQUE (busi_water_no, list, reference)
);

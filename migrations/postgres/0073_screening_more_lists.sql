-- More lists (docs/SCREENING.md): the EU's, the UK's (FCDO) and OpenSanctions' entities, beside
-- the UN's and OFAC's.
ALTER TABLE screening_lists DROP CONSTRAINT screening_lists_list_check;
ALTER TABLE screening_lists ADD CONSTRAINT screening_lists_list_check
  CHECK (list IN ('un', 'ofac-sdn', 'eu', 'uk', 'opensanctions'));

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

-- Clearances remembered (docs/SCREENING.md): a hit records what it was raised on, the content hash
-- of the list entry and a keyed hash of the applicant's screened fields, so that a re-screen raises
-- a cleared hit again only when one of them changed, as a new hit beside the cleared one (whose
-- clearing stays on record). Hits raised before this carry neither and stay remembered as before.
-- SQLite cannot drop the table's UNIQUE constraint: the table is rebuilt without it.
CREATE TABLE screening_hits_0074 (
  id TEXT PRIMARY KEY,
  busi_water_no TEXT NOT NULL REFERENCES applications (busi_water_no),
  list TEXT NOT NULL,
  version_id TEXT NOT NULL,
  reference TEXT NOT NULL,
  matched_name TEXT NOT NULL,
  matched_kind TEXT NOT NULL,
  fields TEXT NOT NULL,
  score INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('unresolved', 'clearing', 'cleared', 'confirmed')),
  after_delivery INTEGER NOT NULL,
  resolved_by TEXT,
  resolution_note TEXT,
  resolved_at BIGINT,
  confirmed_by TEXT,
  confirmed_at BIGINT,
  created_at BIGINT NOT NULL,
  entry_hash TEXT,
  subject_hash TEXT
);
INSERT INTO screening_hits_0074 (id, busi_water_no, list, version_id, reference, matched_name, matched_kind,
  fields, score, state, after_delivery, resolved_by, resolution_note, resolved_at, confirmed_by,
  confirmed_at, created_at)
SELECT id, busi_water_no, list, version_id, reference, matched_name, matched_kind, fields, score, state,
  after_delivery, resolved_by, resolution_note, resolved_at, confirmed_by, confirmed_at, created_at
FROM screening_hits;
DROP TABLE screening_hits;
ALTER TABLE screening_hits_0074 RENAME TO screening_hits;
CREATE INDEX screening_hits_open ON screening_hits (busi_water_no) WHERE state IN ('unresolved', 'clearing');
-- One open hit per application and entry, no longer one hit for ever.
CREATE UNIQUE INDEX screening_hits_open_entry ON screening_hits (busi_water_no, list, reference)
  WHERE state IN ('unresolved', 'clearing');
CREATE INDEX screening_hits_entry ON screening_hits (busi_water_no, list, reference);

-- Clearances remembered (docs/SCREENING.md): a hit records what it was raised on, the content hash
-- of the list entry and a keyed hash of the applicant's screened fields, so that a re-screen raises
-- a cleared hit again only when one of them changed, as a new hit beside the cleared one (whose
-- clearing stays on record). Hits raised before this carry neither and stay remembered as before.
ALTER TABLE screening_hits ADD COLUMN entry_hash TEXT;
ALTER TABLE screening_hits ADD COLUMN subject_hash TEXT;
-- One open hit per application and entry, no longer one hit for ever.
ALTER TABLE screening_hits DROP CONSTRAINT IF EXISTS screening_hits_busi_water_no_list_reference_key;
CREATE UNIQUE INDEX screening_hits_open_entry ON screening_hits (busi_water_no, list, reference)
  WHERE state IN ('unresolved', 'clearing');
CREATE INDEX screening_hits_entry ON screening_hits (busi_water_no, list, reference);

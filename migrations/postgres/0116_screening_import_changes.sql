-- Each import says what changed (docs/SCREENING.md): the entries added, removed and changed against
-- the list's version before, written at the import, and what its re-screen found (the applications
-- newly hit and no longer hit), written when the re-screen ends. Both JSON; null on imports before.
ALTER TABLE screening_lists ADD COLUMN entry_changes TEXT;
ALTER TABLE screening_lists ADD COLUMN rescreen_outcome TEXT;
-- A hash of what each entry says (names, dates of birth, nationalities, documents, PEP data), so that
-- an entry changed is found by comparing two versions' rows; null on entries imported before, and
-- filled the first time a newer version is compared with theirs.
ALTER TABLE screening_entries ADD COLUMN content_hash TEXT;

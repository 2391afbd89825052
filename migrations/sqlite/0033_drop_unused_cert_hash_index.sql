-- applications_cert_hash (0001) serves no query: duplicates are found through the unique
-- active_cert_hash, re-keying through cert_hash_version. Each submission paid one insert into it at
-- a random place (the hash), one more leaf page written per commit.
DROP INDEX IF EXISTS applications_cert_hash;

-- Issue 56: the export that answers an access or portability request (docs/PRIVACY.md), built by a
-- job and kept sealed until the partner downloads it once or it expires. One row an export, its
-- bytes in subject_export_chunks, each chunk sealed with AES-256-GCM under the key ring, its aad
-- naming the request and the chunk's place, so that a chunk moved or reordered fails to decrypt.
-- The row stays after its chunks are deleted (fetched or expired): the request's view tells when.
CREATE TABLE subject_exports (
  request_id TEXT PRIMARY KEY REFERENCES subject_requests (request_id),
  app_id TEXT NOT NULL,
  byte_size BIGINT NOT NULL,
  sha256 TEXT NOT NULL,
  chunk_count INTEGER NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  fetched_at BIGINT,
  erased_at BIGINT
);
-- chunk_id is <request_id>.<seq>: with the request, the aad of the chunk's encryption.
CREATE TABLE subject_export_chunks (
  chunk_id TEXT PRIMARY KEY,
  request_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  key_id TEXT NOT NULL,
  chunk_enc BYTEA NOT NULL
);
CREATE INDEX subject_export_chunks_request ON subject_export_chunks (request_id, seq);

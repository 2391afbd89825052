-- The documents of an application's five image fields (issue 23), fetched after the submit and
-- kept as evidence. One row per image field: what became of its fetch (pending, kept or failed with
-- a reason) for the URL whose keyed hash is url_hash, and the kept copy's facts. The bytes are in
-- document_chunks, encrypted chunk by chunk (AES-256-GCM under the key ring), so that neither a
-- fetch nor a viewing holds a whole document in memory.
CREATE TABLE documents (
  busi_water_no TEXT NOT NULL,
  field TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'kept', 'failed')),
  reason TEXT,
  url_hash TEXT NOT NULL,
  blob_id TEXT,
  content_type TEXT,
  byte_size INTEGER,
  sha256 TEXT,
  width INTEGER,
  height INTEGER,
  chunk_count INTEGER,
  fetched_at INTEGER,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (busi_water_no, field)
);
-- The fraud signal: the same bytes under another applicant.
CREATE INDEX documents_sha256 ON documents (sha256) WHERE sha256 IS NOT NULL;

-- chunk_id is <blob_id>.<seq>, and with the serial the aad of the chunk's encryption: a chunk
-- copied to another place does not decrypt there.
CREATE TABLE document_chunks (
  chunk_id TEXT PRIMARY KEY,
  blob_id TEXT NOT NULL,
  busi_water_no TEXT NOT NULL,
  field TEXT NOT NULL,
  seq INTEGER NOT NULL,
  key_id TEXT NOT NULL,
  chunk_enc BLOB NOT NULL
);
CREATE INDEX document_chunks_blob ON document_chunks (blob_id, seq);
CREATE INDEX document_chunks_application ON document_chunks (busi_water_no, field);
-- Re-encryption after a key rotation walks the chunks of an older key in primary key order.
CREATE INDEX document_chunks_key ON document_chunks (key_id, chunk_id);

-- Previews of kept images (issue 54): a copy the service made itself with libvips (sharp),
-- re-encoded as JPEG, at most 1600 px on its longer side, without metadata, for the console to
-- show inline; the original stays byte-exact, offered only as a download. Its encrypted chunks are
-- in document_chunks beside the original's, under their own blob id. Numbered 0096, clear of the
-- migrations other branches were adding at the time (up to 0076 on main then).
ALTER TABLE documents ADD COLUMN preview_blob_id TEXT;
ALTER TABLE documents ADD COLUMN preview_chunk_count INTEGER;
ALTER TABLE documents ADD COLUMN preview_byte_size BIGINT;

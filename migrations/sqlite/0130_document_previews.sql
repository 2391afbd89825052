-- Previews of kept images (issue 54, docs/SECURITY.md): the image the service drew itself with
-- libvips (src/documents/preview.ts), a JPEG of at most 1600 px on its longer side without
-- metadata, which the console shows inline; the original stays byte-exact, offered only as a
-- download. Its encrypted chunks are in document_chunks beside the original's, under their own
-- blob id. Null for a PDF, a HEIC, and an image kept before this migration (a download only).
ALTER TABLE documents ADD COLUMN preview_blob_id TEXT;
ALTER TABLE documents ADD COLUMN preview_chunk_count INTEGER;
ALTER TABLE documents ADD COLUMN preview_byte_size INTEGER;

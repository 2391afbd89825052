/** The documents' tables, as Kysely sees them (`tables.ts` lists them in Database). */

/** One image field's document (documents/): what became of its fetch, and the kept copy's facts. */
export interface DocumentsTable {
  busi_water_no: string;
  field: string;
  state: 'pending' | 'kept' | 'failed';
  /** failed: unreachable, not_a_document, truncated, too_large, too_small or refused_address. */
  reason: string | null;
  /** Keyed hash of the URL this state is about: an amend to another URL starts again. */
  url_hash: string;
  /** kept: its encrypted chunks in document_chunks. */
  blob_id: string | null;
  content_type: string | null;
  byte_size: number | null;
  /** Hex SHA-256 of the bytes as served. */
  sha256: string | null;
  width: number | null;
  height: number | null;
  chunk_count: number | null;
  fetched_at: number | null;
  /**
   * kept: the preview the service drew of an image (documents/preview.ts: a JPEG without metadata),
   * its encrypted chunks beside the original's; null for a PDF, a HEIC, or an image kept before.
   */
  preview_blob_id: string | null;
  preview_chunk_count: number | null;
  preview_byte_size: number | null;
  updated_at: number;
}

export interface DocumentChunksTable {
  /** `<blob_id>.<seq>`: with the serial, the aad of its encryption. */
  chunk_id: string;
  blob_id: string;
  busi_water_no: string;
  field: string;
  seq: number;
  key_id: string;
  /** iv || AES-256-GCM ciphertext || tag. */
  chunk_enc: Uint8Array;
}

/** A sealed chunk as read back for decryption. */
export type ReadChunk = Pick<DocumentChunksTable, 'chunk_id' | 'seq' | 'key_id' | 'chunk_enc'>;

/** The export that answers an access or portability request (migration 0125), as Kysely sees it. */
export interface SubjectExportsTable {
  request_id: string;
  app_id: string;
  /** The export's size and SHA-256 (hex) in the clear, checked when it is read back. */
  byte_size: number;
  sha256: string;
  chunk_count: number;
  created_at: number;
  /** After this (Unix ms) it is no longer delivered, and a job erases it. */
  expires_at: number;
  /** When the partner downloaded it (its chunks deleted then); null until then. */
  fetched_at: number | null;
  /** When its chunks were deleted (fetched or expired). */
  erased_at: number | null;
}

export interface SubjectExportChunksTable {
  /** `<request_id>.<seq>`: the aad of its encryption. */
  chunk_id: string;
  request_id: string;
  seq: number;
  key_id: string;
  /** iv || AES-256-GCM ciphertext || tag. */
  chunk_enc: Uint8Array;
}

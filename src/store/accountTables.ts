import type { Generated } from 'kysely';

/**
 * The accounts' tables, as Kysely sees them (`tables.ts` lists them in Database): the partners
 * (apps, their secrets and tokens, their idempotency records), the operators (sessions, second
 * factor, password history) and the audit trail of what either did.
 */

export type AppStatus = 'active' | 'disabled';

export interface AppsTable {
  app_id: string;
  name: string;
  status: AppStatus;
  /** Per-app rate limit; null means the configured default. */
  rate_limit_per_second: number | null;
  rate_limit_burst: number | null;
  /** Per-app cap on requests in progress at once in a process; null means APP_CONCURRENCY_LIMIT. */
  concurrency_limit: number | null;
  /** An operator's risk level for the partner (`low`, `medium`, `high`; migration 0071); null is low. */
  risk_level?: string | null;
  created_at: number;
  updated_at: number;
}

export interface AppSecretsTable {
  /** SHA-256 of the secret; the secret itself is shown once and never stored. */
  secret_hash: string;
  app_id: string;
  created_at: number;
  /** Set when the secret is being rotated out: it keeps working until then. */
  expires_at: number | null;
}

export interface AccessTokensTable {
  token_hash: string;
  app_id: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** One row per (app, key): claimed while the operation runs, then its response, for replays. */
export interface IdempotencyKeysTable {
  app_id: string;
  idempotency_key: string;
  /** SHA-256 of the operation and the canonical body; the body itself is never stored. */
  request_hash: string;
  state: 'in_progress' | 'completed';
  /** Random per claim: only its holder may complete or release it. */
  claim_token: string;
  /** While in progress: after this a retry may take the claim over (its holder crashed). */
  locked_until: number | null;
  /** A response recorded by the HTTP layer: its status and body exactly as sent, replayed byte for byte. */
  status_code: number | null;
  response_body: string | null;
  /** Or the domain result (JSON) of an operation that recorded its own success: replayed as its envelope. */
  result: string | null;
  created_at: number;
  expires_at: number;
}

export interface OperatorsTable {
  username: string;
  role: 'viewer' | 'reviewer' | 'admin';
  /** `hashPassword` output (argon2id, or an earlier scrypt one until the next sign-in); never the password. */
  password_hash: string;
  /** 0 or 1: a disabled operator cannot log in and its sessions stop working. */
  disabled: number;
  created_at: number;
  updated_at: number;
  /** Failed sign-ins in a row; reset by a successful one. */
  failed_logins: Generated<number>;
  /** Until when sign-in is refused after too many failures (ms), or null. */
  locked_until: number | null;
  /** 0 or 1: a compliance duty; sees applications a deletion restricted (migration 0120). */
  compliance?: Generated<number>;
}

export interface OperatorTotpTable {
  username: string;
  /** The base32 secret, encrypted with the key ring (aad `operator-totp:<username>`). */
  secret_enc: string;
  key_id: string;
  created_at: number;
  /** Null while the enrolment waits for its first code. */
  confirmed_at: number | null;
  /** The TOTP time step of the last accepted code: it and earlier ones are refused (replay). */
  last_step: number | null;
}

export interface OperatorPasswordHistoryTable {
  username: string;
  password_hash: string;
  created_at: number;
}

export interface OperatorRecoveryCodesTable {
  username: string;
  /** SHA-256 of the code; the code is shown once, at enrolment. */
  code_hash: string;
  created_at: number;
  used_at: number | null;
}

export interface OperatorSessionsTable {
  /** SHA-256 of the opaque session token; the token is shown once, at login. */
  token_hash: string;
  username: string;
  created_at: number;
  /** The absolute end of the session (ms). */
  expires_at: number;
  revoked_at: number | null;
  /** The last request of the session (ms): idle for longer than the setting, it has ended. */
  last_seen_at: number;
  /** `full`, or `enrol`: signed in with a password alone where a second factor is required. */
  scope: 'full' | 'enrol';
}

/** Append-only: never updated or deleted (triggers refuse it). Never an identity value in it. */
export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  /** `operator:<username>`, `caller:<app_id>`, `system` or `anonymous` (a failed login). */
  actor: string;
  /** `application.transition`, `application.reveal`, `operator.login`, `app.create`, ... */
  action: string;
  target_type: string | null;
  target_id: string | null;
  /** JSON text: what changed (states, field name, role); never a value of an identity field. */
  details: string | null;
  /** Where it came from: `admin-api <ip>`, `caller-api`, `cli <os user>`. */
  source: string;
  /**
   * The row's place in the hash chain (1, 2, 3, ... without gaps), the hash of the row before it
   * and its own (src/audit/auditChain.ts); null on rows written before the chain began (migration 0076).
   */
  seq: number | null;
  prev_hash: string | null;
  hash: string | null;
}

/** The head of the audit chain: one row, updated by every audit writer first (its turn). */
export interface AuditChainHeadTable {
  id: number;
  /** The last chained row's seq, id and hash (0, the genesis id and 64 zeros before the first). */
  seq: number;
  row_id: number;
  hash: string;
  /** The highest id and the number of the rows the trail held when the chain began. */
  genesis_id: number;
  genesis_rows: number;
}

import { availableParallelism } from 'node:os';
import { parseEncryptionKeys } from './crypto/keyRing.ts';
import { ENVIRONMENT, LOG_LEVELS, type VariableName } from './environment.ts';

/**
 * The service's configuration: environment variables, parsed once at start, passed down as one
 * object. A bad value stops the start with a message that names the variable and the rule.
 */
export interface Config {
  /** TCP port of the HTTP API. */
  port: number;
  /**
   * Service processes on this machine sharing PORT (node:cluster): one per core uses them all.
   * `auto` is the number of cores. The background jobs run in the first of them.
   */
  workers: number;
  /** Interface to listen on; 0.0.0.0 so that a container or load balancer can reach it. */
  host: string;
  /** Where the embedded store keeps its database and its generated encryption key. */
  dataDir: string;
  /** Selects PostgreSQL (the production store) instead of the embedded SQLite file. */
  databaseUrl: string | undefined;
  /** PostgreSQL schema to use; lets several deployments (or test runs) share one database. */
  databaseSchema: string;
  /** Connections per process; the sum over processes must stay under max_connections (or the pooler's). */
  databasePoolSize: number;
  /**
   * Named (server-side) prepared statements for the hot statements: off by default, because a
   * pooler in transaction mode (PgBouncer before 1.21, RDS Proxy, Supavisor) cannot carry them.
   */
  databasePreparedStatements: boolean;
  /** Shares the per-app rate limit between instances when set. */
  redisUrl: string | undefined;
  /** The card product: network, BIN (6-8 digits) and number length. */
  card: { network: string; bin: string; length: number };
  /** `id:base64` 32-byte keys, last one current; required with PostgreSQL, generated for SQLite. */
  encryptionKeys: string | undefined;
  /** Key rotation and re-encryption: see `keyConfig` below. */
  keys: KeyConfig;
  /** Metrics listener and retention: see `operationsConfig` below. */
  operations: OperationsConfig;
  /** Defaults for apps that have no limit of their own. */
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  /** How far a request's `timestamp` may be from server time: bounds the replay window. */
  timestampSkewSeconds: number;
  /** Lifetime of an access token. */
  tokenTtlSeconds: number;
  /**
   * How long a process may answer from its memory that a token works (0 to 1000 ms): a revoked
   * token or a disabled app is refused by every instance within this time.
   */
  tokenCacheMs: number;
  /** JSON file that replaces the default code tables. */
  codesFile: string | undefined;
  /** Enables the caller's lifecycle simulation endpoint for integration testing. */
  sandbox: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Minimum age of an applicant, in years. */
  minAge: number;
  /** IANA time zone whose date is "today" for age and document dates: the issuer's, not UTC. */
  businessTimeZone: string;
  /** Days a caller has to amend an application an operator asked more of; then it becomes EXPIRED. */
  supplementDays: number;
  /** Largest accepted request body; a submission is a few kilobytes. */
  bodyLimitBytes: number;
  /** Whole-request time-out and header time-out: a slow client cannot hold a connection. */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** How long a graceful shutdown waits for requests in flight before giving up. */
  shutdownGraceMs: number;
  /** Webhook delivery: see `webhookConfig` below. */
  webhooks: WebhookConfig;
  /** Idempotency keys, credential guessing and other abuse limits: see `protectionConfig` below. */
  protection: ProtectionConfig;
  /** Operator sign-in, sessions, second factor and review work: see `operatorConfig` below. */
  operators: OperatorConfig;
}

export interface WebhookConfig {
  /** Run the dispatcher inside the service process; off when `cardapply worker` processes do it. */
  inProcess: boolean;
  /** Attempts in flight at once per worker. */
  concurrency: number;
  /** How often an idle worker looks for due deliveries and new events. */
  pollIntervalMs: number;
  /** Time-out of one attempt (DNS, connect, response headers): a slow receiver cannot hold a slot. */
  timeoutMs: number;
  /** How long a claimed delivery stays another worker's; a killed worker's work is retried after it. */
  leaseMs: number;
  /** Exponential backoff with full jitter: the n-th retry waits up to min(max, base * 2^(n-1)). */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** How long a delivery is retried before it is marked failed (at least a day in production). */
  maxAgeSeconds: number;
  /** Allows http and private, loopback and link-local receivers: for tests and closed networks only. */
  allowPrivate: boolean;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type Env = Readonly<Record<string, string | undefined>>;

/** The declaration of a variable in ENVIRONMENT: its default, bounds and pattern. */
function declared(name: VariableName): {
  default?: unknown;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  rule?: string;
} {
  return ENVIRONMENT.properties[name] as ReturnType<typeof declared>;
}

function raw(env: Env, name: VariableName): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

function wholeNumber(name: VariableName, value: string): number {
  const { minimum = 0, maximum = Number.MAX_SAFE_INTEGER } = declared(name);
  if (!/^[0-9]+$/.test(value)) throw new ConfigError(`${name}: must be a whole number, got "${value}"`);
  const number = Number(value);
  if (number < minimum || number > maximum)
    throw new ConfigError(`${name}: must be between ${minimum} and ${maximum}, got ${number}`);
  return number;
}

function integer(env: Env, name: VariableName): number {
  const value = raw(env, name);
  return value === undefined ? (declared(name).default as number) : wholeNumber(name, value);
}

function optionalInteger(env: Env, name: VariableName): number | undefined {
  const value = raw(env, name);
  return value === undefined ? undefined : wholeNumber(name, value);
}

function boolean(env: Env, name: VariableName): boolean {
  const value = raw(env, name);
  if (value === undefined) return declared(name).default as boolean;
  if (['true', '1', 'yes', 'on'].includes(value.toLowerCase())) return true;
  if (['false', '0', 'no', 'off'].includes(value.toLowerCase())) return false;
  throw new ConfigError(`${name}: must be true or false, got "${value}"`);
}

function matching(name: VariableName, value: string): string {
  const { pattern, rule } = declared(name);
  if (pattern !== undefined && !new RegExp(pattern).test(value))
    throw new ConfigError(`${name}: ${rule ?? `must match ${pattern}`}`);
  return value;
}

function text(env: Env, name: VariableName): string {
  const value = raw(env, name);
  return value === undefined ? (declared(name).default as string) : matching(name, value);
}

/** An IANA time zone name the runtime knows (Intl refuses any other). */
function timeZone(env: Env, name: VariableName): string {
  const value = text(env, name);
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
  } catch {
    throw new ConfigError(`${name}: must be an IANA time zone such as Asia/Shanghai, got "${value}"`);
  }
  return value;
}

function optional(env: Env, name: VariableName): string | undefined {
  const value = raw(env, name);
  return value === undefined ? undefined : matching(name, value);
}

/** WORKERS: a number of processes, or `auto` for one per core. */
function workersOf(env: Env): number {
  const value = text(env, 'WORKERS');
  return value === 'auto' ? availableParallelism() : Number(value);
}

export function loadConfig(env: Env = process.env): Config {
  const databaseUrl = optional(env, 'DATABASE_URL');
  const databaseSchema = text(env, 'DATABASE_SCHEMA');
  const redisUrl = optional(env, 'REDIS_URL');

  const bin = text(env, 'CARD_BIN');
  const length = integer(env, 'CARD_LENGTH');
  if (length < bin.length + 4)
    throw new ConfigError('CARD_LENGTH: must leave at least 4 digits after CARD_BIN');

  const encryptionKeys = optional(env, 'ENCRYPTION_KEYS');
  if (databaseUrl !== undefined && encryptionKeys === undefined) {
    throw new ConfigError(
      'ENCRYPTION_KEYS: is required with DATABASE_URL (comma-separated id:base64 32-byte keys, the last one current); ' +
        'generate one with: npx cardapply keys generate',
    );
  }

  const logLevel = (raw(env, 'LOG_LEVEL') ?? 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel))
    throw new ConfigError(`LOG_LEVEL: must be one of ${LOG_LEVELS.join(', ')}`);

  const requestTimeoutMs = integer(env, 'REQUEST_TIMEOUT_MS');
  const headersTimeoutMs = integer(env, 'HEADERS_TIMEOUT_MS');
  // Node refuses a header time-out longer than the whole-request one: say so by name.
  if (headersTimeoutMs > requestTimeoutMs)
    throw new ConfigError('HEADERS_TIMEOUT_MS: must not be more than REQUEST_TIMEOUT_MS');

  return {
    port: integer(env, 'PORT'),
    workers: workersOf(env),
    host: text(env, 'HOST'),
    dataDir: text(env, 'DATA_DIR'),
    databaseUrl,
    databaseSchema,
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE'),
    databasePreparedStatements: boolean(env, 'DATABASE_PREPARED_STATEMENTS'),
    redisUrl,
    card: { network: text(env, 'CARD_NETWORK'), bin, length },
    encryptionKeys,
    rateLimitPerSecond: integer(env, 'RATE_LIMIT_PER_SECOND'),
    rateLimitBurst: integer(env, 'RATE_LIMIT_BURST'),
    timestampSkewSeconds: integer(env, 'TIMESTAMP_SKEW_SECONDS'),
    tokenTtlSeconds: integer(env, 'TOKEN_TTL_SECONDS'),
    tokenCacheMs: integer(env, 'TOKEN_CACHE_MS'),
    codesFile: optional(env, 'CODES_FILE'),
    sandbox: boolean(env, 'SANDBOX'),
    logLevel,
    minAge: integer(env, 'MIN_AGE'),
    businessTimeZone: timeZone(env, 'BUSINESS_TIMEZONE'),
    supplementDays: integer(env, 'SUPPLEMENT_DAYS'),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES'),
    requestTimeoutMs,
    headersTimeoutMs,
    keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS'),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS'),
    webhooks: webhookConfig(env),
    protection: protectionConfig(env),
    keys: keyConfig(env, encryptionKeys),
    operations: operationsConfig(env),
    operators: operatorConfig(env, boolean(env, 'SANDBOX')),
  };
}

function webhookConfig(env: Env): WebhookConfig {
  const timeoutMs = integer(env, 'WEBHOOK_TIMEOUT_MS');
  const leaseMs = integer(env, 'WEBHOOK_LEASE_MS');
  // A lease shorter than an attempt would let a second worker start the same delivery.
  if (leaseMs < 2 * timeoutMs)
    throw new ConfigError('WEBHOOK_LEASE_MS: must be at least twice WEBHOOK_TIMEOUT_MS');
  const backoffBaseMs = integer(env, 'WEBHOOK_BACKOFF_BASE_MS');
  const backoffMaxMs = integer(env, 'WEBHOOK_BACKOFF_MAX_MS');
  if (backoffMaxMs < backoffBaseMs)
    throw new ConfigError('WEBHOOK_BACKOFF_MAX_MS: must not be less than WEBHOOK_BACKOFF_BASE_MS');
  return {
    inProcess: boolean(env, 'WEBHOOK_WORKER'),
    concurrency: integer(env, 'WEBHOOK_CONCURRENCY'),
    pollIntervalMs: integer(env, 'WEBHOOK_POLL_INTERVAL_MS'),
    timeoutMs,
    leaseMs,
    backoffBaseMs,
    backoffMaxMs,
    maxAgeSeconds: integer(env, 'WEBHOOK_MAX_AGE_SECONDS'),
    allowPrivate: boolean(env, 'WEBHOOK_ALLOW_PRIVATE'),
  };
}

export interface ProtectionConfig {
  /** How long an idempotency key and its response are kept: callers are promised at least a day. */
  idempotencyTtlSeconds: number;
  /** How long a request waits for a concurrent one with the same key before answering 409. */
  idempotencyWaitMs: number;
  /** After how long an unfinished claim (its holder crashed) may be taken over by a retry. */
  idempotencyLeaseMs: number;
  /** Namespace of this deployment's keys in a Redis that others may share. */
  redisKeyPrefix: string;
  /** How long a rate-limit check waits for Redis before using this instance's own buckets. */
  redisTimeoutMs: number;
  /** Failed app secrets allowed per app_id and per client address: a burst, then so many a minute. */
  authFailureBurst: number;
  authFailuresPerMinute: number;
  /**
   * Whose X-Forwarded-For names the client address (for the failed-secret limit): false (the
   * socket's peer), true (any), or the load balancers' comma-separated addresses or CIDRs.
   */
  trustProxy: boolean | string;
  /** Deepest JSON nesting accepted in a body; a submission needs 3. */
  jsonMaxDepth: number;
}

function protectionConfig(env: Env): ProtectionConfig {
  const redisKeyPrefix = text(env, 'REDIS_KEY_PREFIX');
  const rawProxy = optional(env, 'TRUST_PROXY');
  let trustProxy: boolean | string = false;
  if (rawProxy !== undefined) {
    if (/^(true|false)$/i.test(rawProxy)) trustProxy = boolean(env, 'TRUST_PROXY');
    else if (/^[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*$/.test(rawProxy)) trustProxy = rawProxy;
    else throw new ConfigError('TRUST_PROXY: must be true, false or proxy addresses (CIDRs allowed)');
  }
  return {
    idempotencyTtlSeconds: integer(env, 'IDEMPOTENCY_TTL_SECONDS'),
    idempotencyWaitMs: integer(env, 'IDEMPOTENCY_WAIT_MS'),
    idempotencyLeaseMs: integer(env, 'IDEMPOTENCY_LEASE_MS'),
    redisKeyPrefix,
    redisTimeoutMs: integer(env, 'REDIS_TIMEOUT_MS'),
    authFailureBurst: integer(env, 'AUTH_FAILURE_BURST'),
    authFailuresPerMinute: integer(env, 'AUTH_FAILURES_PER_MINUTE'),
    trustProxy,
    jsonMaxDepth: integer(env, 'JSON_MAX_DEPTH'),
  };
}

export interface KeyConfig {
  /**
   * The key new values are encrypted with, when not the last of ENCRYPTION_KEYS: a rotation first
   * gives every instance the new key as a non-current one, then makes it current.
   */
  currentKeyId: string | undefined;
  /** Explicit blind-index key (base64, 32 bytes): needed once the first key of the ring retires. */
  indexKey: Buffer | undefined;
  /** Rows re-encrypted per transaction by the background job: short transactions, steady progress. */
  reencryptBatchSize: number;
  /** How often the job looks for rows under older keys when it has nothing to do. */
  reencryptIntervalMs: number;
}

function keyConfig(env: Env, encryptionKeys: string | undefined): KeyConfig {
  const currentKeyId = optional(env, 'ENCRYPTION_CURRENT_KEY');
  const rawIndexKey = optional(env, 'ENCRYPTION_INDEX_KEY');
  if ((currentKeyId !== undefined || rawIndexKey !== undefined) && encryptionKeys === undefined) {
    throw new ConfigError(
      'ENCRYPTION_CURRENT_KEY, ENCRYPTION_INDEX_KEY: only with ENCRYPTION_KEYS (the key file of DATA_DIR manages itself)',
    );
  }
  if (
    currentKeyId !== undefined &&
    !encryptionKeys!.split(/\s*[,\n]\s*/).some((e) => e.startsWith(`${currentKeyId}:`))
  )
    throw new ConfigError('ENCRYPTION_CURRENT_KEY: must be the id of a key of ENCRYPTION_KEYS');
  let indexKey: Buffer | undefined;
  if (rawIndexKey !== undefined) {
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(rawIndexKey) || Buffer.from(rawIndexKey, 'base64').length !== 32)
      throw new ConfigError('ENCRYPTION_INDEX_KEY: must be 32 bytes in base64');
    indexKey = Buffer.from(rawIndexKey, 'base64');
  }
  if (encryptionKeys !== undefined) {
    // A malformed key ring is a configuration error like any other: found here, before anything
    // starts, and named without quoting key material.
    try {
      parseEncryptionKeys(encryptionKeys, { currentKeyId, indexKey });
    } catch (error) {
      throw new ConfigError(error instanceof Error ? error.message : 'ENCRYPTION_KEYS: cannot be read');
    }
  }
  return {
    currentKeyId,
    indexKey,
    reencryptBatchSize: integer(env, 'REENCRYPT_BATCH_SIZE'),
    reencryptIntervalMs: integer(env, 'REENCRYPT_INTERVAL_SECONDS') * 1000,
  };
}

export interface OperationsConfig {
  /** A separate listener for /metrics (then not served on PORT), so that it need not be public. */
  metricsPort: number | undefined;
  /**
   * Identity data of applications final for longer than this many days is erased; undefined (the
   * default) keeps it: erasure cannot be undone, so it is the deployment's decision.
   */
  retentionDays: number | undefined;
  /** How often the retention job runs in each instance. */
  retentionIntervalMs: number;
}

function operationsConfig(env: Env): OperationsConfig {
  return {
    metricsPort: optionalInteger(env, 'METRICS_PORT'),
    retentionDays: optionalInteger(env, 'RETENTION_DAYS'),
    retentionIntervalMs: integer(env, 'RETENTION_INTERVAL_SECONDS') * 1000,
  };
}

/** PCI DSS v4 8.2.8: an idle session ends after at most 15 minutes. */
export const PCI_IDLE_SECONDS = 900;

export interface OperatorConfig {
  /** A session unused for this long ends (PCI DSS 8.2.8); longer than 15 minutes only with a reason. */
  sessionIdleSeconds: number;
  /** Why the idle time-out is longer than PCI's 15 minutes (required then; logged at start). */
  sessionIdleReason: string | undefined;
  /** A session ends this long after sign-in however busy it is: a stolen token does not live forever. */
  sessionMaxSeconds: number;
  /** Every operator needs a second factor (TOTP) to sign in (PCI DSS 8.4.2); off by default only in SANDBOX. */
  mfaRequired: boolean;
  /** Failed sign-ins in a row that lock the account (PCI DSS 8.3.4: at most 10). */
  lockoutThreshold: number;
  /** How long a locked account stays locked (PCI DSS 8.3.4: at least 30 minutes). */
  lockoutSeconds: number;
  /** Masked values one operator may reveal per hour: a stolen session cannot empty the store. */
  revealsPerHour: number;
  /** How long a reviewer's claim on an application lasts without being renewed. */
  claimSeconds: number;
  /** Waiting time per status past which the queue highlights an application (status -> seconds). */
  slaSeconds: Readonly<Record<string, number>>;
}

function operatorConfig(env: Env, sandbox: boolean): OperatorConfig {
  const sessionIdleSeconds = integer(env, 'OPERATOR_SESSION_IDLE_SECONDS');
  const sessionIdleReason = optional(env, 'OPERATOR_SESSION_IDLE_REASON');
  if (
    sessionIdleSeconds > PCI_IDLE_SECONDS &&
    (sessionIdleReason === undefined || sessionIdleReason.trim().length < 10)
  )
    throw new ConfigError(
      `OPERATOR_SESSION_IDLE_SECONDS: more than ${PCI_IDLE_SECONDS} (PCI DSS 8.2.8) needs OPERATOR_SESSION_IDLE_REASON saying why`,
    );
  const sessionMaxSeconds = integer(env, 'OPERATOR_SESSION_MAX_SECONDS');
  if (sessionMaxSeconds < sessionIdleSeconds)
    throw new ConfigError(
      'OPERATOR_SESSION_MAX_SECONDS: must not be less than OPERATOR_SESSION_IDLE_SECONDS',
    );
  const slaSeconds: Record<string, number> = {};
  for (const part of text(env, 'REVIEW_SLA_SECONDS').split(',')) {
    const [status, seconds] = part.trim().split(':');
    slaSeconds[status!] = Number(seconds);
  }
  return {
    sessionIdleSeconds,
    sessionIdleReason,
    sessionMaxSeconds,
    // Default: required, except in SANDBOX (integration testing against fake data).
    mfaRequired:
      raw(env, 'OPERATOR_MFA_REQUIRED') === undefined ? !sandbox : boolean(env, 'OPERATOR_MFA_REQUIRED'),
    lockoutThreshold: integer(env, 'OPERATOR_LOCKOUT_THRESHOLD'),
    lockoutSeconds: integer(env, 'OPERATOR_LOCKOUT_SECONDS'),
    revealsPerHour: integer(env, 'OPERATOR_REVEALS_PER_HOUR'),
    claimSeconds: integer(env, 'REVIEW_CLAIM_SECONDS'),
    slaSeconds,
  };
}

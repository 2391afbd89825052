/**
 * The service's configuration: environment variables, parsed once at start, passed down as one
 * object. A bad value stops the start with a message that names the variable and the rule.
 */
export interface Config {
  /** TCP port of the HTTP API. */
  port: number;
  /** Interface to listen on; 0.0.0.0 so that a container or load balancer can reach it. */
  host: string;
  /** Where the embedded store keeps its database and its generated encryption key. */
  dataDir: string;
  /** Selects PostgreSQL (the production store) instead of the embedded SQLite file. */
  databaseUrl: string | undefined;
  /** PostgreSQL schema to use; lets several deployments (or test runs) share one database. */
  databaseSchema: string;
  /** Connections per instance; the sum over instances must stay under max_connections. */
  databasePoolSize: number;
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
  /** JSON file that replaces the default code tables. */
  codesFile: string | undefined;
  /** Enables the caller's lifecycle simulation endpoint for integration testing. */
  sandbox: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Minimum age of an applicant, in years. */
  minAge: number;
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

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[0-9]+$/.test(raw)) throw new ConfigError(`${name}: must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max)
    throw new ConfigError(`${name}: must be between ${min} and ${max}, got ${value}`);
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['false', '0', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name}: must be true or false, got "${raw}"`);
}

function optional(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(env: Env = process.env): Config {
  const databaseUrl = optional(env, 'DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL: must be a postgres:// or postgresql:// URL');
  }
  const databaseSchema = env['DATABASE_SCHEMA'] || 'public';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(databaseSchema)) {
    throw new ConfigError('DATABASE_SCHEMA: must be a lower-case SQL identifier');
  }
  const redisUrl = optional(env, 'REDIS_URL');
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError('REDIS_URL: must be a redis:// or rediss:// URL');
  }

  const bin = env['CARD_BIN'] || '539966';
  if (!/^[0-9]{6,8}$/.test(bin)) throw new ConfigError('CARD_BIN: must be 6 to 8 digits');
  const length = integer(env, 'CARD_LENGTH', 16, 12, 19);
  if (length < bin.length + 4)
    throw new ConfigError('CARD_LENGTH: must leave at least 4 digits after CARD_BIN');

  const encryptionKeys = optional(env, 'ENCRYPTION_KEYS');
  if (databaseUrl !== undefined && encryptionKeys === undefined) {
    throw new ConfigError(
      'ENCRYPTION_KEYS: is required with DATABASE_URL (comma-separated id:base64 32-byte keys, the last one current); ' +
        'generate one with: npx cardapply keys generate',
    );
  }

  const logLevel = (env['LOG_LEVEL'] || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel))
    throw new ConfigError(`LOG_LEVEL: must be one of ${LOG_LEVELS.join(', ')}`);

  const requestTimeoutMs = integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 1000, 600_000);
  const headersTimeoutMs = integer(env, 'HEADERS_TIMEOUT_MS', 10_000, 500, 600_000);
  // Node refuses a header time-out longer than the whole-request one: say so by name.
  if (headersTimeoutMs > requestTimeoutMs)
    throw new ConfigError('HEADERS_TIMEOUT_MS: must not be more than REQUEST_TIMEOUT_MS');

  return {
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: env['HOST'] || '0.0.0.0',
    dataDir: env['DATA_DIR'] || './data',
    databaseUrl,
    databaseSchema,
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 16, 1, 1000),
    redisUrl,
    card: { network: env['CARD_NETWORK'] || 'mastercard', bin, length },
    encryptionKeys,
    rateLimitPerSecond: integer(env, 'RATE_LIMIT_PER_SECOND', 50, 1, 1_000_000),
    rateLimitBurst: integer(env, 'RATE_LIMIT_BURST', 100, 1, 1_000_000),
    timestampSkewSeconds: integer(env, 'TIMESTAMP_SKEW_SECONDS', 300, 1, 86_400),
    tokenTtlSeconds: integer(env, 'TOKEN_TTL_SECONDS', 7200, 60, 30 * 86_400),
    codesFile: optional(env, 'CODES_FILE'),
    sandbox: boolean(env, 'SANDBOX', false),
    logLevel,
    minAge: integer(env, 'MIN_AGE', 18, 0, 120),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 65_536, 1024, 16 * 1024 * 1024),
    requestTimeoutMs,
    headersTimeoutMs,
    keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, 600_000),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    webhooks: webhookConfig(env),
    protection: protectionConfig(env),
    keys: keyConfig(env, encryptionKeys),
    operations: operationsConfig(env),
  };
}

function webhookConfig(env: Env): WebhookConfig {
  const timeoutMs = integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000);
  const leaseMs = integer(env, 'WEBHOOK_LEASE_MS', 60_000, 1_000, 3_600_000);
  // A lease shorter than an attempt would let a second worker start the same delivery.
  if (leaseMs < 2 * timeoutMs)
    throw new ConfigError('WEBHOOK_LEASE_MS: must be at least twice WEBHOOK_TIMEOUT_MS');
  const backoffBaseMs = integer(env, 'WEBHOOK_BACKOFF_BASE_MS', 5_000, 1, 3_600_000);
  const backoffMaxMs = integer(env, 'WEBHOOK_BACKOFF_MAX_MS', 3_600_000, 1, 86_400_000);
  if (backoffMaxMs < backoffBaseMs)
    throw new ConfigError('WEBHOOK_BACKOFF_MAX_MS: must not be less than WEBHOOK_BACKOFF_BASE_MS');
  return {
    inProcess: boolean(env, 'WEBHOOK_WORKER', true),
    concurrency: integer(env, 'WEBHOOK_CONCURRENCY', 8, 1, 256),
    pollIntervalMs: integer(env, 'WEBHOOK_POLL_INTERVAL_MS', 1_000, 10, 60_000),
    timeoutMs,
    leaseMs,
    backoffBaseMs,
    backoffMaxMs,
    maxAgeSeconds: integer(env, 'WEBHOOK_MAX_AGE_SECONDS', 86_400, 1, 30 * 86_400),
    allowPrivate: boolean(env, 'WEBHOOK_ALLOW_PRIVATE', false),
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
  const redisKeyPrefix = env['REDIS_KEY_PREFIX'] ?? 'cardapply:';
  if (!/^[A-Za-z0-9:._-]{0,64}$/.test(redisKeyPrefix))
    throw new ConfigError('REDIS_KEY_PREFIX: must be up to 64 letters, digits or :._-');
  const rawProxy = optional(env, 'TRUST_PROXY');
  let trustProxy: boolean | string = false;
  if (rawProxy !== undefined) {
    if (/^(true|false)$/i.test(rawProxy)) trustProxy = boolean(env, 'TRUST_PROXY', false);
    else if (/^[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*$/.test(rawProxy)) trustProxy = rawProxy;
    else throw new ConfigError('TRUST_PROXY: must be true, false or proxy addresses (CIDRs allowed)');
  }
  return {
    idempotencyTtlSeconds: integer(env, 'IDEMPOTENCY_TTL_SECONDS', 86_400, 86_400, 30 * 86_400),
    idempotencyWaitMs: integer(env, 'IDEMPOTENCY_WAIT_MS', 5_000, 0, 60_000),
    idempotencyLeaseMs: integer(env, 'IDEMPOTENCY_LEASE_MS', 60_000, 1_000, 3_600_000),
    redisKeyPrefix,
    redisTimeoutMs: integer(env, 'REDIS_TIMEOUT_MS', 250, 10, 10_000),
    authFailureBurst: integer(env, 'AUTH_FAILURE_BURST', 10, 1, 100_000),
    authFailuresPerMinute: integer(env, 'AUTH_FAILURES_PER_MINUTE', 10, 1, 100_000),
    trustProxy,
    jsonMaxDepth: integer(env, 'JSON_MAX_DEPTH', 32, 3, 256),
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
  return {
    currentKeyId,
    indexKey,
    reencryptBatchSize: integer(env, 'REENCRYPT_BATCH_SIZE', 200, 1, 10_000),
    reencryptIntervalMs: integer(env, 'REENCRYPT_INTERVAL_SECONDS', 60, 1, 86_400) * 1000,
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
  const metricsPort = optional(env, 'METRICS_PORT');
  const retentionDays = optional(env, 'RETENTION_DAYS');
  return {
    metricsPort: metricsPort === undefined ? undefined : integer(env, 'METRICS_PORT', 0, 0, 65535),
    retentionDays: retentionDays === undefined ? undefined : integer(env, 'RETENTION_DAYS', 0, 1, 36_500),
    retentionIntervalMs: integer(env, 'RETENTION_INTERVAL_SECONDS', 3600, 10, 7 * 86_400) * 1000,
  };
}

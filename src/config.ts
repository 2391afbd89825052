import { availableParallelism } from 'node:os';
import { LOG_LEVELS } from './environment.ts';
import { documentConfig, type DocumentConfig } from './config/documents.ts';
import { keyConfig, type KeyConfig } from './config/keys.ts';
import { operationsConfig, type OperationsConfig } from './config/operations.ts';
import { operatorConfig, type OperatorConfig } from './config/operators.ts';
import { protectionConfig, type ProtectionConfig } from './config/protection.ts';
import {
  boolean,
  ConfigError,
  integer,
  optional,
  raw,
  text,
  timeZone,
  type Env,
} from './config/variables.ts';
import { webhookConfig, type WebhookConfig } from './config/webhooks.ts';
import { screeningConfig, type ScreeningConfig } from './config/screening.ts';

export { ConfigError } from './config/variables.ts';
export type { WebhookConfig } from './config/webhooks.ts';

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
  /** Key rotation and re-encryption: see config/keys.ts. */
  keys: KeyConfig;
  /** Metrics listener and retention: see config/operations.ts. */
  operations: OperationsConfig;
  /** Defaults for apps that have no limit of their own. */
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  /** Requests of one app in progress at once in a process; more are refused at once. */
  appConcurrencyLimit: number;
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
  /** JSON file that replaces the default risk policy (policies/defaultRiskPolicy.json). */
  riskPolicyFile: string | undefined;
  /** Enables the partner's lifecycle simulation endpoint for integration testing. */
  sandbox: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Minimum age of an applicant, in years. */
  minAge: number;
  /** IANA time zone whose date is "today" for age and document dates: the issuer's, not UTC. */
  businessTimeZone: string;
  /** Days a partner has to amend an application an operator asked more of; then it becomes EXPIRED. */
  supplementDays: number;
  /** Days to answer an applicant's request through the partner: its due date. */
  subjectRequestDays: number;
  /** Hours an access or portability export waits for its one download; then it is erased. */
  subjectExportHours: number;
  /** Years identification records are kept after the relationship ends (AML): a deletion within them is restricted. */
  amlRetentionYears: number;
  /** Largest accepted request body; a submission is a few kilobytes. */
  bodyLimitBytes: number;
  /** Whole-request time-out and header time-out: a slow client cannot hold a connection. */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** How long a graceful shutdown waits for requests in flight before giving up. */
  shutdownGraceMs: number;
  /** Webhook delivery: see config/webhooks.ts. */
  webhooks: WebhookConfig;
  /** Idempotency keys, credential guessing and other abuse limits: see config/protection.ts. */
  protection: ProtectionConfig;
  /** Operator sign-in, sessions, second factor and review work: see config/operators.ts. */
  operators: OperatorConfig;
  /** The image fields' documents: fetch limits and retries, see config/documents.ts. */
  documents: DocumentConfig;
  /** Sanctions screening: see config/screening.ts. */
  screening: ScreeningConfig;
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
    appConcurrencyLimit: integer(env, 'APP_CONCURRENCY_LIMIT'),
    timestampSkewSeconds: integer(env, 'TIMESTAMP_SKEW_SECONDS'),
    tokenTtlSeconds: integer(env, 'TOKEN_TTL_SECONDS'),
    tokenCacheMs: integer(env, 'TOKEN_CACHE_MS'),
    codesFile: optional(env, 'CODES_FILE'),
    riskPolicyFile: optional(env, 'RISK_POLICY_FILE'),
    sandbox: boolean(env, 'SANDBOX'),
    logLevel,
    minAge: integer(env, 'MIN_AGE'),
    businessTimeZone: timeZone(env, 'BUSINESS_TIMEZONE'),
    supplementDays: integer(env, 'SUPPLEMENT_DAYS'),
    subjectRequestDays: integer(env, 'SUBJECT_REQUEST_DAYS'),
    subjectExportHours: integer(env, 'SUBJECT_EXPORT_HOURS'),
    amlRetentionYears: integer(env, 'AML_RETENTION_YEARS'),
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
    documents: documentConfig(env),
    screening: screeningConfig(env),
  };
}

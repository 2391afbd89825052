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
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 1000, 600_000),
    headersTimeoutMs: integer(env, 'HEADERS_TIMEOUT_MS', 10_000, 500, 600_000),
    keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, 600_000),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
  };
}

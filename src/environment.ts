import { Type, type TSchema } from 'typebox';

/**
 * Every environment variable the service reads, once: its type, default, bounds and why it exists.
 * `config.ts` parses the environment against it (a bad value stops the start, exit 78, naming the
 * variable), docs/DEPLOYMENT.md's configuration table is generated from it (`npm run docs`), and a test
 * fails when config.ts reads a variable that is not here, or the table differs.
 *
 * Keywords beyond JSON Schema: `defaultText` says what an unset variable means when that is not a
 * plain value (`generated for SQLite`).
 */

const integer = (fallback: number, minimum: number, maximum: number, description: string) =>
  Type.Integer({ default: fallback, minimum, maximum, description });
const flag = (fallback: boolean, description: string) => Type.Boolean({ default: fallback, description });
const text = (fallback: string, pattern: string, rule: string, description: string) =>
  Type.String({ default: fallback, pattern, rule, description });
const unset = (schema: TSchema, defaultText: string) =>
  Type.Optional(Type.Unsafe<string>({ ...schema, defaultText }));

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const ENVIRONMENT = Type.Object({
  // Listening and storage.
  PORT: integer(8080, 0, 65535, 'TCP port of the HTTP API'),
  WORKERS: text(
    '1',
    '^(auto|[1-9][0-9]{0,2})$',
    'must be auto or a whole number from 1 to 999',
    'service processes sharing `PORT` (`auto`: one per core); background jobs run in the first (docs/DEPLOYMENT.md)',
  ),
  HOST: Type.String({
    default: '0.0.0.0',
    description: 'interface to listen on; all of them, so that a container or balancer can reach it',
  }),
  DATA_DIR: Type.String({
    default: './data',
    description: 'the embedded store (`cardapply.db`) and its generated key file',
  }),
  DATABASE_URL: unset(
    Type.String({
      pattern: '^postgres(ql)?://',
      rule: 'must be a postgres:// or postgresql:// URL',
      description: 'selects PostgreSQL (the production store) instead of the embedded SQLite file',
    }),
    'unset (SQLite)',
  ),
  DATABASE_SCHEMA: text(
    'public',
    '^[a-z_][a-z0-9_]{0,62}$',
    'must be a lower-case SQL identifier',
    'PostgreSQL schema (created if missing): several deployments or test runs can share a database',
  ),
  DATABASE_POOL_SIZE: integer(
    16,
    1,
    1000,
    'PostgreSQL connections per process; the budget: docs/DEPLOYMENT.md (checked at start)',
  ),
  DATABASE_PREPARED_STATEMENTS: flag(
    false,
    'named prepared statements; only on a direct connection or a pooler that carries them (PgBouncer 1.21+)',
  ),
  REDIS_URL: unset(
    Type.String({
      pattern: '^rediss?://',
      rule: 'must be a redis:// or rediss:// URL',
      description: 'shares the per-app rate limit between instances (else each instance keeps its own)',
    }),
    'unset (in memory)',
  ),
  REDIS_KEY_PREFIX: text(
    'cardapply:',
    '^[A-Za-z0-9:._-]{0,64}$',
    'must be up to 64 letters, digits or :._-',
    "namespace of this deployment's keys in a Redis that others may share",
  ),
  REDIS_TIMEOUT_MS: integer(
    250,
    10,
    10_000,
    "how long a rate-limit check waits for Redis before using the instance's own buckets",
  ),
  // The card product.
  CARD_NETWORK: Type.String({ default: 'mastercard', description: 'payment network of the card product' }),
  CARD_BIN: text('539966', '^[0-9]{6,8}$', 'must be 6 to 8 digits', 'BIN of the card product'),
  CARD_LENGTH: integer(16, 12, 19, 'digits of a card number (at least 4 after the BIN)'),
  // Encryption keys.
  ENCRYPTION_KEYS: unset(
    Type.String({
      description:
        '`id:base64` 32-byte keys, comma-separated, the last one current; required with PostgreSQL (`npx cardapply keys generate`)',
    }),
    'generated for SQLite',
  ),
  ENCRYPTION_CURRENT_KEY: unset(
    Type.String({
      description:
        'the key new values use, when not the last of `ENCRYPTION_KEYS` (step 1 of a rotation, docs/DEPLOYMENT.md)',
    }),
    'the last key',
  ),
  ENCRYPTION_INDEX_KEY: unset(
    Type.String({
      description:
        'base64 32-byte key of the duplicate-check hashes; printed by `keys retire` when the first key retires',
    }),
    'derived from the first key',
  ),
  REENCRYPT_BATCH_SIZE: integer(
    200,
    1,
    10_000,
    'rows per transaction of the background re-encryption (and of the document-hash re-keying)',
  ),
  REENCRYPT_INTERVAL_SECONDS: integer(60, 1, 86_400, 'how often they look for work'),
  // Partners.
  RATE_LIMIT_PER_SECOND: integer(
    50,
    1,
    1_000_000,
    'requests per second of an app without a limit of its own',
  ),
  RATE_LIMIT_BURST: integer(100, 1, 1_000_000, 'burst of an app without a limit of its own'),
  APP_CONCURRENCY_LIMIT: integer(
    16,
    1,
    1_000_000,
    "requests of one app in progress at once in a process, for an app without a limit of its own (`cardapply apps set-concurrency`); more are refused at once (429) so that one app's flood cannot make the others queue",
  ),
  TIMESTAMP_SKEW_SECONDS: integer(
    300,
    1,
    86_400,
    "allowed distance of a request's `timestamp` from server time: bounds the replay window",
  ),
  TOKEN_TTL_SECONDS: integer(7200, 60, 30 * 86_400, 'access token lifetime'),
  TOKEN_CACHE_MS: integer(
    1000,
    0,
    1000,
    'how long a process trusts a token it checked (0 to 1000 ms): a revoked token or disabled app is refused everywhere within it',
  ),
  IDEMPOTENCY_TTL_SECONDS: integer(
    86_400,
    86_400,
    30 * 86_400,
    'how long an `Idempotency-Key` and its response are kept (partners are promised a day)',
  ),
  IDEMPOTENCY_WAIT_MS: integer(
    5_000,
    0,
    60_000,
    'how long a request waits for a concurrent one with the same key before answering 409',
  ),
  IDEMPOTENCY_LEASE_MS: integer(
    60_000,
    1_000,
    3_600_000,
    'after how long the unfinished claim of a crashed holder may be taken over by a retry',
  ),
  AUTH_FAILURE_BURST: integer(
    10,
    1,
    100_000,
    'failed app secrets or operator passwords allowed at once per name and per client address',
  ),
  AUTH_FAILURES_PER_MINUTE: integer(10, 1, 100_000, 'and then so many a minute'),
  TRUST_PROXY: unset(
    Type.String({
      pattern: '^(true|false|TRUE|FALSE|True|False|[0-9a-fA-F.:/]+(\\s*,\\s*[0-9a-fA-F.:/]+)*)$',
      rule: 'must be true, false or proxy addresses (CIDRs allowed)',
      description:
        "whose `X-Forwarded-For` names the client address: `true` (any), or the balancers' addresses or CIDRs",
    }),
    'false (the socket peer)',
  ),
  // Requests.
  BODY_LIMIT_BYTES: integer(
    65_536,
    1024,
    16 * 1024 * 1024,
    'largest request body; a submission is a few KiB',
  ),
  JSON_MAX_DEPTH: integer(32, 3, 256, 'deepest JSON nesting accepted in a body; a submission needs 3'),
  REQUEST_TIMEOUT_MS: integer(
    30_000,
    1000,
    600_000,
    'whole-request time-out: a slow client cannot hold a connection',
  ),
  HEADERS_TIMEOUT_MS: integer(10_000, 500, 600_000, 'header time-out (not more than `REQUEST_TIMEOUT_MS`)'),
  KEEP_ALIVE_TIMEOUT_MS: integer(5_000, 100, 600_000, 'how long an idle keep-alive connection stays open'),
  SHUTDOWN_GRACE_MS: integer(10_000, 0, 600_000, 'how long SIGTERM waits for requests in flight'),
  // The applicant checks.
  MIN_AGE: integer(18, 0, 120, 'minimum age of an applicant, in years'),
  BUSINESS_TIMEZONE: Type.String({
    default: 'Asia/Shanghai',
    description: 'IANA time zone whose date is "today" for age and document dates (not UTC)',
  }),
  // The lifecycle.
  SUPPLEMENT_DAYS: integer(
    14,
    1,
    365,
    'days a partner has to amend after a request for information; then the application is `EXPIRED`',
  ),
  SUBJECT_REQUEST_DAYS: integer(
    15,
    1,
    90,
    "days the issuer gives itself to answer an applicant's request (access, copy, correction, deletion): its due date (docs/PRIVACY.md)",
  ),
  SUBJECT_EXPORT_HOURS: integer(
    72,
    1,
    720,
    'hours an access or portability export waits, sealed, for the partner to download it once; then it is erased (docs/PRIVACY.md)',
  ),
  AML_RETENTION_YEARS: integer(
    5,
    1,
    50,
    'years customer identification records are kept after the relationship ends (anti-money-laundering law): a deletion within them ends `restricted`',
  ),
  CODES_FILE: unset(
    Type.String({ description: 'JSON file replacing default code tables' }),
    'unset (defaults)',
  ),
  RISK_POLICY_FILE: unset(
    Type.String({
      description:
        'JSON file replacing the default risk policy (docs/RISK.md; `cardapply risk policy validate` checks one)',
    }),
    'unset (the default policy)',
  ),
  SANDBOX: flag(false, "enables the partner's lifecycle simulation endpoint, for integration testing"),
  LOG_LEVEL: Type.Union(
    LOG_LEVELS.map((level) => Type.Literal(level)),
    { default: 'info', description: 'pino level; SIGUSR2 toggles `debug` at run time' },
  ),
  // Webhooks.
  WEBHOOK_WORKER: flag(
    true,
    'run the webhook dispatcher and the job runner in the service process (`false` where `cardapply worker` runs them)',
  ),
  WEBHOOK_CONCURRENCY: integer(8, 1, 256, 'webhook attempts in flight per worker'),
  WEBHOOK_POLL_INTERVAL_MS: integer(1_000, 10, 60_000, 'how often an idle worker looks for work'),
  WEBHOOK_TIMEOUT_MS: integer(
    10_000,
    100,
    120_000,
    'time-out of one attempt (DNS, connect, response headers): a slow receiver cannot hold a slot',
  ),
  WEBHOOK_LEASE_MS: integer(
    60_000,
    1_000,
    3_600_000,
    "how long a claimed delivery stays its worker's (at least twice the time-out)",
  ),
  WEBHOOK_BACKOFF_BASE_MS: integer(
    5_000,
    1,
    3_600_000,
    'exponential backoff with full jitter: the n-th retry waits up to min(max, base × 2^(n-1))',
  ),
  WEBHOOK_BACKOFF_MAX_MS: integer(3_600_000, 1, 86_400_000, 'the longest wait between two attempts'),
  WEBHOOK_MAX_AGE_SECONDS: integer(
    86_400,
    1,
    30 * 86_400,
    'how long a delivery is retried before it is marked failed (a day at least in production)',
  ),
  WEBHOOK_ALLOW_PRIVATE: flag(
    false,
    'allows http and private, loopback or link-local receivers: tests and closed networks only (a warning at start says it is on)',
  ),
  // Documents (the five image fields), fetched after the acknowledgement.
  DOCUMENT_MAX_BYTES: integer(
    10 * 1024 * 1024,
    1024,
    100 * 1024 * 1024,
    'largest document kept; a bigger body is cut off while it streams (`too_large`)',
  ),
  DOCUMENT_MAX_PIXELS: integer(
    50_000_000,
    1_000_000,
    500_000_000,
    "largest image kept, in pixels (width × height) as its header declares them, read before anything is decoded (`too_large`); 50 megapixels holds a phone camera's photo with room to spare, some 200 MB decoded",
  ),
  DOCUMENT_FETCH_HOURS: integer(
    24,
    0,
    30 * 24,
    'how long an unreachable document is tried again before it is `failed` (`0`: one attempt)',
  ),
  DOCUMENT_CONNECT_TIMEOUT_MS: integer(
    5_000,
    100,
    120_000,
    "time-out of one document fetch's DNS, connection and TLS handshake",
  ),
  DOCUMENT_TIMEOUT_MS: integer(
    60_000,
    1_000,
    60_000,
    'time-out of one whole document fetch, redirects and body included (at most a minute); a fetch whose process died is taken up again after one and a half times this',
  ),
  DOCUMENT_FETCH_SLOTS: integer(
    20,
    1,
    1_000,
    "document fetches in flight at once in a process, all partners' together; a fetch without a slot waits in line, holding no connection and no memory of its body",
  ),
  DOCUMENT_SLOTS_PER_PARTNER: integer(
    10,
    1,
    1_000,
    "of them, at most this many for one partner's documents, so that its slow hosts leave the rest to others; a freed slot goes to the waiting partner with the fewest",
  ),
  DOCUMENT_SLOTS_PER_HOST: integer(
    8,
    1,
    1_000,
    "of them, at most this many to one host (the URL's host and port), whichever partners' documents it serves",
  ),
  DOCUMENT_HOST_BACKOFF_MS: integer(
    1_000,
    0,
    600_000,
    'after a host times out, refuses the connection or answers 5xx or 429, its next fetches wait this long without a slot, doubled per failure in a row (at most 64 times) (`0`: none)',
  ),
  DOCUMENT_ALLOW_PRIVATE: flag(
    false,
    'allows http and private, loopback or link-local image hosts: tests and closed networks only (a warning at start says it is on)',
  ),
  // Sanctions screening (docs/SCREENING.md).
  SCREENING_THRESHOLD: text(
    '0.9',
    '^(0\\.[5-9][0-9]{0,2}|1(\\.0{1,3})?)$',
    'must be a decimal from 0.5 to 1',
    'score (0 to 1) at which a listed name is a hit; 0.9 keeps recall at 98% or more with false positives under 0.5% on the labelled set',
  ),
  SCREENING_REQUIRED: flag(
    true,
    'not ready (`/readyz`) and no approval while no sanctions list is in force, and not ready while a list is older than `SCREENING_MAX_AGE_DAYS`; `false` (tests, a sandbox) only warns at start',
  ),
  SCREENING_MAX_AGE_DAYS: integer(
    7,
    1,
    365,
    'days since the newest import of a list before the instance is not ready: a daily import may fail six days running (a long weekend) before traffic stops (docs/SCREENING.md)',
  ),
  ISSUER_WEBHOOK_URL: unset(
    Type.String({
      pattern: '^https?://[^\\s]+$',
      rule: 'must be an http:// or https:// URL',
      description:
        "the issuer's own endpoint for screening alerts (a hit after delivery), signed as webhooks are; never a partner's",
    }),
    'unset (the admin feed only)',
  ),
  ISSUER_WEBHOOK_SECRET: unset(
    Type.String({
      pattern: '^whsec_[A-Za-z0-9+/]{43}=$',
      rule: 'must be whsec_ and the base64 of 32 bytes (`echo whsec_$(openssl rand -base64 32)`)',
      description:
        'Standard Webhooks secret that signs the screening alerts; required with `ISSUER_WEBHOOK_URL`',
    }),
    'unset',
  ),
  // Operations.
  METRICS_PORT: unset(
    Type.Integer({ minimum: 0, maximum: 65535, description: 'serve `/metrics` on this port only' }),
    'unset (on `PORT`)',
  ),
  RETENTION_DAYS: unset(
    Type.Integer({
      minimum: 1,
      maximum: 36_500,
      description: 'erase identity data of applications final for longer than this many days',
    }),
    'unset (keep)',
  ),
  RETENTION_INTERVAL_SECONDS: integer(3600, 10, 7 * 86_400, 'how often each instance runs the retention job'),
  AUDIT_HEAD_LOG_SECONDS: integer(
    600,
    10,
    86_400,
    'how often the head of the audit hash chain (`hash@id`) is written to the log, and at shutdown: `audit verify --head` compares',
  ),
  // Operators (PCI DSS v4 requirement 8) and review work.
  OPERATOR_MFA_REQUIRED: Type.Optional(
    Type.Unsafe<boolean>({
      type: 'boolean',
      defaultText: '`true` (not in `SANDBOX`)',
      description:
        'every operator signs in with a TOTP second factor (PCI DSS 8.4.2); without one a sign-in may only enrol it',
    }),
  ),
  OPERATOR_SESSION_IDLE_SECONDS: integer(
    900,
    10,
    86_400,
    'an unused session ends (PCI DSS 8.2.8); more than 900 only with `OPERATOR_SESSION_IDLE_REASON`',
  ),
  OPERATOR_SESSION_IDLE_REASON: unset(
    Type.String({ description: 'why the idle time-out is longer than 15 minutes (10 characters or more)' }),
    'unset',
  ),
  OPERATOR_SESSION_MAX_SECONDS: integer(
    28_800,
    60,
    7 * 86_400,
    'a session ends this long after sign-in, however busy',
  ),
  OPERATOR_LOCKOUT_THRESHOLD: integer(
    10,
    1,
    10,
    'failed sign-ins in a row that lock an account (PCI DSS 8.3.4: at most 10)',
  ),
  OPERATOR_LOCKOUT_SECONDS: integer(
    1800,
    1800,
    86_400,
    'how long a locked account stays locked (PCI DSS 8.3.4: at least 1800)',
  ),
  OPERATOR_REVEALS_PER_HOUR: integer(
    100,
    1,
    100_000,
    'reveals (and openings for review) one operator may make an hour',
  ),
  REVIEW_CLAIM_SECONDS: integer(
    1800,
    60,
    86_400,
    "how long a reviewer's claim on an application lasts unless renewed",
  ),
  REVIEW_SLA_SECONDS: text(
    'SUBMITTED:14400,IN_REVIEW:86400',
    '^\\s*[A-Z_]{2,32}:[0-9]{1,9}\\s*(,\\s*[A-Z_]{2,32}:[0-9]{1,9}\\s*)*$',
    'must be STATUS:seconds pairs, comma-separated',
    'per status, the time after which the queue and the workload mark an application as past its SLA',
  ),
});

export type VariableName = keyof typeof ENVIRONMENT.properties;

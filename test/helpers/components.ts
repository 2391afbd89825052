import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGBOUNCER_BIN } from './pgbouncer.ts';
import { privatePostgresAvailable } from './privatePostgres.ts';

/**
 * The real components some tests need beyond Node: a PostgreSQL server to share (DATABASE_URL),
 * PostgreSQL's binaries for private servers, Redis, PgBouncer and Chromium. On a machine without
 * one, the tests that need it are skipped and `npm test` ends by naming them with the command that
 * installs it (scripts/testEnvironment.ts); with CI=true a missing component fails the test
 * instead, so that CI proves everything.
 */
export interface Component {
  readonly name: string;
  /** What is skipped without it. */
  readonly needs: string;
  /** The one command that provides it on Debian (run as root). */
  readonly install: string;
  available(): boolean;
  /**
   * Skipped even under CI=true: what the checkout was handed over with (its git history), not a
   * component the machine lacks.
   */
  readonly skippedUnderCi?: true;
}

/**
 * The release a rolling deploy starts from: the last one before a change of state wrote one row (its
 * history and its event as one record, migrations 0066 and 0067), whose instances run beside the new
 * schema during the deploy.
 */
export const EARLIER_RELEASE = 'd5c7e1a79b9741e3864cd345ae7cbda7c0b42133';
export const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));

const PG_VERSION_DIR = '$(ls /etc/postgresql | sort -V | tail -n 1)';

function redisAnswers(): boolean {
  const url = new URL(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379');
  const probe = `require('node:net').connect(${Number(url.port || 6379)}, ${JSON.stringify(url.hostname)})
    .on('connect', () => process.exit(0)).on('error', () => process.exit(1))`;
  return spawnSync(process.execPath, ['-e', probe], { timeout: 3_000 }).status === 0;
}

export const COMPONENTS = {
  postgres: {
    name: 'PostgreSQL (DATABASE_URL)',
    needs: 'every storing test on PostgreSQL, multi-instance and worker tests',
    install:
      `apt-get install -y postgresql && pg_ctlcluster --skip-systemctl-redirect ${PG_VERSION_DIR} main start && ` +
      `DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm test`,
    available: () => (process.env['DATABASE_URL'] ?? '') !== '',
  },
  postgresBinaries: {
    name: 'PostgreSQL binaries (initdb)',
    needs: 'outage and readiness tests, which start and stop private PostgreSQL servers',
    install: 'apt-get install -y postgresql',
    available: privatePostgresAvailable,
  },
  pgbouncer: {
    name: `PgBouncer (${PGBOUNCER_BIN})`,
    needs: 'the pooler tests (test/store/pgbouncer.test.ts, npm run test:pgbouncer)',
    install: 'apt-get install -y pgbouncer',
    available: () => existsSync(PGBOUNCER_BIN),
  },
  redis: {
    name: 'Redis (127.0.0.1:6379 or REDIS_URL)',
    needs: 'the shared rate limit across instances',
    install: 'apt-get install -y redis-server && redis-server --daemonize yes --bind 127.0.0.1 --save ""',
    available: redisAnswers,
  },
  earlierRelease: {
    name: `the earlier release (commit ${EARLIER_RELEASE.slice(0, 7)} in git history)`,
    needs: 'the rolling deploy from it (test/server/rollingDeploy.test.ts)',
    install: 'git clone the repository with its history (a tarball or a shallow clone has none)',
    available: () =>
      spawnSync('git', ['cat-file', '-e', `${EARLIER_RELEASE}^{commit}`], { cwd: REPOSITORY }).status === 0,
    skippedUnderCi: true,
  },
  chromium: {
    name: 'Chromium (/usr/bin/chromium)',
    needs: "the operator console's end-to-end tests",
    install: 'apt-get install -y chromium fonts-wqy-microhei',
    available: () => existsSync('/usr/bin/chromium'),
  },
} as const satisfies Record<string, Component>;

export type ComponentName = keyof typeof COMPONENTS;

const known = new Map<ComponentName, boolean>();

/** Whether the component is here (asked once per process). */
export function hasComponent(name: ComponentName): boolean {
  if (!known.has(name)) known.set(name, COMPONENTS[name].available());
  return known.get(name)!;
}

/**
 * For `describe(..., { skip: skipWithout('chromium') })`: false when the component is here, else
 * the reason; under CI=true a missing component throws, so the run fails instead of skipping.
 */
export function skipWithout(...names: ComponentName[]): false | string {
  const missing = names.filter((name) => !hasComponent(name));
  if (missing.length === 0) return false;
  const what = missing.map((name) => COMPONENTS[name].name).join(', ');
  const required = missing.filter((name) => !('skippedUnderCi' in COMPONENTS[name]));
  if (process.env['CI'] === 'true' && required.length > 0) {
    throw new Error(
      `${what} missing under CI=true: ${required.map((n) => COMPONENTS[n].install).join('; ')}`,
    );
  }
  return `needs ${what} (npm test says how to install it)`;
}

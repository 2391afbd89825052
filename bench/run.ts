import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createApp } from '../src/partners/credentials.ts';
import { encodeCursor } from '../src/applications/views/listCursor.ts';
import { loadConfig } from '../src/config.ts';
import { ENVIRONMENT } from '../src/environment.ts';
import { PATHS } from '../src/http/paths.ts';
import { createLogger } from '../src/logger.ts';
import { openContext } from '../src/start.ts';
import { SQLITE_FILE } from '../src/store/connect.ts';
import { uniqueApplicant } from '../test/helpers/applicants.ts';
import { startPgBouncer, type PgBouncer } from '../test/helpers/pgbouncer.ts';
import { load, median, type LoadResult } from './load.ts';
import { paced } from './paced.ts';
import { pacedInThread } from './pacedThread.ts';
import { PINNING, startServer, storeServersCpuMs, type Server } from './processes.ts';
import { seedApplications, seededSerial } from './seed.ts';
import { growStore, sizeLoads, sizeRatios, type SizeLoads } from './size.ts';
import { walByRelation, walPosition, type WalShare } from './wal.ts';
import { rescreenRate } from './rescreen.ts';
import { screeningBenchmark } from './screening.ts';

/**
 * `npm run bench`: the service against the floor (a minimal durable insert) on the same store, the
 * same machine and the same load, in one run. Prints medians and ratios; writes bench/results/*.json.
 * BENCH_SMOKE=1 runs a seconds-long version (part of npm test) that only proves the bench works.
 *
 * Targets: SQLite; with DATABASE_URL, PostgreSQL directly and through a PgBouncer in transaction
 * mode that the bench starts itself (floor and service both through it). Parts: `submit` (fresh
 * submissions, floor and service interleaved), `dup` (a flood of one duplicate application, and the
 * latency of another partner's fresh submissions meanwhile), `half` (p99 at half the maximum rate,
 * evenly paced, the floor at the same rate beside it),
 * `reads` (status query and list at 10k and 1M rows), `size` (submit, duplicate flood, query, list
 * and events list on an empty store and at 1M applications with a year of history, and the
 * ratio), `cold` (start to listening), `screen` (sanctions screening of one applicant against
 * 30,000 listed names, then 100,000 of all five lists, bench/screening.ts), `rescreen` (the worker's re-screen of stored
 * applications after a list import, against reading and screening them in one process,
 * bench/rescreen.ts), `counters` (submit on SQLite with the counter
 * triggers and without, only when asked for).
 */
const SMOKE = process.env['BENCH_SMOKE'] === '1';
const SECONDS = SMOKE ? 1 : Number(process.env['BENCH_SECONDS'] ?? 10);
const WARMUP = SMOKE ? 0.5 : Number(process.env['BENCH_WARMUP'] ?? 3);
const RUNS = SMOKE ? 1 : Number(process.env['BENCH_RUNS'] ?? 3);
const SMALL = SMOKE ? 1_000 : 10_000;
const LARGE = SMOKE ? 5_000 : Number(process.env['BENCH_LARGE'] ?? 1_000_000);
const PG_URL = process.env['DATABASE_URL'];
/** Stored applications the re-screen part screens. */
const RESCREEN_COUNT = SMOKE ? 1_000 : Number(process.env['BENCH_RESCREEN'] ?? 100_000);
const KEYS = `b1:${randomBytes(32).toString('base64')}`;
/**
 * Which parts to run (comma-separated): submit, dup, half, reads, size, cold, screen, rescreen,
 * counters.
 * All but counters by default.
 */
const PARTS = new Set(
  (process.env['BENCH_PARTS'] ?? 'submit,dup,half,reads,size,cold,screen,rescreen').split(','),
);
const UNLIMITED = {
  RATE_LIMIT_PER_SECOND: '1000000',
  RATE_LIMIT_BURST: '1000000',
  APP_CONCURRENCY_LIMIT: '1000000',
};
function shippedDefault(
  name: 'RATE_LIMIT_PER_SECOND' | 'RATE_LIMIT_BURST' | 'APP_CONCURRENCY_LIMIT',
): number {
  return (ENVIRONMENT.properties[name] as unknown as { default: number }).default;
}
/** RATE_LIMIT_PER_SECOND and RATE_LIMIT_BURST as shipped, for the flood as deployed. */
const DEFAULT_APP_RATE = shippedDefault('RATE_LIMIT_PER_SECOND');
const DEFAULT_APP_BURST = shippedDefault('RATE_LIMIT_BURST');
/** APP_CONCURRENCY_LIMIT for the capped flood: as shipped, or BENCH_APP_CONCURRENCY to try another. */
const APP_CONCURRENCY = Number(
  process.env['BENCH_APP_CONCURRENCY'] ?? shippedDefault('APP_CONCURRENCY_LIMIT'),
);
/** Extra environment for the service (e.g. WORKERS=2), to measure a setting. */
const SERVICE_ENV: Record<string, string> = Object.fromEntries(
  (process.env['BENCH_SERVICE_ENV'] ?? '')
    .split(',')
    .filter((pair) => pair.includes('='))
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);

type TargetName = 'sqlite' | 'postgres' | 'pgbouncer';
const TARGETS: TargetName[] = (process.env['BENCH_TARGETS']?.split(',') as TargetName[] | undefined) ?? [
  'sqlite',
  ...(PG_URL ? (['postgres', 'pgbouncer'] as const) : []),
];
const cleanups: (() => void | Promise<void>)[] = [];
const nowSeconds = () => Math.floor(Date.now() / 1000);
let bouncer: PgBouncer | undefined;

function storeEnv(target: TargetName): Record<string, string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cardapply-bench-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const env: Record<string, string> = { DATA_DIR: dataDir, DATABASE_URL: '', ...UNLIMITED };
  if (target !== 'sqlite') {
    Object.assign(env, {
      DATABASE_URL: target === 'pgbouncer' ? bouncer!.url : PG_URL!,
      DATABASE_SCHEMA: `bench_${randomBytes(4).toString('hex')}`,
      ENCRYPTION_KEYS: KEYS,
    });
  }
  return env;
}

async function dropSchema(env: Record<string, string>): Promise<void> {
  if (!env['DATABASE_SCHEMA']) return;
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${env['DATABASE_SCHEMA']}" CASCADE`);
  await client.end();
}

/** A partner of the service on `env`'s store, with its token. */
async function partner(
  env: Record<string, string>,
  server: Server,
  name = 'bench',
): Promise<{ appId: string; token: string }> {
  const ctx = await openContext(loadConfig(env), createLogger({ logLevel: 'silent' }));
  const app = await createApp(ctx.store.db, name, Date.now());
  await ctx.store.close();
  const reply = await fetch(`${server.url}${PATHS.token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...app, timestamp: nowSeconds() }),
  });
  const token = ((await reply.json()) as { data: { access_token: string } }).data.access_token;
  return { appId: app.app_id, token };
}

let applicantCounter = 0;
/** The duplicate flood's other partner numbers its applicants from here (born in the 1980s, apart from the rest). */
const OTHER_PARTNER_APPLICANTS = 3_000_000;
const freshBody = (appId: string) => () => JSON.stringify(uniqueApplicant(applicantCounter++, appId));

interface Measured extends LoadResult {
  rssMb: number;
  /** Server CPU (all its processes) per request, ms. */
  cpuMsPerRequest: number;
  /** The server's event loop (its main thread) per request, ms. */
  loopCpuMsPerRequest: number;
  /** The store's own processes (PostgreSQL, PgBouncer) per request, ms: they share the cores. */
  storeCpuMsPerRequest: number;
  /** The load generator (this process) per request, ms: it shares them too. */
  loadCpuMsPerRequest: number;
  /** PostgreSQL's WAL written per request, bytes (null on SQLite). */
  walBytesPerRequest: number | null;
  /** The log's positions around the run (null on SQLite), for walByRelation. */
  walRange: { from: number; to: number } | null;
}

/**
 * A measured load: CPU over the run, divided by the requests answered, for the server and for
 * what shares its two cores: the store's server processes and the load generator itself.
 */
async function measure(
  server: Server,
  options: Parameters<typeof load>[0],
  env: Record<string, string> = {},
): Promise<Measured> {
  const perRequest = (ms: number) => Math.round((ms / Math.max(1, result.requests)) * 1000) / 1000;
  const walBefore = env['DATABASE_URL'] ? await walPosition(PG_URL!) : undefined;
  const cpuBefore = server.cpuMs();
  const loopBefore = server.loopCpuMs();
  const storeBefore = storeServersCpuMs();
  const loadBefore = process.cpuUsage();
  const result = await load(options);
  const loadCpu = process.cpuUsage(loadBefore);
  const walAfter = walBefore === undefined ? undefined : await walPosition(PG_URL!);
  return {
    ...result,
    walBytesPerRequest:
      walBefore === undefined || walAfter === undefined
        ? null
        : Math.round((walAfter - walBefore) / Math.max(1, result.requests)),
    walRange: walBefore === undefined || walAfter === undefined ? null : { from: walBefore, to: walAfter },
    rssMb: server.peakRssMb(),
    cpuMsPerRequest: perRequest(server.cpuMs() - cpuBefore),
    loopCpuMsPerRequest: perRequest(server.loopCpuMs() - loopBefore),
    storeCpuMsPerRequest: perRequest(storeServersCpuMs() - storeBefore),
    loadCpuMsPerRequest: perRequest((loadCpu.user + loadCpu.system) / 1000),
  };
}

/** What a submit load needs to reach a server: where, and as whom. */
interface SubmitTarget {
  url: string;
  path: string;
  headers: Record<string, string>;
  body: () => string;
}

/**
 * Runs `work` against a fresh server process (the floor or the service) on a fresh store of
 * `target`, with a partner's credentials when it is the service; stops it and drops its schema after.
 */
async function onFreshServer<T>(
  kind: 'service' | 'floor',
  target: TargetName,
  work: (server: Server, submit: SubmitTarget, env: Record<string, string>) => Promise<T>,
): Promise<T> {
  const env = storeEnv(target);
  const server = await startServer(
    kind,
    kind === 'floor'
      ? {
          ...env,
          FLOOR_STORE: target === 'sqlite' ? 'sqlite' : 'postgres',
          DATABASE_SCHEMA: env['DATABASE_SCHEMA'] ?? `bench_floor_${randomBytes(4).toString('hex')}`,
        }
      : { ...env, ...SERVICE_ENV },
  );
  try {
    const auth = kind === 'service' ? await partner(env, server) : { appId: 'floor', token: 'none' };
    return await work(
      server,
      {
        url: server.url,
        path: PATHS.apply,
        headers: { authorization: auth.token },
        body: freshBody(auth.appId),
      },
      env,
    );
  } finally {
    await server.stop();
    await dropSchema(env);
  }
}

/**
 * One measured submit run against a fresh server process on a fresh store; on PostgreSQL with the
 * service's WAL by table and index (read before the store's schema is dropped).
 */
function submitRun(
  kind: 'service' | 'floor',
  target: TargetName,
): Promise<Measured & { walShares?: Awaited<ReturnType<typeof walByRelation>> }> {
  return onFreshServer(kind, target, async (server, submit, env) => {
    if (WARMUP > 0) await load({ ...submit, seconds: WARMUP });
    const measured = await measure(server, { ...submit, seconds: SECONDS }, env);
    const range = measured.walRange;
    if (kind === 'floor' || range === null) return measured;
    return { ...measured, walShares: await walByRelation(PG_URL!, range.from, range.to, measured.requests) };
  });
}

function summarize(runs: Measured[]) {
  return {
    rps: Math.round(median(runs.map((r) => r.rps))),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    p999: median(runs.map((r) => r.p999)),
    cpuMsPerRequest: Math.round(median(runs.map((r) => r.cpuMsPerRequest)) * 1000) / 1000,
    loopCpuMsPerRequest: Math.round(median(runs.map((r) => r.loopCpuMsPerRequest)) * 1000) / 1000,
    storeCpuMsPerRequest: Math.round(median(runs.map((r) => r.storeCpuMsPerRequest)) * 1000) / 1000,
    loadCpuMsPerRequest: Math.round(median(runs.map((r) => r.loadCpuMsPerRequest)) * 1000) / 1000,
    walBytesPerRequest: runs.some((r) => r.walBytesPerRequest === null)
      ? null
      : median(runs.map((r) => r.walBytesPerRequest ?? 0)),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    peakRssMb: Math.max(...runs.map((r) => r.rssMb)),
    runs: runs.map((r) => Math.round(r.rps)),
  };
}

type Summary = ReturnType<typeof summarize>;

async function submitBenchmarks() {
  const out: Partial<
    Record<
      TargetName,
      {
        floor: Summary;
        service: Summary;
        ratio: number;
        /** The last service run's WAL by table and index (PostgreSQL). */
        serviceWal?: WalShare[] | { unavailable: string } | undefined;
      }
    >
  > = {};
  for (const target of TARGETS) {
    const floor: Measured[] = [];
    const service: Awaited<ReturnType<typeof submitRun>>[] = [];
    // Interleaved, so that a noisy moment of the machine hurts both alike.
    for (let run = 0; run < RUNS; run++) {
      floor.push(await submitRun('floor', target));
      service.push(await submitRun('service', target));
    }
    const f = summarize(floor);
    const s = summarize(service);
    out[target] = {
      floor: f,
      service: s,
      ratio: Math.round((s.rps / f.rps) * 100) / 100,
      serviceWal: service.at(-1)?.walShares,
    };
  }
  return out;
}

/**
 * The `counters` part: fresh submissions on SQLite with the counters the store keeps by triggers
 * (counts per status, per day of creation, the workload's hours) and with those triggers dropped
 * after the start, interleaved, as the submit part: what keeping them costs a submission.
 */
async function counterCost() {
  const runs: Record<'with' | 'without', Measured[]> = { with: [], without: [] };
  for (let run = 0; run < RUNS; run++) {
    for (const kind of ['with', 'without'] as const) {
      runs[kind].push(
        await onFreshServer('service', 'sqlite', async (server, submit, env) => {
          if (kind === 'without') dropCounterTriggers(join(env['DATA_DIR']!, SQLITE_FILE));
          if (WARMUP > 0) await load({ ...submit, seconds: WARMUP });
          return measure(server, { ...submit, seconds: SECONDS });
        }),
      );
    }
  }
  const withCounters = summarize(runs.with);
  const without = summarize(runs.without);
  return { with: withCounters, without, ratio: Math.round((withCounters.rps / without.rps) * 100) / 100 };
}

function dropCounterTriggers(file: string): void {
  const database = new DatabaseSync(file);
  try {
    database.exec('PRAGMA busy_timeout = 5000');
    const triggers = database
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'trigger'
          AND (name LIKE 'application_counts_%' OR name LIKE 'application_days_%' OR name LIKE 'workload_%')`,
      )
      .all() as { name: string }[];
    if (triggers.length === 0) throw new Error('no counter triggers to drop');
    for (const { name } of triggers) database.exec(`DROP TRIGGER "${name}"`);
  } finally {
    database.close();
  }
}

/**
 * A partner floods one application it already submitted (retries without an Idempotency-Key):
 * every answer a 409. Then another partner's fresh submissions at a fixed rate, alone and during
 * the flood, to see whether the duplicates slow anyone else down: without a per-app limit, under
 * the default rate limit, and under the per-app concurrency cap alone (the flood's rate unlimited),
 * the last `RUNS` times, alone and during interleaved, on a service restarted with the cap.
 */
async function duplicateFlood(target: TargetName, freshRps: number) {
  const env = storeEnv(target);
  let server = await startServer('service', { ...env, ...SERVICE_ENV });
  try {
    const flooder = await partner(env, server, 'flooder');
    const other = await partner(env, server, 'other');
    const applicant = uniqueApplicant(applicantCounter++, flooder.appId);
    const first = await fetch(`${server.url}${PATHS.apply}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: flooder.token },
      body: JSON.stringify(applicant),
    });
    if (first.status !== 200) throw new Error(`first submission: ${first.status}`);
    const flood = {
      url: server.url,
      path: PATHS.apply,
      headers: { authorization: flooder.token },
      body: () => JSON.stringify({ ...applicant, timestamp: nowSeconds() }),
    };
    const runs: Measured[] = [];
    if (WARMUP > 0) await load({ ...flood, seconds: WARMUP });
    for (let i = 0; i < RUNS; i++) runs.push(await measure(server, { ...flood, seconds: SECONDS }));
    const rate = Math.max(1, Math.round(freshRps / 4));
    // The other partner's load runs on a thread of its own, apart from autocannon's flood.
    const fresh = (firstApplicant: number) => ({
      url: server.url,
      path: PATHS.apply,
      token: other.token,
      appId: other.appId,
      rate,
      seconds: SECONDS,
      connections: 64,
      firstApplicant,
    });
    const alone = await pacedInThread(fresh(OTHER_PARTNER_APPLICANTS));
    const [during] = await Promise.all([
      pacedInThread(fresh(OTHER_PARTNER_APPLICANTS + 500_000)),
      load({ ...flood, seconds: SECONDS + 1 }),
    ]);
    // As deployed: the flooding app under the default per-app limit (most of its flood is 429s).
    await setAppRate(env, flooder.appId, DEFAULT_APP_RATE, DEFAULT_APP_BURST);
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // the token cache (TOKEN_CACHE_MS)
    const [duringLimited, limitedFlood] = await Promise.all([
      pacedInThread(fresh(OTHER_PARTNER_APPLICANTS + 1_000_000)),
      load({ ...flood, seconds: SECONDS + 1 }),
    ]);
    // With the cap: the flood's rate unlimited again, the service restarted with the cap on.
    await setAppRate(env, flooder.appId, null, null);
    await server.stop();
    server = await startServer('service', {
      ...env,
      ...SERVICE_ENV,
      APP_CONCURRENCY_LIMIT: String(APP_CONCURRENCY),
    });
    const capped = { alone: [] as LoadResult[], during: [] as LoadResult[], flood: [] as LoadResult[] };
    // How busy the load generator's own core is while it floods and paces at once (1: saturated,
    // and the other partner's latency then counts the generator's queueing as well as the service's).
    const generatorBusy: number[] = [];
    const cappedFresh = (run: number, during: boolean) => ({
      ...fresh(OTHER_PARTNER_APPLICANTS + 1_500_000 + run * 200_000 + (during ? 100_000 : 0)),
      url: server.url,
    });
    if (WARMUP > 0) await load({ ...flood, url: server.url, seconds: WARMUP }); // warms the new process
    for (let run = 0; run < RUNS; run++) {
      capped.alone.push(await pacedInThread(cappedFresh(run, false)));
      const cpuBefore = process.cpuUsage();
      const startedAt = performance.now();
      const [during, cappedFlood] = await Promise.all([
        pacedInThread(cappedFresh(run, true)),
        load({ ...flood, url: server.url, seconds: SECONDS + 1 }),
      ]);
      const cpu = process.cpuUsage(cpuBefore);
      generatorBusy.push(
        Math.round(((cpu.user + cpu.system) / 1000 / (performance.now() - startedAt)) * 100) / 100,
      );
      capped.during.push(during);
      capped.flood.push(cappedFlood);
    }
    const cappedAloneP99 = median(capped.alone.map((r) => r.p99));
    const cappedDuringP99 = median(capped.during.map((r) => r.p99));
    const s = summarize(runs);
    return {
      rps: s.rps,
      p50: s.p50,
      p99: s.p99,
      cpuMsPerRequest: s.cpuMsPerRequest,
      answered409: runs.reduce((sum, r) => sum + (r.statuses['4xx'] ?? 0), 0),
      other2xx: runs.reduce((sum, r) => sum + (r.statuses['2xx'] ?? 0), 0),
      fiveXx: runs.reduce((sum, r) => sum + (r.statuses['5xx'] ?? 0), 0),
      ratioToFresh: Math.round((s.rps / freshRps) * 100) / 100,
      otherPartner: {
        rate,
        alone: { p50: alone.p50, p99: alone.p99, non2xx: alone.non2xx },
        duringFlood: { p50: during.p50, p99: during.p99, non2xx: during.non2xx },
        duringRateLimitedFlood: {
          p50: duringLimited.p50,
          p99: duringLimited.p99,
          non2xx: duringLimited.non2xx,
          flood429: limitedFlood.statuses['4xx'],
        },
        withConcurrencyCap: {
          limit: APP_CONCURRENCY,
          alone: { p50: median(capped.alone.map((r) => r.p50)), p99: cappedAloneP99 },
          duringFlood: { p50: median(capped.during.map((r) => r.p50)), p99: cappedDuringP99 },
          p99Ratio: Math.round((cappedDuringP99 / Math.max(0.001, cappedAloneP99)) * 100) / 100,
          p99Runs: { alone: capped.alone.map((r) => r.p99), during: capped.during.map((r) => r.p99) },
          // The other partner's own requests above the cap (64 connections) are refused too.
          otherNon2xx: {
            alone: capped.alone.reduce((sum, r) => sum + r.non2xx, 0),
            during: capped.during.reduce((sum, r) => sum + r.non2xx, 0),
          },
          floodRps: Math.round(median(capped.flood.map((r) => r.rps))),
          generatorBusy,
          floodStatuses: capped.flood.map((r) => r.statuses),
        },
      },
      runs: s.runs,
    };
  } finally {
    await server.stop();
    await dropSchema(env);
  }
}

/** Sets an app's own rate limit in the store (null: the environment's, unlimited in the bench). */
async function setAppRate(
  env: Record<string, string>,
  appId: string,
  rate: number | null,
  burst: number | null,
): Promise<void> {
  const ctx = await openContext(loadConfig(env), createLogger({ logLevel: 'silent' }));
  await ctx.store.db
    .updateTable('apps')
    .set({ rate_limit_per_second: rate, rate_limit_burst: burst })
    .where('app_id', '=', appId)
    .execute();
  await ctx.store.close();
}

/**
 * Latency at half the service's maximum rate, evenly paced (paced.ts): the service, and the floor
 * at the same rate as the baseline of what the machine and the store allow.
 */
async function halfRateLatency(target: TargetName, maxRps: number) {
  const rate = Math.max(1, Math.round(maxRps / 2));
  const measureAt = (kind: 'service' | 'floor') =>
    onFreshServer(kind, target, async (server, submit) => {
      // The warm-up is a fresh process's first seconds at this rate (a rolling deploy's new
      // instance): its latency is reported too, apart from the measured run's.
      const warm = WARMUP > 0 ? await paced({ ...submit, rate, seconds: WARMUP }) : undefined;
      // The service's own /metrics before and after the run: its event-loop delay (reset by each
      // scrape; a p99 far above it was spent waiting elsewhere: the store, the writer thread) and
      // how many submissions each of the store's commits carried at this rate.
      const before = kind === 'service' ? await serviceFigures(server.url) : undefined;
      const result = await paced({ ...submit, rate, seconds: SECONDS });
      const after = kind === 'service' ? await serviceFigures(server.url) : undefined;
      const loopDelay = after?.loopDelay;
      const unitsPerCommit =
        before?.commits === undefined || after?.commits === undefined
          ? undefined
          : Math.round(
              ((after.commits.units - before.commits.units) /
                Math.max(1, after.commits.commits - before.commits.commits)) *
                100,
            ) / 100;
      return {
        p50: result.p50,
        p99: result.p99,
        p999: result.p999,
        non2xx: result.non2xx,
        ...(loopDelay === undefined ? {} : { loopDelay }),
        ...(unitsPerCommit === undefined ? {} : { unitsPerCommit }),
        ...(warm === undefined ? {} : { warmUp: { p50: warm.p50, p99: warm.p99 } }),
        // Last: the smoke test reads the fields before them.
        sentLate: result.sentLate,
        slow: result.slow,
      };
    });
  return { rate, service: await measureAt('service'), floor: await measureAt('floor') };
}

/**
 * From one scrape of the service's /metrics: the event-loop delay since the previous scrape
 * (prom-client's histogram, reset by each scrape; 10 ms resolution), in ms, its p99 and maximum;
 * and its grouped commits so far with the units they carried.
 */
async function serviceFigures(url: string): Promise<{
  loopDelay: { p99: number; max: number } | undefined;
  commits: { commits: number; units: number } | undefined;
}> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const read = (name: string) => {
    const value = new RegExp(`^cardapply_${name} ([0-9.e+-]+)$`, 'm').exec(text)?.[1];
    return value === undefined ? undefined : Number(value);
  };
  const ms = (seconds: number | undefined) =>
    seconds === undefined ? undefined : Math.round(seconds * 10_000) / 10;
  const p99 = ms(read('nodejs_eventloop_lag_p99_seconds'));
  const max = ms(read('nodejs_eventloop_lag_max_seconds'));
  const commits = read('store_group_commits_total');
  const units = read('store_group_commit_units_total');
  return {
    loopDelay: p99 === undefined || max === undefined ? undefined : { p99, max },
    commits: commits === undefined || units === undefined ? undefined : { commits, units },
  };
}

/** Status queries by serial at a small and a large table, and list pages at the large one. */
async function readBenchmarks(target: TargetName) {
  const store = target === 'sqlite' ? 'sqlite' : 'postgres';
  const env = storeEnv(target);
  const server = await startServer('service', { ...env, ...SERVICE_ENV });
  try {
    const auth = await partner(env, server);
    const ctx = await openContext(loadConfig(env), createLogger({ logLevel: 'silent' }));
    const headers = { authorization: auth.token };
    const query = async (size: number) => {
      const body = () =>
        JSON.stringify({
          app_id: auth.appId,
          timestamp: nowSeconds(),
          busi_water_no: seededSerial(randomInt(1, size + 1)),
        });
      if (WARMUP > 0) await load({ url: server.url, path: PATHS.query, headers, body, seconds: WARMUP });
      const runs: LoadResult[] = [];
      for (let i = 0; i < RUNS; i++)
        runs.push(await load({ url: server.url, path: PATHS.query, headers, body, seconds: SECONDS }));
      return {
        rows: size,
        rps: Math.round(median(runs.map((r) => r.rps))),
        p99: median(runs.map((r) => r.p99)),
        non2xx: runs.reduce((s, r) => s + r.non2xx, 0),
      };
    };
    const seedStart = performance.now();
    await seedApplications(ctx.store, store, auth.appId, 1, SMALL);
    const small = await query(SMALL);
    await seedApplications(ctx.store, store, auth.appId, SMALL + 1, LARGE);
    const seedSeconds = Math.round((performance.now() - seedStart) / 100) / 10;
    const large = await query(LARGE);

    const list = async (deep: boolean) => {
      const deepCursor = encodeCursor({
        createdAt: Date.now() - 86_400_000 + Math.floor(LARGE * 0.9),
        busiWaterNo: seededSerial(Math.floor(LARGE * 0.9)),
      });
      const body = () =>
        JSON.stringify({
          app_id: auth.appId,
          timestamp: nowSeconds(),
          limit: 20,
          ...(deep ? { cursor: deepCursor } : {}),
        });
      const runs: LoadResult[] = [];
      for (let i = 0; i < RUNS; i++)
        runs.push(await load({ url: server.url, path: PATHS.list, headers, body, seconds: SECONDS }));
      return {
        rps: Math.round(median(runs.map((r) => r.rps))),
        p99: median(runs.map((r) => r.p99)),
        non2xx: runs.reduce((s, r) => s + r.non2xx, 0),
      };
    };
    const firstPage = await list(false);
    const deepPage = await list(true);
    await ctx.store.close();
    return {
      seedSeconds,
      query: { small, large, ratio: Math.round((large.rps / small.rps) * 100) / 100 },
      list: {
        rows: LARGE,
        firstPage,
        deepPage,
        ratio: Math.round((deepPage.rps / firstPage.rps) * 100) / 100,
      },
    };
  } finally {
    await server.stop();
    await dropSchema(env);
  }
}

/** The `size` part (size.ts) on one store: each load on an empty store, then at LARGE. */
async function sizeBenchmarks(target: TargetName) {
  const at = async (count: number) => {
    const env = storeEnv(target);
    const server = await startServer('service', { ...env, ...SERVICE_ENV });
    try {
      const auth = await partner(env, server);
      const grownSeconds = count === 0 ? 0 : await growStore(env, auth.appId, count);
      return { grownSeconds, rps: await sizeLoads(server.url, auth, SECONDS, WARMUP) };
    } finally {
      await server.stop();
      await dropSchema(env);
    }
  };
  const empty: SizeLoads = (await at(0)).rps;
  const large = await at(LARGE);
  return {
    applications: LARGE,
    grownSeconds: large.grownSeconds,
    empty,
    large: large.rps,
    ratio: sizeRatios(empty, large.rps),
  };
}

/** Spawn to listening, on SQLite: a fresh data directory, then an existing one. */
async function coldStart() {
  const env = storeEnv('sqlite');
  const times: number[] = [];
  for (let i = 0; i < (SMOKE ? 1 : 5); i++) {
    const server = await startServer('service', { ...env, ...SERVICE_ENV });
    times.push(server.startMs);
    await server.stop();
  }
  return { firstMs: Math.round(times[0]!), medianMs: Math.round(median(times)) };
}

const started = new Date();
const load1 = loadavg()[0]!;
console.log(
  `cardapply bench: ${SECONDS}s runs after ${WARMUP}s warm-up, ${RUNS} run(s), 32 connections, targets: ${TARGETS.join(', ')}; load average at start ${load1.toFixed(2)} on ${cpus().length} cores; ${PINNING.note}${Object.keys(SERVICE_ENV).length > 0 ? `; service env ${JSON.stringify(SERVICE_ENV)}` : ''}`,
);
try {
  if (TARGETS.includes('pgbouncer')) {
    bouncer = await startPgBouncer(PG_URL!, { poolSize: 20 });
    cleanups.push(() => bouncer!.stop());
  }
  const submit = PARTS.has('submit') ? await submitBenchmarks() : {};
  // `dup` and `half` scale with the service's maximum rate: the submit part's, or BENCH_MAX_RPS
  // when they run without it (to repeat one of them at a rate measured before).
  const rpsOf = (target: TargetName) =>
    submit[target]?.service.rps ?? Number(process.env['BENCH_MAX_RPS'] ?? 100);
  const dup: Partial<Record<TargetName, unknown>> = {};
  if (PARTS.has('dup'))
    for (const target of TARGETS) dup[target] = await duplicateFlood(target, rpsOf(target));
  const halfRate: Partial<Record<TargetName, unknown>> = {};
  if (PARTS.has('half'))
    for (const target of TARGETS) halfRate[target] = await halfRateLatency(target, rpsOf(target));
  const reads: Partial<Record<TargetName, unknown>> = {};
  if (PARTS.has('reads'))
    for (const target of TARGETS.filter((t) => t !== 'pgbouncer'))
      reads[target] = await readBenchmarks(target);
  const size: Partial<Record<TargetName, unknown>> = {};
  if (PARTS.has('size'))
    for (const target of TARGETS.filter((t) => t !== 'pgbouncer'))
      size[target] = await sizeBenchmarks(target);
  const counters = PARTS.has('counters') ? await counterCost() : undefined;
  const cold = PARTS.has('cold') ? await coldStart() : undefined;
  const screening = PARTS.has('screen') ? await screeningBenchmark(SMOKE) : undefined;
  const rescreen: Partial<Record<TargetName, unknown>> = {};
  if (PARTS.has('rescreen'))
    for (const target of TARGETS.filter((t) => t !== 'pgbouncer')) {
      const env = storeEnv(target);
      try {
        rescreen[target] = await rescreenRate(env, RESCREEN_COUNT);
      } finally {
        await dropSchema(env);
      }
    }
  const results = {
    at: started.toISOString(),
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model,
      node: process.version,
      loadAverageAtStart: load1,
      loadAverageAtEnd: loadavg()[0],
    },
    settings: {
      seconds: SECONDS,
      warmup: WARMUP,
      runs: RUNS,
      connections: 32,
      small: SMALL,
      large: LARGE,
      serviceEnv: SERVICE_ENV,
      pinning: PINNING.note,
    },
    submit,
    duplicateFlood: dup,
    halfRate,
    reads,
    size,
    counters,
    coldStart: cold,
    screening,
    rescreen,
  };

  console.log(
    '\nSubmit (median of runs)          rps      p50 ms  p99 ms  p99.9 ms  non-2xx  peak RSS MB  CPU ms/req (server, its loop, store, load)  WAL B/req',
  );
  for (const target of TARGETS) {
    const result = submit[target];
    if (result === undefined) continue;
    for (const kind of ['floor', 'service'] as const) {
      const r = result[kind];
      console.log(
        `  ${`${kind} on ${target}`.padEnd(30)} ${String(r.rps).padStart(7)} ${String(r.p50).padStart(9)} ${String(r.p99).padStart(7)} ${String(r.p999).padStart(9)} ${String(r.non2xx).padStart(8)} ${String(r.peakRssMb).padStart(12)} ${String(r.cpuMsPerRequest).padStart(11)} ${String(r.loopCpuMsPerRequest).padStart(6)} ${String(r.storeCpuMsPerRequest).padStart(6)} ${String(r.loadCpuMsPerRequest).padStart(6)}  ${String(r.walBytesPerRequest ?? '-').padStart(9)}`,
      );
    }
    console.log(
      `  ratio service / floor on ${target}: ${result.ratio}  (runs: floor ${result.floor.runs.join(', ')}; service ${result.service.runs.join(', ')})`,
    );
  }
  for (const target of TARGETS) {
    const wal = submit[target]?.serviceWal;
    if (wal === undefined) continue;
    if ('unavailable' in wal) {
      console.log(`WAL a submission by table and index on ${target}: unavailable (${wal.unavailable})`);
      continue;
    }
    console.log(`WAL a submission by table and index (service on ${target}, its last run): bytes, records`);
    for (const share of wal.slice(0, 24))
      console.log(
        `  ${share.relation.padEnd(40)} ${String(share.bytesPerRequest).padStart(8)} ${String(share.recordsPerRequest).padStart(6)}`,
      );
  }
  console.log('\nDuplicate flood:', JSON.stringify(dup, null, 1));
  console.log('Half of the maximum rate:', JSON.stringify(halfRate));
  console.log('Reads:', JSON.stringify(reads, null, 1));
  console.log(
    'At size (requests/s, empty store and large; ratio large / empty):',
    JSON.stringify(size, null, 1),
  );
  if (counters !== undefined) {
    console.log('Submit on SQLite with the counter triggers and without (with / without):');
    for (const kind of ['with', 'without'] as const) {
      const r = counters[kind];
      console.log(
        `  ${kind.padEnd(8)} ${String(r.rps).padStart(7)} rps  p50 ${r.p50} ms  p99 ${r.p99} ms  CPU ${r.cpuMsPerRequest} ms/req  (runs: ${r.runs.join(', ')})`,
      );
    }
    console.log(`  ratio ${counters.ratio}`);
  }
  console.log('Cold start to listening on SQLite:', JSON.stringify(cold));
  console.log('Screening one applicant (ms; p50/p99 of the best of 3):', JSON.stringify(screening, null, 1));
  if (screening !== undefined)
    console.log(
      `Screening against ${screening.allLists.names} listed names (all ${screening.allLists.lists} lists): p99 ${screening.allLists.p99Ms} ms, ${screening.allLists.p99OfTarget} of the ${screening.allLists.targetMs} ms target (p50 ${screening.allLists.p50Ms} ms; CPU time p99 ${screening.allLists.cpuP99Ms} ms)`,
    );
  console.log(
    'Re-screen after a list import (applications a minute; worker / baseline):',
    JSON.stringify(rescreen, null, 1),
  );
  console.log(`load average at end ${loadavg()[0]!.toFixed(2)}`);
  if (!SMOKE) {
    const file = new URL(`./results/${started.toISOString().replace(/[:.]/g, '-')}.json`, import.meta.url);
    writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
    console.log(`\nwritten: bench/results/${file.pathname.split('/').pop()}`);
  }
  const failed = TARGETS.some(
    (t) => (submit[t]?.service.non2xx ?? 0) > 0 || (submit[t]?.floor.non2xx ?? 0) > 0,
  );
  if (failed) {
    console.error('some requests failed (non-2xx): the figures are not comparable');
    process.exitCode = 1;
  }
} finally {
  for (const cleanup of cleanups) await cleanup();
}

import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/callers/credentials.ts';
import { encodeCursor } from '../src/applications/listCursor.ts';
import { loadConfig } from '../src/config.ts';
import { PATHS } from '../src/http/paths.ts';
import { createLogger } from '../src/logger.ts';
import { openContext } from '../src/start.ts';
import { uniqueApplicant } from '../test/helpers/applicants.ts';
import { load, median, type LoadResult } from './load.ts';
import { startServer, type Server } from './processes.ts';
import { seedApplications, seededSerial } from './seed.ts';

/**
 * `npm run bench`: the service against the floor (a minimal durable insert) on the same store, the
 * same machine and the same load, in one run. Prints medians and ratios; writes bench/results/*.json.
 * BENCH_SMOKE=1 runs a seconds-long version (part of npm test) that only proves the bench works.
 */
const SMOKE = process.env['BENCH_SMOKE'] === '1';
const SECONDS = SMOKE ? 1 : Number(process.env['BENCH_SECONDS'] ?? 10);
const WARMUP = SMOKE ? 0.5 : Number(process.env['BENCH_WARMUP'] ?? 3);
const RUNS = SMOKE ? 1 : Number(process.env['BENCH_RUNS'] ?? 3);
const SMALL = SMOKE ? 1_000 : 10_000;
const LARGE = SMOKE ? 5_000 : Number(process.env['BENCH_LARGE'] ?? 1_000_000);
const PG_URL = process.env['DATABASE_URL'];
const KEYS = `b1:${randomBytes(32).toString('base64')}`;
/** Which parts to run (comma-separated): submit, half, reads, cold. All by default. */
const PARTS = new Set((process.env['BENCH_PARTS'] ?? 'submit,half,reads,cold').split(','));
const UNLIMITED = { RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000' };

type StoreName = 'sqlite' | 'postgres';
const stores: StoreName[] = PG_URL ? ['sqlite', 'postgres'] : ['sqlite'];
const cleanups: (() => void | Promise<void>)[] = [];
const nowSeconds = () => Math.floor(Date.now() / 1000);

function storeEnv(store: StoreName): Record<string, string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cardapply-bench-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const env: Record<string, string> = { DATA_DIR: dataDir, DATABASE_URL: '', ...UNLIMITED };
  if (store === 'postgres') {
    Object.assign(env, {
      DATABASE_URL: PG_URL!,
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

/** A caller of the service on `env`'s store, with its token. */
async function caller(
  env: Record<string, string>,
  server: Server,
): Promise<{ appId: string; token: string }> {
  const ctx = await openContext(loadConfig(env), createLogger({ logLevel: 'silent' }));
  const app = await createApp(ctx.store.db, 'bench', Date.now());
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

interface SubmitRun extends LoadResult {
  rssMb: number;
}

/** One measured submit run against a fresh server process on a fresh store. */
async function submitRun(kind: 'service' | 'floor', store: StoreName): Promise<SubmitRun> {
  const env = storeEnv(store);
  const server = await startServer(
    kind,
    kind === 'floor'
      ? {
          ...env,
          FLOOR_STORE: store,
          DATABASE_SCHEMA: env['DATABASE_SCHEMA'] ?? `bench_floor_${randomBytes(4).toString('hex')}`,
        }
      : env,
  );
  try {
    const auth = kind === 'service' ? await caller(env, server) : { appId: 'floor', token: 'none' };
    const body = () => JSON.stringify(uniqueApplicant(applicantCounter++, auth.appId));
    const options = { url: server.url, path: PATHS.apply, headers: { authorization: auth.token }, body };
    if (WARMUP > 0) await load({ ...options, seconds: WARMUP });
    const result = await load({ ...options, seconds: SECONDS });
    return { ...result, rssMb: server.peakRssMb() };
  } finally {
    await server.stop();
    if (store === 'postgres') await dropSchema(kind === 'floor' ? { DATABASE_SCHEMA: 'bench_floor' } : env);
  }
}

function summarize(runs: SubmitRun[]) {
  return {
    rps: Math.round(median(runs.map((r) => r.rps))),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    p999: median(runs.map((r) => r.p999)),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    peakRssMb: Math.max(...runs.map((r) => r.rssMb)),
    runs: runs.map((r) => Math.round(r.rps)),
  };
}

async function submitBenchmarks() {
  const out: Record<string, unknown> = {};
  for (const store of stores) {
    const floor: SubmitRun[] = [];
    const service: SubmitRun[] = [];
    // Interleaved, so that a noisy moment of the machine hurts both alike.
    for (let run = 0; run < RUNS; run++) {
      floor.push(await submitRun('floor', store));
      service.push(await submitRun('service', store));
    }
    const f = summarize(floor);
    const s = summarize(service);
    out[store] = { floor: f, service: s, ratio: Math.round((s.rps / f.rps) * 100) / 100 };
  }
  return out;
}

/** p99 latency of the service at half its maximum rate. */
async function halfRateLatency(store: StoreName, maxRps: number) {
  const env = storeEnv(store);
  const server = await startServer('service', env);
  try {
    const auth = await caller(env, server);
    const body = () => JSON.stringify(uniqueApplicant(applicantCounter++, auth.appId));
    const options = { url: server.url, path: PATHS.apply, headers: { authorization: auth.token }, body };
    const rate = Math.max(1, Math.round(maxRps / 2));
    if (WARMUP > 0) await load({ ...options, seconds: WARMUP, rate });
    const result = await load({ ...options, seconds: SECONDS, rate });
    return { rate, p50: result.p50, p99: result.p99, p999: result.p999, non2xx: result.non2xx };
  } finally {
    await server.stop();
    await dropSchema(env);
  }
}

/** Status queries by serial at a small and a large table, and list pages at the large one. */
async function readBenchmarks(store: StoreName) {
  const env = storeEnv(store);
  const server = await startServer('service', env);
  try {
    const auth = await caller(env, server);
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

/** Spawn to listening, on SQLite: a fresh data directory, then an existing one. */
async function coldStart() {
  const env = storeEnv('sqlite');
  const times: number[] = [];
  for (let i = 0; i < (SMOKE ? 1 : 5); i++) {
    const server = await startServer('service', env);
    times.push(server.startMs);
    await server.stop();
  }
  return { firstMs: Math.round(times[0]!), medianMs: Math.round(median(times)) };
}

const started = new Date();
console.log(
  `cardapply bench: ${SECONDS}s runs after ${WARMUP}s warm-up, ${RUNS} run(s), 32 connections, stores: ${stores.join(', ')}`,
);
try {
  const submit = (await submitBenchmarks()) as Record<
    StoreName,
    { floor: ReturnType<typeof summarize>; service: ReturnType<typeof summarize>; ratio: number }
  >;
  const halfRate: Record<string, unknown> = {};
  if (PARTS.has('half'))
    for (const store of stores) halfRate[store] = await halfRateLatency(store, submit[store].service.rps);
  const reads: Record<string, unknown> = {};
  if (PARTS.has('reads')) for (const store of stores) reads[store] = await readBenchmarks(store);
  const cold = PARTS.has('cold') ? await coldStart() : undefined;
  const results = {
    at: started.toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
    settings: { seconds: SECONDS, warmup: WARMUP, runs: RUNS, connections: 32, small: SMALL, large: LARGE },
    submit,
    halfRate,
    reads,
    coldStart: cold,
  };

  console.log('\nSubmit (median of runs)          rps      p50 ms  p99 ms  p99.9 ms  non-2xx  peak RSS MB');
  for (const store of stores) {
    for (const kind of ['floor', 'service'] as const) {
      const r = submit[store][kind];
      console.log(
        `  ${`${kind} on ${store}`.padEnd(30)} ${String(r.rps).padStart(7)} ${String(r.p50).padStart(9)} ${String(r.p99).padStart(7)} ${String(r.p999).padStart(9)} ${String(r.non2xx).padStart(8)} ${String(r.peakRssMb).padStart(12)}`,
      );
    }
    console.log(
      `  ratio service / floor on ${store}: ${submit[store].ratio}  (runs: floor ${submit[store].floor.runs.join(', ')}; service ${submit[store].service.runs.join(', ')})`,
    );
  }
  console.log('\nHalf of the maximum rate:', JSON.stringify(halfRate));
  console.log('Reads:', JSON.stringify(reads, null, 1));
  console.log('Cold start to listening on SQLite:', JSON.stringify(cold));
  if (!SMOKE) {
    const file = new URL(`./results/${started.toISOString().replace(/[:.]/g, '-')}.json`, import.meta.url);
    writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
    console.log(`\nwritten: bench/results/${file.pathname.split('/').pop()}`);
  }
  const failed = stores.some((s) => submit[s].service.non2xx > 0 || submit[s].floor.non2xx > 0);
  if (failed) {
    console.error('some requests failed (non-2xx): the figures are not comparable');
    process.exitCode = 1;
  }
} finally {
  for (const cleanup of cleanups) await cleanup();
}

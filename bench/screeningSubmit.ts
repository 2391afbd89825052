import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/partners/credentials.ts';
import { loadConfig } from '../src/config.ts';
import { PATHS } from '../src/http/paths.ts';
import { createLogger } from '../src/logger.ts';
import { entryDiffHash } from '../src/screening/importChanges.ts';
import { insertEntries, insertListVersion } from '../src/screening/listRepository.ts';
import { openContext } from '../src/start.ts';
import { uniqueApplicant } from '../test/helpers/applicants.ts';
import { load, median, type LoadResult } from './load.ts';
import { PINNING, startServer, type Server } from './processes.ts';
import { syntheticList } from './screening.ts';

/**
 * `node bench/screeningSubmit.ts`: does screening cost the submit path? The service as `npm start`
 * runs it (the outbox relay and the job runner in its process, so every submission's screening
 * job runs on the same pinned core as the requests), on a fresh store per run, with no list in
 * force and with 30,000 listed names in force (10,000 entries of bench/screening.ts), the runs
 * interleaved so that a noisy moment of the machine hurts both alike. Extra variants come from
 * BENCH_VARIANTS (`name=ENV=value;...`), e.g. a build with screening's job kind left out.
 */
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 8);
const WARMUP = Number(process.env['BENCH_WARMUP'] ?? 3);
const RUNS = Number(process.env['BENCH_RUNS'] ?? 3);
const TARGET = process.env['DATABASE_URL'] ? 'postgres' : 'sqlite';
const KEYS = `b1:${randomBytes(32).toString('base64')}`;
const UNLIMITED = {
  RATE_LIMIT_PER_SECOND: '1000000',
  RATE_LIMIT_BURST: '1000000',
  APP_CONCURRENCY_LIMIT: '1000000',
};

interface Variant {
  name: string;
  env: Record<string, string>;
  listEntries: number;
}
const VARIANTS: Variant[] = [
  { name: 'no list', env: {}, listEntries: 0 },
  ...(process.env['BENCH_LIST'] === '0' ? [] : [{ name: '30,000 names', env: {}, listEntries: 10_000 }]),
  ...(process.env['BENCH_VARIANTS'] ?? '')
    .split(';')
    .filter((v) => v.includes('='))
    .map((v) => {
      const [name, key, value] = v.split('=') as [string, string, string];
      return { name, env: { [key]: value }, listEntries: 0 };
    }),
];

const cleanups: (() => void)[] = [];
function storeEnv(): Record<string, string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cardapply-bench-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const env: Record<string, string> = { DATA_DIR: dataDir, DATABASE_URL: '', ...UNLIMITED };
  if (TARGET === 'postgres') {
    Object.assign(env, {
      DATABASE_URL: process.env['DATABASE_URL']!,
      DATABASE_SCHEMA: `bench_${randomBytes(4).toString('hex')}`,
      ENCRYPTION_KEYS: KEYS,
    });
  }
  return env;
}

let applicants = 0;

/** A partner for the load, and the list in force, written to the server's store. */
async function prepare(env: Record<string, string>, server: Server, listEntries: number) {
  const ctx = await openContext(loadConfig(env), createLogger({ logLevel: 'silent' }));
  try {
    const app = await createApp(ctx.store.db, 'bench', Date.now());
    if (listEntries > 0) {
      const entries = syntheticList(listEntries);
      const versionId = `bench-${randomBytes(4).toString('hex')}`;
      await insertListVersion(ctx.store.db, {
        version_id: versionId,
        list: 'un',
        entries: entries.length,
        names: entries.reduce((n, e) => n + e.names.length, 0),
        documents: entries.length,
        sha256: 'bench',
        published_at: null,
        imported_at: Date.now(),
        imported_by: 'bench',
      });
      for (let i = 0; i < entries.length; i += 500)
        await insertEntries(ctx.store.db, versionId, entries.slice(i, i + 500), entryDiffHash);
    }
    const reply = await fetch(`${server.url}${PATHS.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...app, timestamp: Math.floor(Date.now() / 1000) }),
    });
    const token = ((await reply.json()) as { data: { access_token: string } }).data.access_token;
    return { appId: app.app_id, token };
  } finally {
    await ctx.store.close();
  }
}

async function run(variant: Variant): Promise<LoadResult & { cpuMsPerRequest: number; jobsLeft: number }> {
  const env = storeEnv();
  const server = await startServer('service', { ...env, ...variant.env });
  try {
    const partner = await prepare(env, server, variant.listEntries);
    const options = {
      url: server.url,
      path: PATHS.apply,
      headers: { authorization: partner.token },
      body: () => JSON.stringify(uniqueApplicant(applicants++, partner.appId)),
    };
    if (variant.listEntries > 0) {
      // The index of the list is built once per process, at its first screening (1 to 2.5 s of
      // CPU on an idle machine, much longer in wall time on a loaded one): before the warm-up.
      await load({ ...options, seconds: 1, connections: 1 });
      await screeningDone(env, 180_000);
    }
    await load({ ...options, seconds: WARMUP });
    // The warm-up's screening done (and the index of the list built, once per process) first.
    await screeningDone(env, 30_000);
    const cpuBefore = server.cpuMs();
    const result = await load({ ...options, seconds: SECONDS });
    // The screening of the measured submissions is theirs too: counted until it is done.
    const jobsLeft = await pendingScreening(env);
    await screeningDone(env, 60_000);
    const cpuMs = server.cpuMs() - cpuBefore;
    return {
      ...result,
      cpuMsPerRequest: Math.round((cpuMs / Math.max(1, result.requests)) * 1000) / 1000,
      jobsLeft,
    };
  } finally {
    await server.stop();
    if (TARGET === 'postgres') await dropSchema(env);
  }
}

async function pendingScreening(env: Record<string, string>): Promise<number> {
  const ctx = await openContext(loadConfig(env), createLogger({ logLevel: 'silent' }));
  try {
    const left = await ctx.store.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', 'in', ['pending', 'running'])
      .where('kind', '=', 'screening.screen')
      .executeTakeFirstOrThrow();
    return Number(left.n);
  } finally {
    await ctx.store.close();
  }
}

async function screeningDone(env: Record<string, string>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await pendingScreening(env)) > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100));
}

async function dropSchema(env: Record<string, string>): Promise<void> {
  const ctx = await openContext(loadConfig(env), createLogger({ logLevel: 'silent' }));
  try {
    await sql.raw(`DROP SCHEMA IF EXISTS "${env['DATABASE_SCHEMA']!}" CASCADE`).execute(ctx.store.db);
  } finally {
    await ctx.store.close();
  }
}

console.log(
  `screening and submit on ${TARGET}: ${SECONDS}s runs after ${WARMUP}s warm-up, ${RUNS} interleaved runs per variant; load average ${loadavg()[0]!.toFixed(2)} on ${cpus().length} cores; ${PINNING.note}`,
);
const results = new Map<string, Awaited<ReturnType<typeof run>>[]>(VARIANTS.map((v) => [v.name, []]));
try {
  for (let i = 0; i < RUNS; i++)
    for (const variant of VARIANTS) results.get(variant.name)!.push(await run(variant));
} finally {
  for (const cleanup of cleanups) cleanup();
}
console.log(
  'variant              rps (median, runs)          p50 ms  p99 ms  server CPU ms/req (screening done)  screening jobs left at the end of the load',
);
for (const [name, runs] of results) {
  console.log(
    `${name.padEnd(20)} ${String(Math.round(median(runs.map((r) => r.rps)))).padStart(6)} (${runs.map((r) => Math.round(r.rps)).join(', ')})`.padEnd(
      48,
    ) +
      `${String(median(runs.map((r) => r.p50))).padStart(6)} ${String(median(runs.map((r) => r.p99))).padStart(7)} ${String(median(runs.map((r) => r.cpuMsPerRequest))).padStart(18)} ${runs.map((r) => r.jobsLeft).join(', ')}`,
  );
}
console.log(`load average at end ${loadavg()[0]!.toFixed(2)}`);

import cluster from 'node:cluster';
import type { Logger } from 'pino';
import { build } from './app.ts';
import { runPrimary, WORKER_INDEX_ENV } from './cluster.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import type { ServiceContext } from './context.ts';
import { createLogger } from './logger.ts';
import { checkConnectionBudget, openContext, warnOfOpenNetworkSwitches } from './start.ts';
import { startJobRunner } from './worker/jobRunner.ts';
import { JOB_KINDS } from './worker/jobKinds.ts';
import { SUBJECT_JOB_KINDS } from './subjects/subjectExportJob.ts';
import { startDispatcher } from './webhooks/dispatcher.ts';
import { startKeyJobs } from './keys/keyJobs.ts';
import { checkRekeyFinished } from './applications/commands/documentRekey.ts';
import { warmSubmitPath } from './applications/commands/submitApplication.ts';
import { describe } from './errors/describe.ts';
import { startMetricsServer } from './metrics/metricsServer.ts';
import { startRetentionJob } from './retention/retentionJob.ts';
import { startAuditHeadJob } from './jobs/auditHeadJob.ts';
import { startSupplementExpiryJob } from './applications/commands/supplementExpiry.ts';
import { onShutdownSignals } from './shutdown.ts';
import { warnOfScreening } from './screening/screeningReadiness.ts';

/**
 * A submission's CPU work (validation, sealing), a few hundred times before the first caller: in a
 * fresh process it runs in V8's interpreter until it has run often enough to be compiled, and the
 * first callers of a new instance (a rolling deploy, a restart) waited behind it. 500 rounds take
 * about 200 ms here. Half-rate warm-up p99 on PostgreSQL, three pairs: 105 ms against 242 (median);
 * at 1,000 rounds, five pairs, 205 against 278, and on SQLite 128 and 155 against 348 and 295.
 * A warm-up that fails costs nothing but a line.
 */
const WARM_UP_ROUNDS = 500;

function warmUp(ctx: ServiceContext, logger: Logger): void {
  const started = performance.now();
  try {
    warmSubmitPath(ctx, WARM_UP_ROUNDS);
    logger.info({ ms: Math.round(performance.now() - started) }, 'submit path warmed up');
  } catch (error) {
    logger.warn({ err: describe(error) }, 'could not warm up the submit path');
  }
}

/**
 * Runs the service (loaded by bin/server.js): configuration, store, HTTP server, background jobs. With
 * WORKERS > 1 this process is the primary of a node:cluster (cluster.ts) and the workers, started
 * from the same entry point, serve the one port; the background jobs (webhook dispatcher,
 * re-encryption, re-keying, supplement expiry, retention) run in the first worker only, once per
 * machine. Shutdown runs once: stop accepting, finish requests in flight, close the store; a second
 * signal forces exit.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config);
  if (config.workers > 1 && cluster.isPrimary) {
    await runPrimary(config, logger);
    return;
  }
  const index = cluster.isWorker ? Number(process.env[WORKER_INDEX_ENV] ?? 0) : undefined;
  await runService(config, index === undefined ? logger : logger.child({ worker_index: index }), index);
}

/** One service process: alone (`worker` undefined) or worker `worker` of the machine's cluster. */
async function runService(config: Config, logger: Logger, worker: number | undefined): Promise<void> {
  const inCluster = worker !== undefined;
  // The primary migrated and checked the connection budget for the whole machine.
  const ctx = await openContext(config, logger, { migrate: !inCluster });
  if (!inCluster) await checkConnectionBudget(ctx, logger, 1);
  // Once a machine: alone, or the cluster's first worker.
  if (worker === undefined || worker === 0) {
    warnOfOpenNetworkSwitches(config, logger);
    await warnOfScreening(ctx, logger);
  }
  const app = await build(ctx, { logger });
  const runsBackground = worker === undefined || worker === 0;

  let dispatcher: ReturnType<typeof startDispatcher> | undefined;
  // Background work and the metrics listener, stopped with the dispatcher.
  const background: { stop(): Promise<void> }[] = [];
  // Requests in flight and webhook attempts in flight finish (or are released) before the store closes.
  const shutdown = onShutdownSignals({
    logger,
    graceMs: config.shutdownGraceMs,
    message: 'shutting down: finishing requests in flight',
    drain: () => Promise.all([app.close(), dispatcher?.stop(), ...background.map((job) => job.stop())]),
    close: () => ctx.store.close(),
    ...(inCluster ? { signals: ['SIGTERM'] as const } : {}),
  });
  // Log level at run time: SIGUSR2 switches between LOG_LEVEL and debug (children follow the root).
  process.on('SIGUSR2', () => {
    logger.level = logger.level === 'debug' ? config.logLevel : 'debug';
    logger.warn({ log_level: logger.level }, 'log level changed');
  });
  const dispatching = config.webhooks.inProcess && runsBackground;
  // Not ready until the dispatcher runs, when this process is meant to run it.
  if (dispatching) ctx.workers.register('webhook dispatcher', () => dispatcher !== undefined);

  // Before the first submission: whether any application is left under the old document hash (an
  // indexed count, of nothing once re-keying is done). Until the key jobs' first pass two seconds in,
  // every submission whose number has an old form looked it up for nothing: at 900 submissions a
  // second on PostgreSQL, a fresh process's first three seconds ran at a p50 of 750 ms, not 65.
  // Not fatal: the key jobs ask again.
  await checkRekeyFinished(ctx.store).catch((error: unknown) =>
    logger.warn({ err: describe(error) }, 'could not tell whether document re-keying is done'),
  );
  warmUp(ctx, logger);
  const address = await app.listen({ port: config.port, host: config.host });
  // The webhook dispatcher, unless separate `cardapply worker` processes deliver (WEBHOOK_WORKER=false).
  if (dispatching && !shutdown.stopping) {
    dispatcher = startDispatcher(ctx, logger, {
      onAttempt: (report) => ctx.metrics.webhookAttempts.inc({ outcome: report.outcome }),
    });
    // The jobs the outbox relay queues (documents, screening) run where the relay runs, and the
    // subject requests' exports (queued by the requests; their folder ranks above the worker's).
    background.push(startJobRunner(ctx, logger, { kinds: [...JOB_KINDS, ...SUBJECT_JOB_KINDS] }));
  }
  if (!shutdown.stopping) {
    // Every process follows a rotation of the key file; one runs the store-wide jobs.
    background.push(startKeyJobs(ctx, logger, { jobs: runsBackground }));
    if (runsBackground) background.push(startSupplementExpiryJob(ctx, logger));
    // One process per machine logs the audit chain's head (at intervals and when it stops).
    if (runsBackground) background.push(startAuditHeadJob(ctx, logger));
    const retention = runsBackground ? startRetentionJob(ctx, logger) : undefined;
    if (retention !== undefined) background.push(retention);
  }
  // One metrics listener per machine: in a cluster the primary's, aggregating every worker.
  if (inCluster) ctx.metrics.joinCluster();
  else if (config.operations.metricsPort !== undefined && !shutdown.stopping) {
    const metricsServer = await startMetricsServer(
      () => ctx.metrics.exposition(),
      config.operations.metricsPort,
      config.host,
    );
    background.push({ stop: () => metricsServer.close() });
    logger.info({ metrics_url: metricsServer.url }, 'metrics listening');
  }
  // Alone, the line that says where it listens; in a cluster the primary says it for all.
  if (inCluster) logger.info({ store: ctx.store.label, pid: process.pid }, 'worker listening');
  else logger.info({ url: address, store: ctx.store.label }, 'listening');
  // At once, not with the next block: a supervisor or a test waits for this line.
  logger.flush();
}

main().catch((error: unknown) => {
  // 78 (EX_CONFIG): a supervisor should not restart a service whose configuration is wrong.
  if (error instanceof ConfigError) {
    console.error(`configuration error: ${error.message}`);
    process.exit(78);
  }
  console.error('failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});

import { build } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { checkConnectionBudget, openContext } from './start.ts';
import { startDispatcher } from './webhooks/dispatcher.ts';
import { startKeyJobs } from './keys/keyJobs.ts';
import { startMetricsServer } from './metrics/metricsServer.ts';
import { startRetentionJob } from './retention/retentionJob.ts';
import { startSupplementExpiryJob } from './applications/supplementExpiry.ts';
import { onShutdownSignals } from './shutdown.ts';

/**
 * Runs the service (loaded by main.ts): configuration, store, HTTP server, background jobs.
 * Shutdown runs once: stop accepting, finish requests in flight, close the store; a second signal
 * forces exit.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config);
  const ctx = await openContext(config, logger);
  await checkConnectionBudget(ctx, logger, 1);
  const app = await build(ctx, { logger });

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
  });
  // Log level at run time: SIGUSR2 switches between LOG_LEVEL and debug (children follow the root).
  process.on('SIGUSR2', () => {
    logger.level = logger.level === 'debug' ? config.logLevel : 'debug';
    logger.warn({ log_level: logger.level }, 'log level changed');
  });
  // Not ready until the dispatcher runs, when this process is meant to run it.
  if (config.webhooks.inProcess) ctx.workers.register('webhook dispatcher', () => dispatcher !== undefined);

  const address = await app.listen({ port: config.port, host: config.host });
  // The webhook dispatcher, unless separate `cardapply worker` processes deliver (WEBHOOK_WORKER=false).
  if (config.webhooks.inProcess && !shutdown.stopping) {
    dispatcher = startDispatcher(ctx, logger, {
      onAttempt: (report) => ctx.metrics.webhookAttempts.inc({ outcome: report.outcome }),
    });
  }
  if (!shutdown.stopping) {
    background.push(startKeyJobs(ctx, logger));
    background.push(startSupplementExpiryJob(ctx, logger));
    const retention = startRetentionJob(ctx, logger);
    if (retention !== undefined) background.push(retention);
  }
  if (config.operations.metricsPort !== undefined && !shutdown.stopping) {
    const metricsServer = await startMetricsServer(ctx.metrics, config.operations.metricsPort, config.host);
    background.push({ stop: () => metricsServer.close() });
    logger.info({ metrics_url: metricsServer.url }, 'metrics listening');
  }
  logger.info({ url: address, store: ctx.store.label }, 'listening');
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

import type { Command } from 'commander';

/**
 * `cardapply worker`: the webhook dispatcher and the job runner on their own, for deployments that
 * keep background work apart from the HTTP instances (set WEBHOOK_WORKER=false there). Any number may run against one
 * PostgreSQL. SIGTERM or SIGINT stops it gracefully; a second signal exits at once.
 */
export function workerCommand(program: Command): void {
  program
    .command('worker')
    .description('deliver webhooks and run background jobs, without the HTTP server')
    .option('--concurrency <n>', 'attempts in flight at once (default WEBHOOK_CONCURRENCY)')
    .action(async (options: { concurrency?: string }) => {
      const [
        { loadConfig },
        { createLogger },
        { onShutdownSignals },
        { openContext, warnOfOpenNetworkSwitches },
        { startJobRunner },
        { startDispatcher },
        { JOB_KINDS },
        { SUBJECT_JOB_KINDS },
      ] = await Promise.all([
        import('../config.ts'),
        import('../logger.ts'),
        import('../shutdown.ts'),
        import('../start.ts'),
        import('../worker/jobRunner.ts'),
        import('../webhooks/dispatcher.ts'),
        import('../worker/jobKinds.ts'),
        import('../subjects/subjectExportJob.ts'),
      ]);
      const config = loadConfig();
      const logger = createLogger(config);
      const ctx = await openContext(config, logger);
      warnOfOpenNetworkSwitches(config, logger);
      const concurrency = options.concurrency === undefined ? undefined : Number(options.concurrency);
      if (
        concurrency !== undefined &&
        !(Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= 256)
      )
        throw new Error('--concurrency: must be a whole number from 1 to 256');
      const dispatcher = startDispatcher(ctx, logger, concurrency === undefined ? {} : { concurrency });
      const jobs = startJobRunner(ctx, logger, {
        workerId: `${dispatcher.workerId}:jobs`,
        kinds: [...JOB_KINDS, ...SUBJECT_JOB_KINDS],
      });

      onShutdownSignals({
        logger,
        graceMs: config.shutdownGraceMs,
        message: 'worker stopping: finishing attempts in flight',
        drain: () => Promise.all([dispatcher.stop(), jobs.stop()]),
        close: () => ctx.store.close(),
      });
      logger.info({ worker: dispatcher.workerId, store: ctx.store.label }, 'worker running');
      // At once, not with the next block of lines: a supervisor or a test waits for it.
      logger.flush();
    });
}

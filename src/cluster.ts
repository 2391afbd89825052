import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { describe } from './errors/describe.ts';
import { loadKeyRing } from './keys/loadKeyRing.ts';
import { clusterExposition } from './metrics/metrics.ts';
import { startMetricsServer } from './metrics/metricsServer.ts';
import { openStore } from './store/connect.ts';

/** Tells a worker which one it is (0 runs the background jobs); kept when it is replaced. */
export const WORKER_INDEX_ENV = 'CARDAPPLY_WORKER_INDEX';
/** A worker that dies is started again after this long (not in a tight loop if it cannot start). */
const RESTART_DELAY_MS = 1_000;
/** Exit status of a configuration error: not worth restarting. */
const CONFIG_ERROR = 78;

/**
 * The primary of WORKERS service processes on one port (node:cluster: the primary holds the
 * listening socket and hands connections to the workers in turn). It does the once-per-machine
 * work before the workers start (the embedded store's key file, migrations, the connection budget
 * for all of them), restarts a worker that dies, and turns SIGTERM or SIGINT into one graceful
 * SIGTERM per worker; a second signal kills them. If the primary itself is killed, the workers
 * exit when they lose it (node:cluster's own rule).
 */
export async function runPrimary(config: Config, logger: Logger): Promise<void> {
  // The key file of the embedded store is made once, not by several workers at once.
  loadKeyRing(config, logger);
  const store = await openStore(config, {
    onBackgroundError: (error) => logger.warn({ err: describe(error) }, 'idle store connection failed'),
  });
  try {
    const applied = await store.migrate();
    if (applied.length > 0) logger.info({ applied }, 'migrations applied');
    const budget = await store.connectionBudget(config.workers).catch(() => undefined);
    if (budget !== undefined && !budget.fits) {
      logger.warn(
        { wanted: budget.wanted, available: budget.available, max_connections: budget.maxConnections },
        `connection budget: ${config.workers} workers × DATABASE_POOL_SIZE ${config.databasePoolSize} = ${budget.wanted} connections, but PostgreSQL has ${budget.available} left; lower DATABASE_POOL_SIZE or WORKERS, raise max_connections or put PgBouncer in front (docs/DEPLOYMENT.md)`,
      );
    }
  } finally {
    await store.close();
  }

  let stopping = false;
  const byIndex = new Map<number, Worker>();
  const listening = new Set<number>();
  let announced = false;
  const start = (index: number) => {
    const worker = cluster.fork({ [WORKER_INDEX_ENV]: String(index) });
    byIndex.set(index, worker);
    worker.on('listening', (address) => {
      listening.add(index);
      if (!announced && listening.size === config.workers) {
        announced = true;
        const host = address.address?.includes(':')
          ? `[${address.address}]`
          : (address.address ?? config.host);
        logger.info(
          { url: `http://${host}:${address.port}`, workers: config.workers, pid: process.pid },
          'listening',
        );
        logger.flush();
      }
    });
    worker.on('exit', (code, signal) => {
      listening.delete(index);
      if (byIndex.get(index) === worker) byIndex.delete(index);
      if (stopping) {
        if (byIndex.size === 0) {
          logger.info('stopped');
          process.exit(0);
        }
        return;
      }
      if (code === CONFIG_ERROR) {
        logger.error({ worker_index: index }, 'worker refused its configuration: stopping');
        process.exit(CONFIG_ERROR);
      }
      logger.error({ worker_index: index, code, signal }, 'worker died: starting another');
      setTimeout(() => {
        if (!stopping) start(index);
      }, RESTART_DELAY_MS).unref();
    });
  };
  for (let index = 0; index < config.workers; index++) start(index);
  // One METRICS_PORT for the machine: the workers' registries, aggregated on each scrape.
  if (config.operations.metricsPort !== undefined) {
    const metricsServer = await startMetricsServer(
      clusterExposition(),
      config.operations.metricsPort,
      config.host,
    );
    logger.info({ metrics_url: metricsServer.url }, 'metrics listening');
  }

  const shutdown = (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: killing the workers');
      for (const worker of byIndex.values()) worker.process.kill('SIGKILL');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal, workers: byIndex.size }, 'shutting down: each worker finishes its requests');
    if (byIndex.size === 0) process.exit(0);
    for (const worker of byIndex.values()) worker.process.kill('SIGTERM');
    // The workers have their own grace period; this one only catches a worker that hangs.
    setTimeout(() => {
      logger.error('workers did not stop: killing them');
      for (const worker of byIndex.values()) worker.process.kill('SIGKILL');
      process.exit(1);
    }, config.shutdownGraceMs + 5_000).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGUSR2', () => {
    for (const worker of byIndex.values()) worker.process.kill('SIGUSR2');
  });
}

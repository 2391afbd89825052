import type { Logger } from 'pino';
import { describe } from './errors/describe.ts';

export interface Shutdown {
  /** True once a signal has arrived: start nothing new. */
  readonly stopping: boolean;
}

/**
 * The one shutdown sequence of every long-running process (the server, `cardapply worker`): on
 * SIGTERM or SIGINT, once, finish the work in flight (`drain`), then close the store (`close`),
 * and exit 0; past the grace period, or on a second signal, exit 1 at once.
 */
export function onShutdownSignals(options: {
  logger: Logger;
  graceMs: number;
  /** What the log says while draining: `shutting down: finishing requests in flight`. */
  message: string;
  drain: () => Promise<unknown>;
  close: () => Promise<void>;
}): Shutdown {
  const { logger } = options;
  const state = { stopping: false };
  const shutdown = (signal: string) => {
    if (state.stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    state.stopping = true;
    logger.info({ signal }, options.message);
    const force = setTimeout(() => {
      logger.error('shutdown grace period over: exiting');
      process.exit(1);
    }, options.graceMs);
    force.unref();
    options
      .drain()
      .then(() => options.close())
      .then(() => {
        logger.info('stopped');
        process.exit(0);
      })
      .catch((error: unknown) => {
        logger.error({ err: describe(error) }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  return state;
}

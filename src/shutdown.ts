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
  /**
   * The signals that start it (SIGTERM and SIGINT). A cluster worker listens to SIGTERM only: a
   * Ctrl-C reaches the whole process group, and its primary turns it into one SIGTERM each.
   */
  signals?: readonly NodeJS.Signals[];
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
  const signals = options.signals ?? ['SIGTERM', 'SIGINT'];
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    // A signal not taken here is still caught, so that it does not end the process by default.
    process.on(signal, () => (signals.includes(signal) ? shutdown(signal) : undefined));
  }
  return state;
}

/** A pause between a background loop's polls that `wake()` ends at once (new work, or a stop). */
export interface Pause {
  (ms: number): Promise<void>;
  wake(): void;
}

export function wakeablePause(): Pause {
  let wakeUp: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        if (wakeUp === done) wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });
  return Object.assign(pause, { wake: () => wakeUp?.() });
}

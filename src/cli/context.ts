import { loadConfig } from '../config.ts';
import type { ServiceContext } from '../context.ts';
import { createLogger } from '../logger.ts';
import { openContext } from '../start.ts';

/** Runs a command against the configured store, and closes it afterwards. */
export async function withContext<T>(
  work: (ctx: ServiceContext) => Promise<T>,
  options: { migrate?: boolean } = {},
): Promise<T> {
  const config = loadConfig();
  // Commands talk to people on stdout; the service's log lines would only be noise there.
  const logger = createLogger({ logLevel: 'warn' }, process.stderr);
  const ctx = await openContext(config, logger, options);
  try {
    return await work(ctx);
  } finally {
    await ctx.store.close();
  }
}

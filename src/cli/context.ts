import type { ServiceContext } from '../context.ts';

/**
 * Runs a command against the configured store, and closes it afterwards. The configuration, the
 * logger and the store are loaded here, when a command needs them, not when the program is built:
 * `cardapply --help` and the commands that touch no store never pay for them.
 */
export async function withContext<T>(
  work: (ctx: ServiceContext) => Promise<T>,
  options: { migrate?: boolean } = {},
): Promise<T> {
  const [{ loadConfig }, { createLogger }, { openContext }] = await Promise.all([
    import('../config.ts'),
    import('../logger.ts'),
    import('../start.ts'),
  ]);
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

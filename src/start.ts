import type { Logger } from 'pino';
import type { ServiceContext } from './context.ts';
import { loadCodeTables } from './codes/tables.ts';
import { loadKeyRing } from './keys/loadKeyRing.ts';
import { ServiceMetrics } from './metrics/metrics.ts';
import { registerStoreGauges } from './metrics/storeGauges.ts';
import { registerWorkloadGauges } from './metrics/workloadGauges.ts';
import { Workers } from './metrics/workers.ts';
import { openStore } from './store/connect.ts';
import { describe } from './errors/describe.ts';
import { ConfigError, type Config } from './config.ts';

/**
 * Opens everything the domain needs, from configuration: the store (migrated), the key ring and
 * the code tables. Shared by the server, the CLI and the tests.
 */
export async function openContext(
  config: Config,
  logger: Logger,
  options: { migrate?: boolean } = {},
): Promise<ServiceContext> {
  // With the embedded store and no keys configured, a key is generated into DATA_DIR (mode 0600).
  // A key ring or code table file that cannot be used is a configuration error (exit 78).
  const keyRing = asConfigError('ENCRYPTION_KEYS', () => loadKeyRing(config, logger));
  const codes = asConfigError('CODES_FILE', () => loadCodeTables(config.codesFile));
  const store = openStore(config, {
    onBackgroundError: (error) => logger.warn({ err: describe(error) }, 'idle store connection failed'),
  });
  if (options.migrate !== false) {
    const applied = await store.migrate();
    if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  }
  const metrics = new ServiceMetrics();
  registerStoreGauges(metrics, store, Date.now);
  registerWorkloadGauges(metrics, store, Date.now);
  return { config, store, keyRing, codes, now: Date.now, metrics, workers: new Workers() };
}

function asConfigError<T>(variable: string, load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new ConfigError(message.startsWith(variable) ? message : `${variable}: ${message}`);
  }
}

import type { Logger } from 'pino';
import type { ServiceContext } from './context.ts';
import { loadCodeTables } from './codes/tables.ts';
import { loadRiskPolicy } from './policies/riskPolicy.ts';
import { loadKeyRing } from './keys/loadKeyRing.ts';
import { ServiceMetrics } from './metrics/metrics.ts';
import { registerStoreGauges } from './metrics/storeGauges.ts';
import { registerWorkloadGauges } from './applications/views/workloadGauges.ts';
import { Workers } from './metrics/workers.ts';
import { registerScreeningGauges } from './screening/screeningGauges.ts';
import { registerDocumentFetchGauge } from './documents/fetchSlots.ts';
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
  const riskPolicy = asConfigError('RISK_POLICY_FILE', () => loadRiskPolicy(config.riskPolicyFile));
  const store = await openStore(config, {
    onBackgroundError: (error) => logger.warn({ err: describe(error) }, 'idle store connection failed'),
  });
  if (options.migrate !== false) {
    const applied = await store.migrate();
    if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  }
  const metrics = new ServiceMetrics();
  registerStoreGauges(metrics, store, Date.now);
  registerWorkloadGauges(metrics, store, Date.now);
  registerScreeningGauges(metrics, { config, store, now: Date.now });
  registerDocumentFetchGauge(metrics, config.documents);
  return { config, store, keyRing, codes, riskPolicy, now: Date.now, metrics, workers: new Workers() };
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

/**
 * Warns when this machine's processes × DATABASE_POOL_SIZE cannot fit the connections PostgreSQL
 * has left (max_connections less its superuser reserve and what other clients hold now). Only on a
 * direct connection: behind a pooler the pooler's pool size bounds the server's connections.
 * Returns whether it warned. A failure to ask is logged, never fatal.
 */
export async function checkConnectionBudget(
  ctx: ServiceContext,
  logger: Logger,
  processes: number,
): Promise<boolean> {
  try {
    const budget = await ctx.store.connectionBudget(processes);
    if (budget === undefined || budget.fits) return false;
    logger.warn(
      {
        wanted: budget.wanted,
        available: budget.available,
        max_connections: budget.maxConnections,
        reserved: budget.reserved,
        held_by_others: budget.heldByOthers,
      },
      `connection budget: ${processes} process(es) × DATABASE_POOL_SIZE ${ctx.config.databasePoolSize} = ${budget.wanted} connections, but PostgreSQL has ${budget.available} left; lower DATABASE_POOL_SIZE, raise max_connections or put PgBouncer in front (docs/DEPLOYMENT.md)`,
    );
    return true;
  } catch (error) {
    logger.warn({ err: describe(error) }, 'connection budget not checked');
    return false;
  }
}

/**
 * The switches that lift the address rules of outgoing requests are for tests and closed networks:
 * a process that runs with one on says so at start, once per switch, rather than quietly reaching
 * private hosts. Called by the processes that make those requests (the server, `cardapply worker`).
 */
export function warnOfOpenNetworkSwitches(config: Config, logger: Logger): void {
  const switches = [
    {
      on: config.webhooks.allowPrivate,
      setting: 'WEBHOOK_ALLOW_PRIVATE',
      what: 'webhook endpoints may use http and private, loopback or link-local addresses',
    },
    {
      on: config.documents.allowPrivate,
      setting: 'DOCUMENT_ALLOW_PRIVATE',
      what: 'image URLs may use http and private, loopback or link-local hosts, and are fetched from them',
    },
  ];
  for (const { on, setting, what } of switches) {
    if (on) logger.warn({ setting }, `${setting} is on: ${what}; for tests and closed networks only`);
  }
}

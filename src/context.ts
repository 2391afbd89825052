import type { Config } from './config.ts';
import type { Keys } from './crypto/liveKeyRing.ts';
import type { ServiceMetrics } from './metrics/metrics.ts';
import type { Workers } from './metrics/workers.ts';
import type { LoadedCodeTables } from './codes/tables.ts';
import type { LoadedRiskPolicy } from './policies/riskPolicy.ts';
import type { Store } from './store/connect.ts';

/**
 * What the domain operations need, built once at start and passed down: the HTTP layer, the CLI,
 * the workers and the tests all call the domain with one of these.
 */
export interface ServiceContext {
  readonly config: Config;
  readonly store: Store;
  readonly keyRing: Keys;
  readonly codes: LoadedCodeTables;
  /** The risk policy in force (RISK_POLICY_FILE or the default), checked at start. */
  readonly riskPolicy: LoadedRiskPolicy;
  /** Milliseconds since the epoch; replaced in tests that need another time. */
  readonly now: () => number;
  /** This process's metrics; the domain counts its commits here. */
  readonly metrics: ServiceMetrics;
  /** The background workers this process runs, for /readyz. */
  readonly workers: Workers;
}

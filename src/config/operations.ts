import { integer, optionalInteger, type Env } from './variables.ts';

export interface OperationsConfig {
  /** A separate listener for /metrics (then not served on PORT), so that it need not be public. */
  metricsPort: number | undefined;
  /**
   * Identity data of applications final for longer than this many days is erased; undefined (the
   * default) keeps it: erasure cannot be undone, so it is the deployment's decision.
   */
  retentionDays: number | undefined;
  /** How often the retention job runs in each instance. */
  retentionIntervalMs: number;
}

export function operationsConfig(env: Env): OperationsConfig {
  return {
    metricsPort: optionalInteger(env, 'METRICS_PORT'),
    retentionDays: optionalInteger(env, 'RETENTION_DAYS'),
    retentionIntervalMs: integer(env, 'RETENTION_INTERVAL_SECONDS') * 1000,
  };
}

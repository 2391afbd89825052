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
  /**
   * How often the audit chain's head goes to the log (and so off the database): a rewrite of the
   * trail's whole tail, hashes and all, no longer matches the last head logged before it.
   */
  auditHeadLogIntervalMs: number;
}

export function operationsConfig(env: Env): OperationsConfig {
  return {
    metricsPort: optionalInteger(env, 'METRICS_PORT'),
    retentionDays: optionalInteger(env, 'RETENTION_DAYS'),
    retentionIntervalMs: integer(env, 'RETENTION_INTERVAL_SECONDS') * 1000,
    auditHeadLogIntervalMs: integer(env, 'AUDIT_HEAD_LOG_SECONDS') * 1000,
  };
}

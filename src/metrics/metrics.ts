import { createRequire } from 'node:module';
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * prom-client's default process metrics (CPU, memory, heap spaces, event-loop lag, handles,
 * version), all but its GC histogram (`nodejs_gc_duration_seconds`). That one observes every
 * collection with a PerformanceObserver, and for each one Node builds an entry whose deprecated
 * accessors (DEP0152) it wraps in new functions that end up in the old generation: at 2,100
 * submissions a second, scavenges every 50 ms, a tenth of what the old generation took in, and so
 * of how often its major collections stall the requests in flight (docs/PERFORMANCE.md, "Where
 * the half-rate tail is: the major collections"). The event-loop lag shows what collections cost
 * the requests, and the heap gauges their size. prom-client lists its defaults (`metricsList`),
 * each in its own module.
 */
const PROCESS_METRICS = collectDefaultMetrics.metricsList.filter((name) => name !== 'gc');
type DefaultMetric = (
  registry: Registry,
  config: { prefix: string; eventLoopMonitoringPrecision: number },
) => void;
const requireDefault = createRequire(import.meta.url);

/**
 * The service's Prometheus metrics, on a registry of its own (never prom-client's global one), so
 * that several instances in one test process keep separate counts. Built once per context; the
 * domain calls the few `on...` methods after its commits, which cost a map lookup and an add.
 *
 * Labels stay of bounded cardinality: operations, status codes, catalogue codes, lifecycle states.
 * Never an app id, a serial or anything a partner sends.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: 'cardapply_http_requests_total',
    help: 'HTTP requests answered, by operation (route) and status code',
    labelNames: ['operation', 'status_code'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'cardapply_http_request_duration_seconds',
    help: 'Time from request to response, by operation',
    labelNames: ['operation'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly submissions = new Counter({
    name: 'cardapply_applications_submitted_total',
    help: 'Applications stored (committed submissions)',
    registers: [this.registry],
  });
  readonly transitions = new Counter({
    name: 'cardapply_application_transitions_total',
    help: 'Committed state changes of applications, by the state left and the state reached',
    labelNames: ['from', 'to'] as const,
    registers: [this.registry],
  });
  readonly validationFailures = new Counter({
    name: 'cardapply_validation_failures_total',
    help: 'Field problems reported to partners, by catalogue code',
    labelNames: ['code'] as const,
    registers: [this.registry],
  });
  readonly rateLimitRejections = new Counter({
    name: 'cardapply_rate_limit_rejections_total',
    help: 'Requests refused by a limit: app (per-app request rate), concurrency (per-app requests in progress) or auth (failed secrets)',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });
  readonly webhookAttempts = new Counter({
    name: 'cardapply_webhook_deliveries_total',
    help: "Webhook delivery attempts of this process's dispatcher, by outcome",
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly webhookEndpointsAutoDisabled = new Counter({
    name: 'cardapply_webhook_endpoints_auto_disabled_total',
    help: 'Webhook endpoints the service disabled after their attempts failed for five days in a row',
    registers: [this.registry],
  });
  readonly reencryptedRows = new Counter({
    name: 'cardapply_reencrypted_rows_total',
    help: 'Rows moved to the current encryption key by the re-encryption job, by table',
    labelNames: ['table'] as const,
    registers: [this.registry],
  });
  readonly erasures = new Counter({
    name: 'cardapply_retention_erased_total',
    help: 'Applications whose identity data the retention job erased',
    registers: [this.registry],
  });
  readonly reveals = new Counter({
    name: 'cardapply_reveals_total',
    help: 'Identity data shown in the clear to operators, by purpose and outcome (revealed, limited)',
    labelNames: ['purpose', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly documents = new Counter({
    name: 'cardapply_documents_total',
    help: "Image fields' documents settled, by outcome (kept, or the reason they failed)",
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly documentBytes = new Counter({
    name: 'cardapply_document_bytes_total',
    help: 'Bytes of documents kept (encrypted into the store)',
    registers: [this.registry],
  });
  readonly jobRuns = new Counter({
    name: 'cardapply_job_runs_total',
    help: 'Runs of background jobs (reencrypt, retention), by result (ok, error)',
    labelNames: ['job', 'result'] as const,
    registers: [this.registry],
  });
  readonly riskAssessments = new Counter({
    name: 'cardapply_risk_assessments_total',
    help: 'Risk assessments stored (a new rating or a changed one), by tier',
    labelNames: ['tier'] as const,
    registers: [this.registry],
  });
  readonly riskAssessmentDelay = new Histogram({
    name: 'cardapply_risk_assessment_delay_seconds',
    help: 'Time from the evidence that asked for an assessment (its event) to the assessment stored',
    buckets: [1, 5, 15, 60, 300, 1800, 3600, 21600, 86400],
    registers: [this.registry],
  });
  readonly riskPolicyDecisions = new Counter({
    name: 'cardapply_risk_policy_decisions_total',
    help: 'Applications decided by the risk policy itself, by routing (auto_approve: approved straight through; decline: rejected with risk_policy)',
    labelNames: ['routing'] as const,
    registers: [this.registry],
  });
  #processMetrics = false;

  riskPolicyDecided(routing: string): void {
    this.riskPolicyDecisions.inc({ routing });
  }

  riskAssessed(tier: string, delayMs: number): void {
    this.riskAssessments.inc({ tier });
    this.riskAssessmentDelay.observe(Math.max(0, delayMs) / 1000);
  }

  onSubmitted(): void {
    this.submissions.inc();
  }

  onTransition(from: string, to: string): void {
    this.transitions.inc({ from, to });
  }

  /** Process metrics (CPU, memory, event-loop lag): only for a serving process, once. */
  collectProcessMetrics(): void {
    if (this.#processMetrics) return;
    this.#processMetrics = true;
    // As collectDefaultMetrics does it, with its default precision of the event-loop lag (ms).
    const config = { prefix: 'cardapply_', eventLoopMonitoringPrecision: 10 };
    for (const name of PROCESS_METRICS) {
      (requireDefault(`prom-client/lib/metrics/${name}.js`) as DefaultMetric)(this.registry, config);
    }
  }

  /** A gauge whose value is read when Prometheus scrapes. */
  gauge<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    collect: (gauge: Gauge<L>) => void | Promise<void>,
    /** Across a cluster's workers: `max` for a figure of the store (the same in each), `sum` for one of the process. */
    aggregator: 'max' | 'sum' = 'max',
  ): Gauge<L> {
    return new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [this.registry],
      aggregator,
      async collect() {
        await collect(this);
      },
    });
  }

  /**
   * A counter whose value is read when Prometheus scrapes, from a running total kept elsewhere
   * (summed across a cluster's workers, as every counter is).
   */
  counterOf(name: string, help: string, read: () => number): Counter {
    return new Counter({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  }

  /**
   * A worker of a cluster: its registry answers the primary's scrape (prom-client's cluster
   * aggregation), so one METRICS_PORT shows the whole machine: counters and histograms summed.
   */
  joinCluster(): void {
    AggregatorRegistry.setRegistries([this.registry]);
    // Constructing one is what makes a worker answer the primary's requests.
    new AggregatorRegistry();
  }

  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/** The primary of a cluster: every worker's metrics, aggregated, for its METRICS_PORT listener. */
export function clusterExposition(): () => Promise<{ contentType: string; body: string }> {
  const aggregator = new AggregatorRegistry();
  return async () => ({ contentType: aggregator.contentType, body: await aggregator.clusterMetrics() });
}

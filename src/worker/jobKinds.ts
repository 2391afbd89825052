import { documentFetchJob } from '../documents/fetchJob.ts';
import type { JobKind } from '../jobs/jobQueue.ts';
import { decideByPolicy } from '../applications/commands/policyDecision.ts';
import { riskJobKind } from '../risk/riskJob.ts';
import { issuerAlertJob } from '../screening/issuerAlertJob.ts';
import { rescreenJobKind } from '../screening/rescreenJob.ts';
import { screeningJob } from '../screening/screeningJob.ts';

/**
 * Every kind of background job, in one list: the outbox relay asks each which jobs an event wants,
 * and the runner runs them. A new kind adds its one line here.
 */
export const JOB_KINDS: readonly JobKind[] = [
  documentFetchJob,
  screeningJob,
  rescreenJobKind,
  issuerAlertJob,
  // The policy acts on the routing of each assessment (docs/RISK.md).
  riskJobKind(decideByPolicy),
];

import type { TypedApp } from '../typedApp.ts';
import { Type } from 'typebox';
import type { ServiceContext } from '../../context.ts';
import { reviewWorkload } from '../../applications/views/workload.ts';
import { success } from '../envelope.ts';
import { adminRoute } from './adminRoute.ts';
import { ok } from './schemas.ts';
import { TIERS } from '../../policies/riskPolicy.ts';
import { OverdueSubjectRequests, overdueSubjectRequests } from '../../subjects/operatorSubjectRequests.ts';

const nullableInt = (description: string) => Type.Union([Type.Integer(), Type.Null()], { description });

const WorkloadView = Type.Object({
  at: Type.Integer({ description: 'When it was read (Unix seconds).' }),
  statuses: Type.Array(
    Type.Object({
      status: Type.String(),
      count: Type.Integer(),
      oldest_seconds: nullableInt(
        'How long the oldest application has been in this status; null when none or final.',
      ),
      median_seconds: nullableInt('The median time in this status; null when none or final.'),
      sla_seconds: nullableInt('The SLA of this status (REVIEW_SLA_SECONDS), or null.'),
      past_sla: Type.Integer({ description: 'Applications in this status for longer than its SLA.' }),
    }),
  ),
  backlog: Type.Array(
    Type.Object({
      hour: Type.Integer({ description: 'Start of the hour (Unix seconds).' }),
      arrivals: Type.Integer({ description: 'Applications submitted in the hour.' }),
      decisions: Type.Integer({ description: 'Applications approved or rejected in the hour.' }),
    }),
    { description: 'The last 7 days, hour by hour, oldest first (168 entries).' },
  ),
  screening: Type.Object({
    open_hits: Type.Integer({ description: 'Sanctions screening hits that hold an application.' }),
    delivered_alerts: Type.Integer({
      description: 'Open hits on applications already delivered: an alert (docs/SCREENING.md).',
    }),
  }),
  risk: Type.Object(
    {
      tiers: Type.Array(Type.Object({ tier: Type.Enum([...TIERS]), count: Type.Integer() }), {
        description: 'Applications not final, per tier of their latest assessment (low to prohibited).',
      }),
      unrated: Type.Integer({ description: 'Applications not final with no assessment yet.' }),
      decisions: Type.Integer({ description: 'Approvals and rejections of the last 7 days.' }),
      policy_decisions: Type.Integer({
        description:
          'Of those, the ones the risk policy took itself (actor `policy:<version>`): the straight-through share is policy_decisions / decisions.',
      }),
    },
    {
      description:
        'The risk rating of the waiting applications and the straight-through share (docs/RISK.md).',
    },
  ),
  subject_requests: OverdueSubjectRequests,
});

/** The review workload: counts, ages and SLA per status, and the backlog of the last week. */
export function workloadRoutes(ctx: ServiceContext) {
  return async (app: TypedApp) => {
    app.get(
      '/workload',
      adminRoute(ctx, {
        caller: 'viewer',
        operation: 'admin.workload',
        operationId: 'adminWorkload',
        summary: 'The review workload: per status count, oldest, median, SLA; the backlog of 7 days',
        schema: { response: ok(WorkloadView) },
      }),
      async (request) =>
        success(request, {
          ...(await reviewWorkload(ctx)),
          subject_requests: await overdueSubjectRequests(ctx),
        }),
    );
  };
}

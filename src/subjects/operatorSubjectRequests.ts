import { Type, type Static } from 'typebox';
import type { ServiceContext } from '../context.ts';
import { problem } from '../errors/problems.ts';
import { ServiceError, ValidationError } from '../errors/serviceError.ts';
import {
  SUBJECT_REQUEST_KINDS,
  SUBJECT_REQUEST_STATUSES,
  SubjectRequestView,
  type SubjectRequestKind,
  type SubjectRequestStatus,
} from '../events/subjectRequestPayload.ts';
import {
  countOverdueSubjectRequests,
  findSubjectRequestById,
  listAllSubjectRequests,
  type SubjectRequestRow,
} from './subjectRequestRepository.ts';
import { subjectRequestView } from './subjectRequestView.ts';
import { exportsOf, findExport, type SubjectExportRow } from './subjectExportRepository.ts';

/**
 * The operators' side of the applicants' requests (docs/PRIVACY.md): every partner's requests, newest
 * first, with their due dates, and how many open ones are past due (the workload's flag). Serials
 * and codes only, as the partner's view.
 */

export const OperatorSubjectRequestView = Type.Object({
  ...SubjectRequestView.properties,
  app_id: Type.String({ description: 'The partner that forwarded it.' }),
  overdue: Type.Boolean({ description: 'Open and past `due_at`.' }),
  information_requested_on: Type.Union([Type.String(), Type.Null()], {
    description:
      'A correction answered by a request for information: the application asked; its amend completes the request.',
  }),
});
export type OperatorSubjectRequestView = Static<typeof OperatorSubjectRequestView>;

function operatorView(
  row: SubjectRequestRow,
  made: SubjectExportRow | undefined,
  now: number,
): OperatorSubjectRequestView {
  const open = row.status === 'received' || row.status === 'in_progress';
  return {
    ...subjectRequestView(row, made, now),
    app_id: row.app_id,
    overdue: open && Number(row.due_at) < now,
    information_requested_on: row.linked_serial ?? null,
  };
}

export const OPERATOR_LIST_LIMIT = 100;

export async function listSubjectRequestsForOperators(
  ctx: ServiceContext,
  query: {
    app_id?: string | undefined;
    status?: string | undefined;
    kind?: string | undefined;
    open?: boolean | undefined;
    cursor?: string | undefined;
    limit?: number | undefined;
  },
): Promise<{ items: OperatorSubjectRequestView[]; next_cursor: string | null }> {
  const problems = [];
  if (query.status !== undefined && !(SUBJECT_REQUEST_STATUSES as readonly string[]).includes(query.status))
    problems.push(problem('status', 'fieldNotAllowed', { allowed: SUBJECT_REQUEST_STATUSES.join(', ') }));
  if (query.kind !== undefined && !(SUBJECT_REQUEST_KINDS as readonly string[]).includes(query.kind))
    problems.push(problem('kind', 'fieldNotAllowed', { allowed: SUBJECT_REQUEST_KINDS.join(', ') }));
  const limit = query.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > OPERATOR_LIST_LIMIT)
    problems.push(
      problem('limit', 'fieldFormat', {
        rule: `must be a whole number from 1 to ${OPERATOR_LIST_LIMIT}`,
        rule_zh: `必须是 1 到 ${OPERATOR_LIST_LIMIT} 之间的整数`,
      }),
    );
  if (problems.length > 0) throw new ValidationError(problems);
  const rows = await listAllSubjectRequests(ctx.store.db, {
    appId: query.app_id,
    status: query.status as SubjectRequestStatus | undefined,
    kind: query.kind as SubjectRequestKind | undefined,
    open: query.open,
    beforeId: query.cursor,
    limit: limit + 1,
  });
  const now = ctx.now();
  const page = rows.slice(0, limit);
  const made = await exportsOf(
    ctx.store.db,
    page.map((row) => row.request_id),
  );
  const items = page.map((row) => operatorView(row, made.get(row.request_id), now));
  const last = items[items.length - 1];
  return { items, next_cursor: rows.length > limit && last !== undefined ? last.request_id : null };
}

export async function showSubjectRequestForOperators(
  ctx: ServiceContext,
  requestId: string,
): Promise<OperatorSubjectRequestView> {
  const row = await findSubjectRequestById(ctx.store.db, requestId);
  if (row === undefined) throw new ServiceError('subjectRequestNotFound');
  return operatorView(row, await findExport(ctx.store.db, requestId), ctx.now());
}

export const OverdueSubjectRequests = Type.Object(
  {
    overdue: Type.Integer({ description: 'Open subject requests past their due date.' }),
    oldest_due_at: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The earliest due date among them (Unix seconds); null when none.',
    }),
  },
  { description: "Applicants' requests through the partner past their due date (docs/PRIVACY.md)." },
);

export async function overdueSubjectRequests(
  ctx: ServiceContext,
): Promise<Static<typeof OverdueSubjectRequests>> {
  const { count, oldestDueAt } = await countOverdueSubjectRequests(ctx.store.db, ctx.now());
  return { overdue: count, oldest_due_at: oldestDueAt === null ? null : Math.floor(oldestDueAt / 1000) };
}

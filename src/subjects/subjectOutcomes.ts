import type { Kysely } from 'kysely';
import { recordAudit } from '../audit/auditTrail.ts';
import type { ServiceContext } from '../context.ts';
import { ServiceError } from '../errors/serviceError.ts';
import { appendEvent } from '../events/eventRepository.ts';
import { eventRow } from '../events/outbox.ts';
import { subjectRequestEventType } from '../events/subjectRequestPayload.ts';
import { lockForDocumentEvent } from '../record/applicationRepository.ts';
import type { Database } from '../store/tables.ts';
import {
  findSubjectRequestById,
  moveSubjectRequest,
  type SubjectRequestRow,
} from './subjectRequestRepository.ts';
import { viewOfSubjectRequest } from './subjectRequestView.ts';

/**
 * How an applicant's request through the partner ends (docs/PRIVACY.md), and how an operator starts
 * it. Each change is one conditional update of the request (of two at once, one wins), its audit
 * entry and, for an end, its event (`subject_request.completed`, `.restricted`, `.refused`: the
 * partner's webhooks deliver it), all in the caller's transaction. The event is told under the
 * application the partner named, so the outbox and the webhooks carry it as they carry that
 * application's own.
 */

export interface SubjectOutcome {
  status: 'completed' | 'restricted' | 'refused';
  reasonCode?: string | null;
  reason?: string | null;
  restrictedUntil?: number | null /* ms */;
}

const OPEN: readonly SubjectRequestRow['status'][] = ['received', 'in_progress'];

/** Who acts, as the audit trail names them (`operator:…`, `caller:…`, `system`), and from where. */
export interface SubjectActor {
  actor: string;
  source: string;
}

async function openRequest(tx: Kysely<Database>, requestId: string): Promise<SubjectRequestRow> {
  const row = await findSubjectRequestById(tx, requestId);
  if (row === undefined) throw new ServiceError('subjectRequestNotFound');
  if (!OPEN.includes(row.status)) {
    throw new ServiceError('subjectRequestEnded', { params: { status: row.status } });
  }
  return row;
}

/**
 * Ends an open (received/in_progress) request inside the caller's transaction `tx` (a
 * Kysely<Database> transaction): its status, an audit row, and an event the partner's webhooks
 * deliver. Throws ServiceError when it has already ended. Returns the ended row.
 */
export async function endSubjectRequest(
  ctx: ServiceContext,
  tx: Kysely<Database>,
  requestId: string,
  outcome: SubjectOutcome,
  actor: SubjectActor,
): Promise<SubjectRequestRow> {
  const row = await openRequest(tx, requestId);
  const now = ctx.now();
  const changes = {
    status: outcome.status,
    reason_code: outcome.reasonCode ?? null,
    reason: outcome.reason ?? null,
    restricted_until: outcome.status === 'restricted' ? (outcome.restrictedUntil ?? null) : null,
    ended_at: now,
    updated_at: now,
  };
  if (!(await moveSubjectRequest(tx, requestId, OPEN, changes))) {
    // Another operator (or the partner's amend) ended it between the read and the update.
    const again = await findSubjectRequestById(tx, requestId);
    throw new ServiceError('subjectRequestEnded', { params: { status: again?.status ?? 'ended' } });
  }
  const ended: SubjectRequestRow = { ...row, ...changes };
  // The application's row lock orders this event among the application's own (its `seq`).
  await lockForDocumentEvent(ctx.store, tx, row.busi_water_no);
  await appendEvent(
    tx,
    eventRow({
      appId: row.app_id,
      type: subjectRequestEventType(outcome.status),
      payload: {
        busi_water_no: row.busi_water_no,
        subject_request: await viewOfSubjectRequest(tx, ended, now),
      },
      at: now,
    }),
  );
  await recordAudit(tx, {
    actor: actor.actor,
    action: 'subject_request.end',
    targetType: 'subject_request',
    targetId: requestId,
    details: {
      kind: row.kind,
      app_id: row.app_id,
      from: row.status,
      to: outcome.status,
      ...(changes.reason_code === null ? {} : { reason_code: changes.reason_code }),
      ...(changes.restricted_until === null
        ? {}
        : { restricted_until: Math.floor(changes.restricted_until / 1000) }),
    },
    source: actor.source,
    at: now,
  });
  return ended;
}

/**
 * Starts a received request (received -> in_progress) inside the caller's transaction, by an
 * operator: audited. `linkedSerial`: a correction answered by a request for information on that
 * application, whose amend then completes it. Returns the started row.
 */
export async function startSubjectRequest(
  ctx: ServiceContext,
  tx: Kysely<Database>,
  requestId: string,
  actor: SubjectActor,
  options: { linkedSerial?: string | undefined; from?: readonly SubjectRequestRow['status'][] } = {},
): Promise<SubjectRequestRow> {
  const row = await openRequest(tx, requestId);
  const from = options.from ?? ['received'];
  if (!from.includes(row.status)) {
    throw new ServiceError('subjectRequestNotOpen', { params: { status: row.status } });
  }
  const now = ctx.now();
  const changes = {
    status: 'in_progress' as const,
    updated_at: now,
    ...(options.linkedSerial === undefined ? {} : { linked_serial: options.linkedSerial }),
  };
  if (!(await moveSubjectRequest(tx, requestId, from, changes))) {
    const again = await findSubjectRequestById(tx, requestId);
    throw new ServiceError('subjectRequestNotOpen', { params: { status: again?.status ?? 'ended' } });
  }
  await recordAudit(tx, {
    actor: actor.actor,
    action: 'subject_request.start',
    targetType: 'subject_request',
    targetId: requestId,
    details: {
      kind: row.kind,
      app_id: row.app_id,
      from: row.status,
      to: 'in_progress',
      ...(options.linkedSerial === undefined ? {} : { information_requested_on: options.linkedSerial }),
    },
    source: actor.source,
    at: now,
  });
  return { ...row, ...changes };
}

import type { Kysely, Updateable } from 'kysely';
import { recordAudit } from '../../audit/auditTrail.ts';
import type { ServiceContext } from '../../context.ts';
import { ServiceError } from '../../errors/serviceError.ts';
import { eventRow, type ApplicationEventPayload } from '../../events/outbox.ts';
import type { ApplicationsTable, Database } from '../../store/tables.ts';
import { appendEvent } from '../../events/eventRepository.ts';
import { updateAtVersion } from '../../record/applicationRepository.ts';
import { eventTypeFor, isFinal, type Status } from '../../record/lifecycle.ts';
import { partnerReasonCodes, storedReasonCodes } from '../rules/reasonCodes.ts';

/**
 * The one write of an application's change of state, whoever makes it (an operator's review, a
 * partner's cancel or amendment, the expiry job, a sandbox simulation): inside the caller's
 * transaction it updates the row under an optimistic version check (of two concurrent changes
 * exactly one succeeds, on both stores), and writes the event (which is also the history's entry:
 * from, to, actor, reason, details) and the audit entry. It builds the event's row by the
 * outbox's rule (events/outbox.ts) and writes the audit entry through the trail's one writer
 * (audit/auditTrail.ts's recordAudit), both in the caller's transaction. Deciding whether the move is allowed is the
 * caller's (transitionApplication.ts, amendApplication.ts); recording it is this function's alone.
 */
export interface StateChange {
  busi_water_no: string;
  app_id: string;
  from: Status;
  to: Status;
  /** The row's version as read: the update applies only if it is still this one. */
  version: number;
  /** Who, as the audit trail names them (`operator:…`, `caller:…`, `system`). */
  actor: string;
  /** Where the request came from: `admin-api <ip>`, `cli <user>`, `caller-api`. */
  source: string;
  reason: string | null;
  reason_codes: readonly string[];
  /** SUPPLEMENT_REQUIRED: the fields the partner is to send again. */
  requested_fields?: readonly string[] | undefined;
  /** Kept in the history (on the event) and the audit entry (carrier, tracking, amended fields...). */
  details: Record<string, unknown>;
  /** Fields of the event beyond the common ones. */
  event_fields?: Pick<ApplicationEventPayload, 'amended_fields' | 'changed_fields'> | undefined;
  /** The event's type when it is not the new status's own (an amendment's `application.amended`). */
  event_type?: string | undefined;
  /** Columns the change sets besides the state: an amendment's new payload and hashes. */
  columns?: Updateable<ApplicationsTable> | undefined;
  /** The masked card number and partner reference the event shows (after the change). */
  card_no_masked: string;
  external_id: string | null;
  /** The audit entry's details; by default from, to, reason, codes and `details`. */
  audit?: Record<string, unknown> | undefined;
  /** Added to the default audit details, never to the event: what an approval weighed (approvalGate.ts). */
  audit_extra?: Record<string, unknown> | undefined;
  /** Milliseconds. */
  at: number;
}

export async function changeState(
  ctx: ServiceContext,
  trx: Kysely<Database>,
  change: StateChange,
): Promise<void> {
  const requested = change.requested_fields ?? [];
  const codes = storedReasonCodes(change.reason_codes);
  const updated = await updateAtVersion(trx, change.busi_water_no, change.version, {
    ...change.columns,
    status: change.to,
    status_reason: change.reason,
    reason_codes: codes,
    // Asked for while SUPPLEMENT_REQUIRED only; any move out of it ends the request.
    requested_fields: requested.length === 0 ? null : JSON.stringify(requested),
    supplement_due_at: requested.length === 0 ? null : change.at + ctx.config.supplementDays * 86_400_000,
    updated_at: change.at,
    // A final application no longer blocks a new one for the same document or reference.
    ...(isFinal(change.to) ? { active_cert_hash: null, active_external_id: null } : {}),
  });
  if (!updated) {
    // Someone else changed it between our read and our write (PostgreSQL, read committed).
    throw new ServiceError('concurrentChange');
  }

  await appendEvent(
    trx,
    eventRow({
      appId: change.app_id,
      type: change.event_type ?? eventTypeFor(change.to),
      payload: eventPayload(change),
      at: change.at,
      history: {
        from_status: change.from,
        to_status: change.to,
        actor: change.actor,
        reason: change.reason,
        reason_codes: codes,
        details: Object.keys(change.details).length === 0 ? null : JSON.stringify(change.details),
      },
    }),
  );
  await recordAudit(trx, {
    actor: change.actor,
    action: 'application.transition',
    targetType: 'application',
    targetId: change.busi_water_no,
    details: change.audit ?? {
      from: change.from,
      to: change.to,
      reason: change.reason,
      ...(change.reason_codes.length === 0 ? {} : { reason_codes: change.reason_codes }),
      ...change.details,
      ...change.audit_extra,
    },
    source: change.source,
    at: change.at,
  });
}

/** The event's payload: the same fields for every change, the submission's included. */
export function eventPayload(
  change: Pick<
    StateChange,
    'busi_water_no' | 'reason' | 'reason_codes' | 'card_no_masked' | 'external_id'
  > & {
    to: Status;
    from: Status | null;
    requested_fields?: readonly string[] | undefined;
    event_fields?: StateChange['event_fields'];
  },
): ApplicationEventPayload {
  const requested = change.requested_fields ?? [];
  return {
    busi_water_no: change.busi_water_no,
    status: change.to,
    previous_status: change.from,
    reason: change.reason,
    // The partner's reading of the codes: events and webhooks go to the partner.
    reason_codes: partnerReasonCodes(change.reason_codes),
    card_no_masked: change.card_no_masked,
    external_id: change.external_id,
    ...(requested.length === 0 ? {} : { requested_fields: [...requested] }),
    ...change.event_fields,
  };
}

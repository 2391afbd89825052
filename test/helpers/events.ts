import { sql } from 'kysely';
import { eventTypeFor, type Status } from '../../src/record/lifecycle.ts';
import { submitApplication } from '../../src/applications/commands/submitApplication.ts';
import { createApp } from '../../src/partners/credentials.ts';
import type { ServiceContext } from '../../src/context.ts';
import { eventRow } from '../../src/events/outbox.ts';
import { appendEvent } from '../../src/events/eventRepository.ts';
import { uniqueApplicant } from './applicants.ts';

/** Events made the way the service makes them: a submission, or a state change with its event. */

let applicantCounter = 0;

export async function newAppId(ctx: ServiceContext, name = 'webhook partner'): Promise<string> {
  return (await createApp(ctx.store.db, name, Date.now())).app_id;
}

/** Submits `count` applications (each writes an application.submitted event); returns their serials. */
export async function submitMany(ctx: ServiceContext, appId: string, count: number): Promise<string[]> {
  const partner = { appId, rateLimitPerSecond: null, rateLimitBurst: null, concurrencyLimit: null };
  const serials: string[] = [];
  for (let i = 0; i < count; i++) {
    const { busi_water_no } = await submitApplication(
      ctx,
      partner,
      uniqueApplicant(applicantCounter++, appId),
    );
    serials.push(busi_water_no);
  }
  return serials;
}

/** A state change and its event in one transaction, as a lifecycle transition writes them. */
export async function moveTo(
  ctx: ServiceContext,
  busiWaterNo: string,
  to: Status,
  reason: string | null = null,
): Promise<string> {
  return ctx.store.transaction(async (trx) => {
    const row = await trx
      .selectFrom('applications')
      .select(['app_id', 'status', 'card_no_masked'])
      .where('busi_water_no', '=', busiWaterNo)
      .executeTakeFirstOrThrow();
    const now = ctx.now();
    await trx
      .updateTable('applications')
      .set({ status: to, status_reason: reason, version: sql<number>`version + 1`, updated_at: now })
      .where('busi_water_no', '=', busiWaterNo)
      .execute();
    const event = eventRow({
      appId: row.app_id,
      type: eventTypeFor(to),
      payload: {
        busi_water_no: busiWaterNo,
        status: to,
        previous_status: row.status,
        reason,
        reason_codes: [],
        card_no_masked: row.card_no_masked,
        external_id: null,
      },
      at: now,
      history: {
        from_status: row.status,
        to_status: to,
        actor: 'system',
        reason,
        reason_codes: null,
        details: null,
      },
    });
    await appendEvent(trx, event);
    return event.event_id;
  });
}

export async function eventIdsOf(ctx: ServiceContext, appId: string): Promise<string[]> {
  const rows = await ctx.store.db
    .selectFrom('events')
    .select('event_id')
    .where('app_id', '=', appId)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => r.event_id);
}

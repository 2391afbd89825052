import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../store/tables.ts';

/**
 * The outbox: an event row is written in the same transaction as the change it reports, so there
 * is no change without its event and no event without its change. Delivery reads from here.
 */
export interface ApplicationEventPayload {
  busi_water_no: string;
  status: string;
  previous_status: string | null;
  reason: string | null;
  card_no_masked: string;
}

export function newEventId(): string {
  return `evt_${randomBytes(16).toString('hex')}`;
}

export async function recordEvent(
  db: Kysely<Database>,
  event: { appId: string; type: string; payload: ApplicationEventPayload; at: number },
): Promise<string> {
  const eventId = newEventId();
  await db
    .insertInto('events')
    .values({
      event_id: eventId,
      app_id: event.appId,
      busi_water_no: event.payload.busi_water_no,
      type: event.type,
      payload: JSON.stringify(event.payload),
      created_at: event.at,
    })
    .execute();
  return eventId;
}

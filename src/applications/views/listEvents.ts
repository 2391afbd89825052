import type { Partner } from '../../partners/credentials.ts';
import type { ServiceContext } from '../../context.ts';
import { problem } from '../../errors/problems.ts';
import { ValidationError } from '../../errors/serviceError.ts';
import { Type, type Static } from 'typebox';
import { findAppEvents } from '../../events/eventRepository.ts';
import { EventView, eventView } from './eventView.ts';

/**
 * A partner's own events, oldest first, a page at a time: to reconcile what its webhooks received.
 * The cursor is opaque to partners: the (created_at, event_id) of the last item of the page.
 */
export interface ListEventsRequest {
  cursor?: string;
  limit?: number;
  type?: string;
  busi_water_no?: string;
}

export const EventPage = Type.Object({
  items: Type.Array(EventView),
  next_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass it as `cursor` for the next page; null on the last page.',
  }),
});
export type EventPage = Static<typeof EventPage>;

export const DEFAULT_LIMIT = 20;

export async function listEvents(
  ctx: ServiceContext,
  partner: Partner,
  request: ListEventsRequest,
): Promise<EventPage> {
  const limit = request.limit ?? DEFAULT_LIMIT;
  const after = request.cursor === undefined ? undefined : decodeCursor(request.cursor);
  const rows = await findAppEvents(ctx.store.db, {
    appId: partner.appId,
    type: request.type,
    busiWaterNo: request.busi_water_no,
    after,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(eventView),
    next_cursor:
      rows.length > limit && last !== undefined ? encodeCursor(last.created_at, last.event_id) : null,
  };
}

function encodeCursor(createdAt: number, eventId: string): string {
  return Buffer.from(`${createdAt}.${eventId}`, 'utf8').toString('base64url');
}

const CURSOR = /^([0-9]{1,16})\.(evt_[0-9a-f]{32})$/;

function decodeCursor(cursor: string): { createdAt: number; eventId: string } {
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (match === null) {
    throw new ValidationError([
      problem('cursor', 'fieldFormat', {
        rule: 'is not a cursor returned by this listing',
        rule_zh: '不是本列表返回的游标',
      }),
    ]);
  }
  return { createdAt: Number(match[1]), eventId: match[2]! };
}

import { findApplication } from '../applications/applicationRepository.ts';
import { isSerialNumber } from '../applications/serialNumber.ts';
import type { ServiceContext } from '../context.ts';
import { ServiceError } from '../errors/serviceError.ts';
import { listDeliveries, type DeliveryView } from '../webhooks/deliveries.ts';
import { eventView, type EventView } from './outbox.ts';

export interface ApplicationEventView extends EventView {
  /** Its webhook deliveries with their attempts; null when the reader may not see deliveries. */
  deliveries: DeliveryView[] | null;
}

/**
 * The events of one application in their order (`sequence`), each with its webhook deliveries
 * when asked for: what the console shows under an application, with a redeliver button.
 */
export async function listApplicationEvents(
  ctx: ServiceContext,
  busiWaterNo: string,
  options: { withDeliveries: boolean },
): Promise<ApplicationEventView[]> {
  if (!isSerialNumber(busiWaterNo) || (await findApplication(ctx.store.db, busiWaterNo)) === undefined) {
    throw new ServiceError('applicationNotFound');
  }
  const rows = await ctx.store.db
    .selectFrom('events')
    .select(['event_id', 'type', 'payload', 'created_at', 'seq'])
    .where('busi_water_no', '=', busiWaterNo)
    .orderBy('seq')
    .execute();
  const views: ApplicationEventView[] = [];
  for (const row of rows) {
    const deliveries = options.withDeliveries ? await listDeliveries(ctx, { eventId: row.event_id }) : null;
    views.push({ ...eventView(row), deliveries });
  }
  return views;
}

import { Type, type Static } from 'typebox';
import { findApplication } from '../record/applicationRepository.ts';
import { isSerialNumber } from '../record/serialNumber.ts';
import type { ServiceContext } from '../context.ts';
import { ServiceError } from '../errors/serviceError.ts';
import { findApplicationEvents } from '../events/eventRepository.ts';
import { EventView, eventView } from '../applications/views/eventView.ts';
import { DeliveryView, loadDeliveries } from './deliveries.ts';

/** An event of one application, as the console shows it. */
export const ApplicationEvent = Type.Object({
  ...EventView.properties,
  deliveries: Type.Union([Type.Array(DeliveryView), Type.Null()], {
    description: 'Its webhook deliveries with every attempt; null for a viewer.',
  }),
});
export type ApplicationEventView = Static<typeof ApplicationEvent>;

/**
 * The console's read model of one application's events: in their order (`sequence`), each with its
 * webhook deliveries when asked for (one query for all of them, not one per event), so that the
 * console can show them with a redeliver button.
 */
export async function listApplicationEvents(
  ctx: ServiceContext,
  busiWaterNo: string,
  options: { withDeliveries: boolean },
): Promise<ApplicationEventView[]> {
  if (!isSerialNumber(busiWaterNo) || (await findApplication(ctx.store.db, busiWaterNo)) === undefined) {
    throw new ServiceError('applicationNotFound');
  }
  const rows = await findApplicationEvents(ctx.store.db, busiWaterNo);
  if (!options.withDeliveries) return rows.map((row) => ({ ...eventView(row), deliveries: null }));
  const deliveries = await loadDeliveries(ctx, { eventIds: rows.map((row) => row.event_id) });
  return rows.map((row) => ({
    ...eventView(row),
    deliveries: deliveries.filter((delivery) => delivery.event_id === row.event_id),
  }));
}

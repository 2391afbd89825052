import type { Partner } from '../../partners/credentials.ts';
import type { ServiceContext } from '../../context.ts';
import { resolveSerial, type ApplicationReference } from '../rules/applicationReference.ts';
import type { Status } from '../../record/lifecycle.ts';
import { queryApplication, type StatusView } from '../views/queryApplication.ts';
import { transitionApplication } from './transitionApplication.ts';

/** The moves a partner makes on its own applications, answered with the status view. */

export const PARTNER_SOURCE = 'caller-api';

/** Cancel: allowed from SUBMITTED or IN_REVIEW (the lifecycle table says so), else 409. */
export async function cancelApplication(
  ctx: ServiceContext,
  partner: Partner,
  request: ApplicationReference & { reason?: string | undefined },
): Promise<StatusView> {
  const serial = await resolveSerial(ctx, partner, request);
  await transitionApplication(ctx, {
    busiWaterNo: serial,
    to: 'CANCELLED',
    actor: { kind: 'caller', id: partner.appId },
    reason: request.reason,
    appId: partner.appId,
    source: PARTNER_SOURCE,
  });
  return queryApplication(ctx, partner, serial);
}

/**
 * Sandbox only (the route exists only with SANDBOX=true): the partner drives its own application
 * along any move of the lifecycle table, as an operator would, to test its integration end to end.
 * The history records the partner as the actor and marks the move as simulated. A shipment without
 * carrier or tracking number gets sandbox ones.
 */
export async function simulateTransition(
  ctx: ServiceContext,
  partner: Partner,
  request: {
    busi_water_no: string;
    status: Status;
    reason?: string | undefined;
    reason_codes?: string[] | undefined;
    requested_fields?: string[] | undefined;
    carrier?: string | undefined;
    tracking_no?: string | undefined;
    tracking_url?: string | undefined;
  },
): Promise<StatusView> {
  await transitionApplication(ctx, {
    busiWaterNo: request.busi_water_no,
    to: request.status,
    actor: { kind: 'caller', id: partner.appId },
    reason: request.reason,
    reasonCodes: request.reason_codes,
    requestedFields: request.requested_fields,
    details: {
      carrier: request.carrier ?? 'SANDBOX',
      tracking_no: request.tracking_no ?? `SIM${request.busi_water_no.slice(-12)}`,
      tracking_url: request.tracking_url,
    },
    appId: partner.appId,
    simulated: true,
    source: `${PARTNER_SOURCE} sandbox`,
  });
  return queryApplication(ctx, partner, request.busi_water_no);
}

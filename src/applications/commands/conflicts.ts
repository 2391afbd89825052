import type { Partner } from '../../partners/credentials.ts';
import { ServiceError } from '../../errors/serviceError.ts';

/** The 409s of a submission or amendment that meets another active application. */

/**
 * The active application that holds a document: a 409 that shows its serial only to the app that
 * owns it (another app's application stays invisible). It may have reached a final state in
 * between: then it is a 409 all the same, and a retry goes through.
 */
export function duplicateOf(
  partner: Partner,
  existing: { busi_water_no: string; app_id: string } | undefined,
): ServiceError {
  const own = existing !== undefined && existing.app_id === partner.appId;
  return new ServiceError(
    'duplicateApplication',
    own ? { data: { busi_water_no: existing.busi_water_no } } : {},
  );
}

/** The partner reference is in use by another active application of the app: name it. */
export function externalIdTaken(existing: { busi_water_no: string } | undefined): ServiceError {
  return new ServiceError(
    'externalIdTaken',
    existing === undefined ? {} : { data: { busi_water_no: existing.busi_water_no } },
  );
}

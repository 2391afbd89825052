import type { Partner } from '../../partners/credentials.ts';
import type { ServiceContext } from '../../context.ts';
import { problem } from '../../errors/problems.ts';
import { ServiceError, ValidationError } from '../../errors/serviceError.ts';
import { findSerialByExternalId } from '../../record/applicationRepository.ts';

/**
 * How a partner names one of its applications: by serial (`busi_water_no`) or by its own reference
 * (`external_id`). Query, cancel and amend accept either.
 */
export interface ApplicationReference {
  busi_water_no?: string | undefined;
  external_id?: string | undefined;
}

/**
 * The serial a reference names, among the partner's own applications. With both, the serial
 * decides and the reference must be its own; another app's reference answers like an unknown one.
 */
export async function resolveSerial(
  ctx: ServiceContext,
  partner: Partner,
  reference: ApplicationReference,
): Promise<string> {
  const { busi_water_no: serial, external_id: externalId } = reference;
  if (serial === undefined && externalId === undefined) {
    throw new ValidationError([problem('busi_water_no', 'fieldRequired')]);
  }
  if (externalId === undefined) return serial!;
  const found = await findSerialByExternalId(ctx.store.db, partner.appId, externalId);
  if (found === undefined || (serial !== undefined && serial !== found)) {
    throw new ServiceError('applicationNotFound');
  }
  return found;
}

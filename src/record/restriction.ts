import type { Kysely } from 'kysely';
import { ServiceError } from '../errors/serviceError.ts';
import type { Database } from '../store/tables.ts';
import { findRestriction } from './personRepository.ts';

/**
 * Restriction (docs/PRIVACY.md, "Deletion"): an application a deletion request could not erase,
 * because the issuer's anti-money-laundering record keeping applies, is kept but withdrawn from every
 * operator's view and search until retention erases it, except for an operator with a compliance
 * duty. To anyone else it answers exactly as an application that does not exist.
 */

/** Who looks: an operator with a compliance duty sees restricted applications. */
export interface Viewer {
  compliance?: boolean | undefined;
}

export function seesRestricted(viewer: Viewer | undefined): boolean {
  return viewer?.compliance === true;
}

/** Refuses (404 `applicationNotFound`) a restricted application to a viewer without the duty. */
export async function refuseIfRestricted(
  db: Kysely<Database>,
  busiWaterNo: string,
  viewer: Viewer | undefined,
): Promise<void> {
  if (seesRestricted(viewer)) return;
  const found = await findRestriction(db, busiWaterNo);
  if (found !== undefined && found.restricted_until !== null) throw new ServiceError('applicationNotFound');
}

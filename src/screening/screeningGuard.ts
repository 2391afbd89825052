import type { Kysely } from 'kysely';
import { ServiceError } from '../errors/serviceError.ts';
import type { Database } from '../store/tables.ts';
import { countOpenHits } from './screeningRepository.ts';

/** The moves a hit that is not cleared by two operators holds back. */
const HELD_MOVES: readonly string[] = ['APPROVED', 'CARD_ISSUED', 'SHIPPED'];

/**
 * Refuses to approve, issue or ship an application with an open screening hit. Called inside the
 * transition's transaction, so a hit recorded meanwhile is seen. Operators only ever meet this
 * error: a caller's own moves (cancel, amend) are not held.
 */
export async function refuseIfHeld(db: Kysely<Database>, busiWaterNo: string, to: string): Promise<void> {
  if (!HELD_MOVES.includes(to)) return;
  const open = await countOpenHits(db, busiWaterNo);
  if (open > 0)
    throw new ServiceError('screeningHitUnresolved', { params: { to, count: open }, data: { count: open } });
}

import { ServiceError } from '../errors/serviceError.ts';

/**
 * A hit that is not cleared by two operators holds back approval, issue and shipping. The rule
 * alone, no store: the move counts the application's open hits (`countOpenHits` of
 * hitRepository.ts) inside its transaction, so a hit recorded meanwhile is seen.
 * Operators only ever meet the error: a partner's own moves (cancel, amend) are not held.
 */
const HELD_MOVES: readonly string[] = ['APPROVED', 'CARD_ISSUED', 'SHIPPED'];

/** Whether an open screening hit holds a move to `to`. */
export function isHeldMove(to: string): boolean {
  return HELD_MOVES.includes(to);
}

/** Refuses a held move to `to` while `open` hits hold the application. */
export function refuseIfHeld(to: string, open: number): void {
  if (open > 0 && isHeldMove(to))
    throw new ServiceError('screeningHitUnresolved', { params: { to, count: open }, data: { count: open } });
}

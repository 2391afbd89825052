import type { Status } from '../record/lifecycle.ts';

/**
 * The deletion policy (docs/PRIVACY.md, "Deletion"): which of the applications a deletion request
 * covers are erased now and which are kept under the issuer's anti-money-laundering record keeping,
 * and until when. No store: the caller reads the applications and does what this answers.
 *
 * - An application that ended before any decision (CANCELLED, EXPIRED: the lifecycle lets neither
 *   follow an approval or a rejection) began no relationship: no record-keeping duty, erased now.
 * - A rejected one: customer due diligence was done and a decision taken on it; its records are kept
 *   AML_RETENTION_YEARS after the rejection (the relationship refused ends there).
 * - An approved one (APPROVED up to DELIVERED, a card issued or on its way): a relationship began.
 *   The applicant's deletion request is read as their ending it, the issuer closing the card in its
 *   card system (the service holds no account): kept AML_RETENTION_YEARS after the request's decision.
 * - One still in progress (SUBMITTED, IN_REVIEW, SUPPLEMENT_REQUIRED): neither; the deletion waits
 *   until it ends (the partner may cancel it) or is refused.
 * - One erased already: nothing left to do.
 *
 * The request's date is the latest of its applications' dates, so that it is one date for the person.
 */

/** The reason code of a restricted deletion, as the partner reads it. */
export const RECORD_KEEPING_CODE = 'aml_record_keeping';

const UNDECIDED_ENDS: readonly Status[] = ['CANCELLED', 'EXPIRED'];
const IN_PROGRESS: readonly Status[] = ['SUBMITTED', 'IN_REVIEW', 'SUPPLEMENT_REQUIRED'];

export interface CoveredApplication {
  busi_water_no: string;
  status: Status;
  /** ms: for a final application, when it ended. */
  updated_at: number;
  erased_at: number | null;
}

export type DeletionDecision =
  | { kind: 'in_progress'; busiWaterNo: string; status: Status }
  | { kind: 'decided'; erase: string[]; restrict: string[]; until: number | null };

/** `at` plus whole calendar years (UTC); 29 February becomes 1 March in a common year. */
export function addYears(at: number, years: number): number {
  const date = new Date(at);
  date.setUTCFullYear(date.getUTCFullYear() + years);
  return date.getTime();
}

export function decideDeletion(
  covered: readonly CoveredApplication[],
  now: number,
  years: number,
): DeletionDecision {
  const erase: string[] = [];
  const restrict: string[] = [];
  let until: number | null = null;
  for (const application of covered) {
    if (application.erased_at !== null) continue;
    const { status } = application;
    if (IN_PROGRESS.includes(status)) {
      return { kind: 'in_progress', busiWaterNo: application.busi_water_no, status };
    }
    if (UNDECIDED_ENDS.includes(status)) {
      erase.push(application.busi_water_no);
      continue;
    }
    const ended = status === 'REJECTED' ? application.updated_at : now;
    const date = addYears(ended, years);
    restrict.push(application.busi_water_no);
    until = until === null ? date : Math.max(until, date);
  }
  return { kind: 'decided', erase, restrict, until };
}

/**
 * The application lifecycle as data: the states, who may make each move, and which states are
 * final. Every state change in the service is checked against this table and nothing else.
 */
// The states are the store's too (its status columns hold nothing else): they are declared with the
// tables, below every reader, and this table of moves is built on them.
import { STATUSES, type Status } from '../store/applicationTables.ts';
import { SUBJECT_REQUEST_EVENT_TYPES } from '../events/subjectRequestPayload.ts';

export { STATUSES, type Status };

/** `policy`: the risk policy deciding by its routing (straight-through approval, a decline). */
export type ActorKind = 'caller' | 'operator' | 'system' | 'policy';

/** Facts a move records besides its reason: where a shipped card went, and where to follow it. */
export const TRANSITION_DETAILS = ['carrier', 'tracking_no', 'tracking_url'] as const;
export type TransitionDetail = (typeof TRANSITION_DETAILS)[number];

export interface TransitionRule {
  readonly to: Status;
  readonly by: readonly ActorKind[];
  readonly reasonRequired: boolean;
  /** At least one code of the `reason` table, so that a partner can map the outcome to its screens. */
  readonly codesRequired?: boolean;
  /** The fields the partner is to send again (names of the submit's fields): a request for information. */
  readonly fieldsRequired?: boolean;
  /** Details the move must carry (stored with the transition, shown in its history). */
  readonly detailsRequired?: readonly TransitionDetail[];
  /** Details the move may carry. */
  readonly detailsOptional?: readonly TransitionDetail[];
}

const SHIP: TransitionRule = {
  to: 'SHIPPED',
  by: ['operator', 'system'],
  reasonRequired: false,
  detailsRequired: ['carrier', 'tracking_no'],
  detailsOptional: ['tracking_url'],
};

export const TRANSITIONS: Readonly<Record<Status, readonly TransitionRule[]>> = {
  SUBMITTED: [
    { to: 'IN_REVIEW', by: ['operator', 'system', 'policy'], reasonRequired: false },
    { to: 'REJECTED', by: ['operator', 'policy'], reasonRequired: false, codesRequired: true },
    { to: 'CANCELLED', by: ['caller'], reasonRequired: false },
  ],
  IN_REVIEW: [
    { to: 'APPROVED', by: ['operator', 'policy'], reasonRequired: false },
    { to: 'REJECTED', by: ['operator', 'policy'], reasonRequired: false, codesRequired: true },
    {
      to: 'SUPPLEMENT_REQUIRED',
      by: ['operator'],
      reasonRequired: false,
      codesRequired: true,
      fieldsRequired: true,
    },
    { to: 'CANCELLED', by: ['caller'], reasonRequired: false },
  ],
  // Back to IN_REVIEW only through the partner's amend (amendApplication), which checks it all again.
  SUPPLEMENT_REQUIRED: [
    { to: 'IN_REVIEW', by: ['caller'], reasonRequired: false },
    { to: 'REJECTED', by: ['operator'], reasonRequired: false, codesRequired: true },
    { to: 'CANCELLED', by: ['caller'], reasonRequired: false },
    { to: 'EXPIRED', by: ['system'], reasonRequired: false },
  ],
  APPROVED: [{ to: 'CARD_ISSUED', by: ['operator', 'system'], reasonRequired: false }],
  CARD_ISSUED: [SHIP],
  SHIPPED: [
    { to: 'DELIVERED', by: ['operator', 'system'], reasonRequired: false },
    // The shipment failed (address not found, refused...): it comes back, and is shipped again.
    { to: 'RETURNED', by: ['operator', 'system'], reasonRequired: false, codesRequired: true },
  ],
  RETURNED: [SHIP],
  DELIVERED: [],
  REJECTED: [],
  CANCELLED: [],
  EXPIRED: [],
};

export const INITIAL_STATUS: Status = 'SUBMITTED';

/** The operators' verbs, one per move they make: the admin API's routes and the CLI's commands. */
export const OPERATOR_ACTIONS = {
  review: 'IN_REVIEW',
  approve: 'APPROVED',
  reject: 'REJECTED',
  supplement: 'SUPPLEMENT_REQUIRED',
  issue: 'CARD_ISSUED',
  ship: 'SHIPPED',
  return: 'RETURNED',
  deliver: 'DELIVERED',
} as const satisfies Record<string, Status>;

export type OperatorAction = keyof typeof OPERATOR_ACTIONS;

export function isFinal(status: Status): boolean {
  return TRANSITIONS[status].length === 0;
}

export function isStatus(value: unknown): value is Status {
  return typeof value === 'string' && (STATUSES as readonly string[]).includes(value);
}

/** A status read back from the store, which only ever holds one of STATUSES. */
export function storedStatus(value: string): Status {
  if (!isStatus(value)) throw new Error(`unknown status in the store: ${value}`);
  return value;
}

export function findTransition(from: Status, to: Status): TransitionRule | undefined {
  return TRANSITIONS[from].find((rule) => rule.to === to);
}

/** What a move into `to` asks of whoever makes it, over every state it can come from. */
export function requirementsOf(to: Status): {
  reasonRequired: boolean;
  codesRequired: boolean;
  fieldsRequired: boolean;
  detailsRequired: readonly TransitionDetail[];
  detailsOptional: readonly TransitionDetail[];
} {
  const rules = Object.values(TRANSITIONS)
    .flat()
    .filter((rule) => rule.to === to);
  return {
    reasonRequired: rules.some((rule) => rule.reasonRequired),
    codesRequired: rules.some((rule) => rule.codesRequired === true),
    fieldsRequired: rules.some((rule) => rule.fieldsRequired === true),
    detailsRequired: [...new Set(rules.flatMap((rule) => rule.detailsRequired ?? []))],
    detailsOptional: [...new Set(rules.flatMap((rule) => rule.detailsOptional ?? []))],
  };
}

/** The event type a move into `status` produces: `application.submitted`, `application.in_review`, ... */
export function eventTypeFor(status: Status): string {
  return `application.${status.toLowerCase()}`;
}

/** The event of a partner's amendment (SUPPLEMENT_REQUIRED back to IN_REVIEW). */
export const AMENDED_EVENT = 'application.amended';

/** The events of an application's documents (documents/fetchDocuments.ts): no move, a fact. */
export const DOCUMENT_EVENT_TYPES = ['application.documents_kept', 'application.document_failed'] as const;

/**
 * Every event type: one per state an application can move into, the amendment, the documents, and
 * the end of an applicant's request through the partner (docs/PRIVACY.md), told under the
 * application the partner named.
 */
export const EVENT_TYPES: readonly string[] = [
  ...STATUSES.map(eventTypeFor),
  AMENDED_EVENT,
  ...DOCUMENT_EVENT_TYPES,
  ...SUBJECT_REQUEST_EVENT_TYPES,
];

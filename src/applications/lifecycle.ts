/**
 * The application lifecycle as data: the states, who may make each move, and which states are
 * final. Every state change in the service is checked against this table and nothing else.
 */
export const STATUSES = [
  'SUBMITTED',
  'IN_REVIEW',
  'APPROVED',
  'CARD_ISSUED',
  'SHIPPED',
  'DELIVERED',
  'REJECTED',
  'CANCELLED',
] as const;

export type Status = (typeof STATUSES)[number];

export type ActorKind = 'caller' | 'operator' | 'system';

export interface TransitionRule {
  readonly to: Status;
  readonly by: readonly ActorKind[];
  readonly reasonRequired: boolean;
}

export const TRANSITIONS: Readonly<Record<Status, readonly TransitionRule[]>> = {
  SUBMITTED: [
    { to: 'IN_REVIEW', by: ['operator', 'system'], reasonRequired: false },
    { to: 'REJECTED', by: ['operator'], reasonRequired: true },
    { to: 'CANCELLED', by: ['caller'], reasonRequired: false },
  ],
  IN_REVIEW: [
    { to: 'APPROVED', by: ['operator'], reasonRequired: false },
    { to: 'REJECTED', by: ['operator'], reasonRequired: true },
    { to: 'CANCELLED', by: ['caller'], reasonRequired: false },
  ],
  APPROVED: [{ to: 'CARD_ISSUED', by: ['operator', 'system'], reasonRequired: false }],
  CARD_ISSUED: [{ to: 'SHIPPED', by: ['operator', 'system'], reasonRequired: false }],
  SHIPPED: [{ to: 'DELIVERED', by: ['operator', 'system'], reasonRequired: false }],
  DELIVERED: [],
  REJECTED: [],
  CANCELLED: [],
};

export const INITIAL_STATUS: Status = 'SUBMITTED';

export function isFinal(status: Status): boolean {
  return TRANSITIONS[status].length === 0;
}

export function isStatus(value: unknown): value is Status {
  return typeof value === 'string' && (STATUSES as readonly string[]).includes(value);
}

export function findTransition(from: Status, to: Status): TransitionRule | undefined {
  return TRANSITIONS[from].find((rule) => rule.to === to);
}

/** The event type a move into `status` produces: `application.submitted`, `application.in_review`, ... */
export function eventTypeFor(status: Status): string {
  return `application.${status.toLowerCase()}`;
}

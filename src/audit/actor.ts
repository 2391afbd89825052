import type { Role } from '../access/roles.ts';

/**
 * Who makes a change: a partner (an app), an operator with a role, the service itself (the CLI,
 * jobs), or the risk policy deciding an application by its routing (docs/RISK.md), named by the
 * version of the policy that decided.
 */
export type Actor =
  | { readonly kind: 'caller'; readonly id: string }
  | { readonly kind: 'operator'; readonly id: string; readonly role: Role }
  | { readonly kind: 'system' }
  | { readonly kind: 'policy'; readonly version: string };

export const SYSTEM: Actor = { kind: 'system' };

/** The stored form: `caller:<app_id>`, `operator:<username>`, `system` or `policy:<version>`. */
export function actorName(actor: Actor): string {
  if (actor.kind === 'system') return 'system';
  if (actor.kind === 'policy') return `policy:${actor.version}`;
  return `${actor.kind}:${actor.id}`;
}

/** Whether the actor is the operator of that user name (nobody disables or demotes themselves). */
export function isOperatorNamed(actor: Actor, username: string): boolean {
  return actor.kind === 'operator' && actor.id === username;
}

/** Who made a change and from where (`admin-api <address>`, `cli <user>`): what audited changes take. */
export interface ChangedBy {
  readonly actor: Actor;
  readonly source: string;
}

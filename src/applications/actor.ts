import type { Role } from '../operators/roles.ts';

/** Who makes a change: a caller (an app), an operator with a role, or the service itself. */
export type Actor =
  | { readonly kind: 'caller'; readonly id: string }
  | { readonly kind: 'operator'; readonly id: string; readonly role: Role }
  | { readonly kind: 'system' };

/** The stored form: `caller:<app_id>`, `operator:<username>` or `system`. */
export function actorName(actor: Actor): string {
  return actor.kind === 'system' ? 'system' : `${actor.kind}:${actor.id}`;
}

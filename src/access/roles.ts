/**
 * Operator roles, weakest first: a viewer reads, a reviewer also moves applications along the
 * lifecycle and reveals masked fields, an admin also manages apps and operators.
 */
export const ROLES = ['viewer', 'reviewer', 'admin'] as const;

export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** True when `role` includes everything `required` may do. */
export function hasRole(role: Role, required: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(required);
}

/** The role needed to move an application along the lifecycle or reveal one of its fields. */
export const ACTING_ROLE: Role = 'reviewer';

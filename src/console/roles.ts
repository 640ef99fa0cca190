/**
 * Operators' roles, each including the ones before it: a viewer reads; a responder runs incidents
 * and maintenance; an editor also changes branding, CSS and page settings; an admin also manages
 * operators, pages and domains. Checked on the server for every request (never only hidden in a form).
 */
/** The kind of a console operator's session in the sign-in store (src/auth/session-store.ts). */
export const OPERATOR_SUBJECT = 'operator';

export const ROLES = ['viewer', 'responder', 'editor', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export type Permission = 'read' | 'incidents' | 'branding' | 'operators';

const NEEDS: Record<Permission, Role> = { read: 'viewer', incidents: 'responder', branding: 'editor', operators: 'admin' };

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function may(role: Role, permission: Permission): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(NEEDS[permission]);
}

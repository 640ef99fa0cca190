/**
 * The one rule on changing operators: the console always keeps an admin. Removing the last admin,
 * or giving them another role, is refused (whoever asks: the console or the CLI).
 */
import type { Role } from './roles.ts';

export type OperatorChange = { kind: 'remove' } | { kind: 'role'; role: Role };

export type OperatorChangeRefusal = 'not-found' | 'last-admin';

/** Why `change` to the operator `targetId` is refused, given everyone's role now; null when allowed. */
export function operatorChangeRefusal(operators: readonly { id: string; role: Role }[], targetId: string, change: OperatorChange): OperatorChangeRefusal | null {
  const target = operators.find((operator) => operator.id === targetId);
  if (!target) return 'not-found';
  const staysAdmin = change.kind === 'role' && change.role === 'admin';
  if (target.role !== 'admin' || staysAdmin) return null;
  const admins = operators.filter((operator) => operator.role === 'admin').length;
  return admins <= 1 ? 'last-admin' : null;
}

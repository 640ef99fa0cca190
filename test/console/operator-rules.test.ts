import { describe, expect, it } from 'vitest';
import { operatorChangeRefusal } from '../../src/console/operator-rules.ts';

const team = [
  { id: 'op_a', role: 'admin' as const },
  { id: 'op_e', role: 'editor' as const },
];

describe('operatorChangeRefusal', () => {
  it('refuses to remove or demote the last admin', () => {
    expect(operatorChangeRefusal(team, 'op_a', { kind: 'remove' })).toBe('last-admin');
    expect(operatorChangeRefusal(team, 'op_a', { kind: 'role', role: 'responder' })).toBe('last-admin');
  });

  it('allows the last admin to stay admin, and any change once there is a second admin', () => {
    expect(operatorChangeRefusal(team, 'op_a', { kind: 'role', role: 'admin' })).toBeNull();
    const two = [...team, { id: 'op_b', role: 'admin' as const }];
    expect(operatorChangeRefusal(two, 'op_a', { kind: 'remove' })).toBeNull();
    expect(operatorChangeRefusal(two, 'op_b', { kind: 'role', role: 'viewer' })).toBeNull();
  });

  it('allows changes to non-admins and names an unknown operator', () => {
    expect(operatorChangeRefusal(team, 'op_e', { kind: 'remove' })).toBeNull();
    expect(operatorChangeRefusal(team, 'op_e', { kind: 'role', role: 'admin' })).toBeNull();
    expect(operatorChangeRefusal(team, 'op_x', { kind: 'remove' })).toBe('not-found');
  });
});

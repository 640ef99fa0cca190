import { afterEach, describe, expect, it } from 'vitest';
import { ConsoleStore, OperatorExistsError, SETUP_TTL_MS } from '../../src/console/store.ts';
import { DIALECTS, useDialects } from '../support/postgres.ts';

const dialects = useDialects();
const T0 = Date.UTC(2026, 10, 28, 10);
const opened: ConsoleStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

describe.each(DIALECTS)('ConsoleStore on %s', (dialect) => {
  async function open() {
    const store = await ConsoleStore.open(dialects.location(dialect));
    opened.push(store);
    return store;
  }

  it('adds an operator once per address, with a set-up link that works once and for a day', async () => {
    const store = await open();
    const { operator, setupToken } = await store.addOperator('Ada@Example.com', 'responder', T0);
    expect(operator).toMatchObject({ email: 'Ada@Example.com', role: 'responder', hasPassword: false });
    await expect(store.addOperator('ada@example.com', 'admin', T0)).rejects.toThrow(OperatorExistsError);
    expect((await store.setupOperator(setupToken, T0 + SETUP_TTL_MS - 1))?.id).toBe(operator.id);
    expect(await store.setupOperator(setupToken, T0 + SETUP_TTL_MS)).toBeNull();
    expect((await store.completeSetup(setupToken, 'scrypt$hash', T0 + 1))?.hasPassword).toBe(true);
    expect(await store.completeSetup(setupToken, 'scrypt$other', T0 + 2)).toBeNull();
    expect(await store.credentials('ADA@example.com ')).toEqual({ operator: { ...operator, hasPassword: true }, passwordHash: 'scrypt$hash' });
    const renewed = await store.renewSetup('ada@example.com', T0 + 3);
    expect(renewed && (await store.setupOperator(renewed, T0 + 4))?.id).toBe(operator.id);
    expect(await store.renewSetup('nobody@example.com', T0)).toBeNull();
  });

  it('keeps the audit trail newest first, with values before and after', async () => {
    const store = await open();
    await store.record({ actor: 'cli:root', action: 'incident.open', target: 'inc_1', after: { title: 'A' } }, T0);
    await store.record({ actor: 'operator:op_1 a@example.com', action: 'incident.update', target: 'inc_1', before: { status: 'investigating' }, after: { status: 'identified' } }, T0 + 1000);
    const entries = await store.audit(10);
    expect(entries.map((e) => [e.action, e.before, e.after])).toEqual([
      ['incident.update', { status: 'investigating' }, { status: 'identified' }],
      ['incident.open', null, { title: 'A' }],
    ]);
    expect(entries[0]?.at).toBe(T0 + 1000);
    expect(await store.audit(1)).toHaveLength(1);
  });

  it('removes an operator and changes a role, but never leaves the console without an admin', async () => {
    const store = await open();
    const { operator: ada } = await store.addOperator('ada@example.com', 'admin', T0);
    const { operator: bob } = await store.addOperator('bob@example.com', 'editor', T0);
    expect(await store.changeOperator(ada.id, { kind: 'role', role: 'editor' }, T0 + 1)).toEqual({ ok: false, refusal: 'last-admin' });
    expect(await store.changeOperator(ada.id, { kind: 'remove' }, T0 + 1)).toEqual({ ok: false, refusal: 'last-admin' });
    expect(await store.changeOperator('op_nobody', { kind: 'remove' }, T0 + 1)).toEqual({ ok: false, refusal: 'not-found' });
    expect((await store.operator(ada.id))?.role).toBe('admin');
    const promoted = await store.changeOperator(bob.id, { kind: 'role', role: 'admin' }, T0 + 2);
    expect(promoted).toMatchObject({ ok: true, before: { role: 'editor' }, after: { role: 'admin' } });
    // Two admins now: one may step down, then the other is the last again.
    expect(await store.changeOperator(ada.id, { kind: 'role', role: 'viewer' }, T0 + 3)).toMatchObject({ ok: true, before: { role: 'admin' }, after: { role: 'viewer' } });
    expect(await store.changeOperator(bob.id, { kind: 'remove' }, T0 + 4)).toEqual({ ok: false, refusal: 'last-admin' });
    expect(await store.changeOperator(ada.id, { kind: 'remove' }, T0 + 5)).toMatchObject({ ok: true, before: { email: 'ada@example.com' }, after: null });
    expect(await store.operator(ada.id)).toBeNull();
    expect((await store.operators()).map((o) => [o.email, o.role])).toEqual([['bob@example.com', 'admin']]);
  });

  it('lets only one of two admins demoting each other at once succeed', async () => {
    const store = await open();
    const other = await open();
    const { operator: ada } = await store.addOperator('ada@example.com', 'admin', T0);
    const { operator: bob } = await store.addOperator('bob@example.com', 'admin', T0);
    const results = await Promise.all([store.changeOperator(ada.id, { kind: 'role', role: 'viewer' }, T0 + 1), other.changeOperator(bob.id, { kind: 'remove' }, T0 + 1)]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect((await store.operators()).filter((o) => o.role === 'admin')).toHaveLength(1);
  });
});

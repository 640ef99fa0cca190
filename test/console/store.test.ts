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
});

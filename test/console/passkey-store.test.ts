import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { DialectName } from '../../src/store/database.ts';
import type { StoreLocation } from '../../src/store/location.ts';
import { ConsoleStore } from '../../src/console/store.ts';
import { CHALLENGE_TTL_MS, PasskeyExistsError } from '../../src/console/passkey-store.ts';
import { DIALECTS, useDialects } from '../support/postgres.ts';

const dialects = useDialects();
const T0 = Date.UTC(2026, 10, 28, 10);
const opened: ConsoleStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});
const dir = mkdtempSync(join(tmpdir(), 'pl-passkey-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** One database that two stores open (two replicas): a file for SQLite, one schema for PostgreSQL. */
function sharedLocation(dialect: DialectName): StoreLocation {
  return dialect === 'sqlite' ? { dialect: 'sqlite', path: join(dir, `console-${++files}.db`) } : dialects.location(dialect);
}

describe.each(DIALECTS)('the passkey store on %s', (dialect) => {
  async function open(location: StoreLocation = dialects.location(dialect)) {
    const store = await ConsoleStore.open(location);
    opened.push(store);
    return store;
  }

  it('accepts a challenge once, on any replica, only for its purpose and binding, only before it expires', async () => {
    const location = sharedLocation(dialect);
    const one = (await open(location)).passkeys();
    const other = (await open(location)).passkeys();
    const challenge = await one.issueChallenge('sign-in', 'csrf:abc', T0);
    expect(challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await other.consumeChallenge(challenge, 'register', 'csrf:abc', T0 + 1)).toBe(false);
    expect(await other.consumeChallenge(challenge, 'sign-in', 'csrf:other', T0 + 1)).toBe(false);
    expect(await other.consumeChallenge(`${challenge}x`, 'sign-in', 'csrf:abc', T0 + 1)).toBe(false);
    // Two replicas verifying the same answer at once: one of them wins.
    const both = await Promise.all([one.consumeChallenge(challenge, 'sign-in', 'csrf:abc', T0 + 2), other.consumeChallenge(challenge, 'sign-in', 'csrf:abc', T0 + 2)]);
    expect(both.filter(Boolean)).toHaveLength(1);
    expect(await one.consumeChallenge(challenge, 'sign-in', 'csrf:abc', T0 + 3)).toBe(false);

    const late = await one.issueChallenge('register', 'session:s1', T0);
    expect(await one.consumeChallenge(late, 'register', 'session:s1', T0 + CHALLENGE_TTL_MS)).toBe(false);
    const inTime = await one.issueChallenge('register', 'session:s1', T0);
    expect(await one.consumeChallenge(inTime, 'register', 'session:s1', T0 + CHALLENGE_TTL_MS - 1)).toBe(true);
  });

  it('keeps an operator\'s passkeys, refuses a second registration of one credential, and removes only the owner\'s', async () => {
    const store = await open();
    const { operator: ada } = await store.addOperator('ada@example.com', 'admin', T0);
    const { operator: bob } = await store.addOperator('bob@example.com', 'viewer', T0);
    const passkeys = store.passkeys();
    const added = await passkeys.add({ credentialId: 'cred-1', operatorId: ada.id, label: 'Work laptop', publicKey: 'pk1', counter: 0, transports: ['internal', 'hybrid'] }, T0);
    expect(added).toEqual({ credentialId: 'cred-1', operatorId: ada.id, label: 'Work laptop', publicKey: 'pk1', counter: 0, transports: ['internal', 'hybrid'], createdAt: T0, lastUsedAt: null });
    await passkeys.add({ credentialId: 'cred-2', operatorId: ada.id, publicKey: 'pk2', counter: 5, transports: [] }, T0 + 1);
    // A passkey added without a label (as before migration 4) has an empty one.
    expect((await passkeys.find('cred-2'))?.label).toBe('');
    await expect(passkeys.add({ credentialId: 'cred-1', operatorId: bob.id, publicKey: 'evil', counter: 0, transports: [] }, T0 + 2)).rejects.toBeInstanceOf(PasskeyExistsError);
    expect((await passkeys.find('cred-1'))?.operatorId).toBe(ada.id);
    expect((await passkeys.ofOperator(ada.id)).map((key) => key.credentialId)).toEqual(['cred-1', 'cred-2']);
    expect(await passkeys.ofOperator(bob.id)).toEqual([]);

    expect(await passkeys.remove(bob.id, 'cred-1')).toBeNull();
    expect((await passkeys.remove(ada.id, 'cred-1'))?.credentialId).toBe('cred-1');
    expect(await passkeys.find('cred-1')).toBeNull();
    expect((await passkeys.ofOperator(ada.id)).map((key) => key.credentialId)).toEqual(['cred-2']);
  });

  it('records a use only when the counter goes up, or stays 0 on an authenticator that keeps none', async () => {
    const store = await open();
    const { operator } = await store.addOperator('ada@example.com', 'admin', T0);
    const passkeys = store.passkeys();
    await passkeys.add({ credentialId: 'counted', operatorId: operator.id, publicKey: 'pk', counter: 5, transports: [] }, T0);
    await passkeys.add({ credentialId: 'uncounted', operatorId: operator.id, publicKey: 'pk', counter: 0, transports: [] }, T0);

    expect(await passkeys.recordUse('counted', 5, T0 + 1)).toBe(false);
    expect(await passkeys.recordUse('counted', 4, T0 + 1)).toBe(false);
    expect(await passkeys.recordUse('counted', 0, T0 + 1)).toBe(false);
    expect(await passkeys.find('counted')).toMatchObject({ counter: 5, lastUsedAt: null });
    expect(await passkeys.recordUse('counted', 2 ** 32 - 1, T0 + 2)).toBe(true);
    expect(await passkeys.find('counted')).toMatchObject({ counter: 2 ** 32 - 1, lastUsedAt: T0 + 2 });

    expect(await passkeys.recordUse('uncounted', 0, T0 + 3)).toBe(true);
    expect(await passkeys.recordUse('uncounted', 0, T0 + 4)).toBe(true);
    expect(await passkeys.find('uncounted')).toMatchObject({ counter: 0, lastUsedAt: T0 + 4 });
    expect(await passkeys.recordUse('nobody', 9, T0)).toBe(false);
  });
});

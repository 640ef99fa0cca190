/**
 * `porchlight operator passkeys` and `operator remove-passkey`: an admin on the machine lists an
 * operator's passkeys and removes a lost one by its name or credential id, audited like the
 * console's own removal; `--sign-out` also ends the operator's console sessions, and without it
 * they stay. The stores are the real ones (SQLite files, as `npm start` keeps them).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authLocation } from '../../src/auth/location.ts';
import { openAuthDatabase, SessionStore } from '../../src/auth/session-store.ts';
import { runCli } from '../../src/cli/run.ts';
import { OPERATOR_SUBJECT } from '../../src/console/roles.ts';
import { ConsoleStore, consoleLocation } from '../../src/console/store.ts';

const T0 = Date.parse('2026-11-20T09:30:00Z');
let dir: string;
let env: NodeJS.ProcessEnv;
let operatorId: string;

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { out: (text) => (out += text), err: (text) => (err += text), env, now: () => new Date(T0 + 60_000) });
  return { code, out, err };
}

async function withConsole<T>(work: (store: ConsoleStore) => Promise<T>): Promise<T> {
  const store = await ConsoleStore.open(consoleLocation(null, env.SUBSCRIBERS_DB ?? ''));
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

async function withSessions<T>(work: (sessions: SessionStore) => Promise<T>): Promise<T> {
  const db = await openAuthDatabase(authLocation(null, env.SUBSCRIBERS_DB ?? ''));
  try {
    return await work(new SessionStore(db));
  } finally {
    await db.close();
  }
}

const key = (credentialId: string, label: string) => ({ credentialId, label, publicKey: 'pQECAyYgASFYIA', counter: 0, transports: ['usb'] });

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'porchlight-passkeys-cli-'));
  env = { SUBSCRIBERS_DB: path.join(dir, 'subscribers.db') };
  operatorId = await withConsole(async (store) => {
    const { operator } = await store.addOperator('oncall@example.com', 'responder', T0);
    await store.passkeys().add({ ...key('cred-laptop', 'Work laptop'), operatorId: operator.id }, T0);
    await store.passkeys().add({ ...key('cred-phone-1', 'Phone'), operatorId: operator.id }, T0 + 1);
    await store.passkeys().add({ ...key('cred-phone-2', 'Phone'), operatorId: operator.id }, T0 + 2);
    return operator.id;
  });
  await withSessions((sessions) => sessions.create({ kind: OPERATOR_SUBJECT, id: operatorId }, T0));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const liveSessions = () => withSessions((sessions) => sessions.liveSessions({ kind: OPERATOR_SUBJECT, id: operatorId }, T0 + 60_000));
const credentials = () => withConsole(async (store) => (await store.passkeys().ofOperator(operatorId)).map((k) => k.credentialId));

describe('porchlight operator passkeys', () => {
  it("lists an operator's passkeys by name, with when they were added and used, and their ids", async () => {
    const listed = await cli('operator', 'passkeys', 'OnCall@example.com');
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/NAME\s+ADDED \(UTC\)\s+LAST USED \(UTC\)\s+CREDENTIAL ID/);
    expect(listed.out).toMatch(/Work laptop\s+2026-11-20 09:30\s+never\s+cred-laptop/);
    const json = JSON.parse((await cli('operator', 'passkeys', operatorId, '--json')).out) as { name: string; credentialId: string; lastUsedAt: string | null }[];
    expect(json.map((k) => [k.name, k.credentialId, k.lastUsedAt])).toEqual([['Work laptop', 'cred-laptop', null], ['Phone', 'cred-phone-1', null], ['Phone', 'cred-phone-2', null]]);
  });

  it('names an unknown operator in one line with the usage exit code', async () => {
    expect(await cli('operator', 'passkeys', 'nobody@example.com')).toMatchObject({ code: 2, out: '' });
  });
});

describe('porchlight operator remove-passkey', () => {
  it('removes the one passkey a name gives, audited as the console audits it; the sessions stay', async () => {
    const removed = await cli('operator', 'remove-passkey', 'oncall@example.com', 'Work laptop');
    expect(removed).toMatchObject({ code: 0, out: 'removed passkey "Work laptop" of oncall@example.com' });
    expect(await credentials()).toEqual(['cred-phone-1', 'cred-phone-2']);
    const [entry] = await withConsole((store) => store.audit(1));
    expect(entry).toMatchObject({ action: 'operator.passkey.remove', target: operatorId, before: { label: 'Work laptop', credentialId: 'cred-laptop' }, after: null, actor: expect.stringMatching(/^cli:/) });
    expect(await liveSessions()).toHaveLength(1);
  });

  it('asks for the credential id when two passkeys share the name, and removes nothing', async () => {
    const refused = await cli('operator', 'remove-passkey', 'oncall@example.com', 'Phone');
    expect(refused.code).toBe(2);
    expect(refused.err.trim().split('\n')).toHaveLength(1);
    expect(refused.err).toContain('2 passkeys named "Phone": give the credential id');
    expect(await credentials()).toHaveLength(3);
    expect(await cli('operator', 'remove-passkey', 'oncall@example.com', 'cred-phone-2')).toMatchObject({ code: 0 });
    expect(await credentials()).toEqual(['cred-laptop', 'cred-phone-1']);
  });

  it('with --sign-out also ends every console session of the operator', async () => {
    const removed = await cli('operator', 'remove-passkey', 'oncall@example.com', 'cred-laptop', '--sign-out', '--json');
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.out)).toMatchObject({ credentialId: 'cred-laptop', removed: true, sessionsEnded: 1 });
    expect(await liveSessions()).toHaveLength(0);
  });

  it('refuses a passkey the operator does not have, and one of another operator', async () => {
    const otherId = await withConsole(async (store) => {
      const { operator } = await store.addOperator('other@example.com', 'viewer', T0);
      await store.passkeys().add({ ...key('cred-other', 'Other'), operatorId: operator.id }, T0);
      return operator.id;
    });
    expect((await cli('operator', 'remove-passkey', 'oncall@example.com', 'cred-other')).code).toBe(2);
    expect((await cli('operator', 'remove-passkey', 'oncall@example.com', 'Tablet')).err).toContain('oncall@example.com has no passkey "Tablet"');
    expect(await withConsole(async (store) => (await store.passkeys().ofOperator(otherId)).length)).toBe(1);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/store/database.ts';
import { openAuthDatabase, SessionStore, hashSessionToken } from '../../src/auth/session-store.ts';
import { SignInThrottle, delayAfter, DEFAULT_THROTTLE_POLICY } from '../../src/auth/throttle.ts';
import { DIALECTS, useDialects } from '../support/postgres.ts';

const dialects = useDialects();
const T0 = Date.UTC(2026, 10, 28, 10);
const policy = { idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000, touchEveryMs: 60_000 };
const alice = { kind: 'operator', id: 'op_alice' };
const bob = { kind: 'operator', id: 'op_bob' };

const opened: Database[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.close()));
});
async function open(dialect: (typeof DIALECTS)[number]): Promise<Database> {
  const db = await openAuthDatabase(dialects.location(dialect));
  opened.push(db);
  return db;
}

describe.each(DIALECTS)('SessionStore on %s', (dialect) => {
  it('stores only the SHA-256 of a 256-bit token, and opens the session with the token alone', async () => {
    const db = await open(dialect);
    const sessions = new SessionStore(db, policy);
    const { token, session } = await sessions.create(alice, T0);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const rows = await db.all('SELECT token_hash FROM sessions');
    expect(rows).toEqual([{ token_hash: hashSessionToken(token) }]);
    expect(JSON.stringify(await db.all('SELECT * FROM sessions'))).not.toContain(token);
    expect((await sessions.lookup(token, T0 + 1000))?.subject).toEqual(alice);
    expect(session.absoluteExpiresAt).toBe(T0 + policy.absoluteMs);
    expect(await sessions.lookup(`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, T0 + 1000)).toBeNull();
    expect(await sessions.lookup('not a token', T0)).toBeNull();
  });

  it('ends an idle session, moves the idle expiry with use, and never passes the absolute expiry', async () => {
    const sessions = new SessionStore(await open(dialect), policy);
    const idle = await sessions.create(alice, T0);
    expect(await sessions.lookup(idle.token, T0 + policy.idleMs)).toBeNull();

    const used = await sessions.create(alice, T0);
    // Used every 20 minutes: alive past the first idle window, for 12 hours, then no longer.
    let at = T0;
    while (at + 20 * 60_000 < T0 + policy.absoluteMs) {
      at += 20 * 60_000;
      expect(await sessions.lookup(used.token, at)).not.toBeNull();
    }
    expect(await sessions.lookup(used.token, T0 + policy.absoluteMs)).toBeNull();
  });

  it('revokes one session, or every session of a subject (sign out everywhere), leaving others alone', async () => {
    const sessions = new SessionStore(await open(dialect), policy);
    const phone = await sessions.create(alice, T0);
    const laptop = await sessions.create(alice, T0 + 1);
    const other = await sessions.create(bob, T0 + 2);
    const viewer = await sessions.create({ kind: 'viewer', id: 'op_alice' }, T0 + 3);
    expect(await sessions.revoke(phone.token, T0 + 10)).toBe(true);
    expect(await sessions.revoke(phone.token, T0 + 11)).toBe(false);
    expect(await sessions.lookup(phone.token, T0 + 12)).toBeNull();
    expect(await sessions.lookup(laptop.token, T0 + 12)).not.toBeNull();
    const again = await sessions.create(alice, T0 + 13);
    expect((await sessions.liveSessions(alice, T0 + 14)).length).toBe(2);
    expect(await sessions.revokeAll(alice, T0 + 20)).toBe(2);
    expect(await sessions.lookup(laptop.token, T0 + 21)).toBeNull();
    expect(await sessions.lookup(again.token, T0 + 21)).toBeNull();
    // Another subject, and the same id of another kind, keep theirs.
    expect((await sessions.lookup(other.token, T0 + 21))?.subject).toEqual(bob);
    expect((await sessions.lookup(viewer.token, T0 + 21))?.subject).toEqual({ kind: 'viewer', id: 'op_alice' });
    expect(await sessions.purge(T0 + 100)).toBe(3);
  });
});

describe('delayAfter', () => {
  it('is free, then doubles up to the cap', () => {
    const rule = { free: 3, baseMs: 1000, capMs: 8000 };
    expect([1, 2, 3, 4, 5, 6, 7, 8, 50].map((n) => delayAfter(n, rule))).toEqual([0, 0, 0, 1000, 2000, 4000, 8000, 8000, 8000]);
  });
});

describe.each(DIALECTS)('SignInThrottle on %s', (dialect) => {
  it('slows ten wrong passwords from one address down to minutes, while the right user elsewhere waits seconds at most', async () => {
    const throttle = new SignInThrottle(await open(dialect));
    let now = T0;
    const delays: number[] = [];
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const verdict = await throttle.check('Alice@Example.com', '203.0.113.9', now);
      if (!verdict.allowed) now += verdict.retryAfterMs;
      expect(await throttle.check('alice@example.com', '203.0.113.9', now)).toEqual({ allowed: true });
      delays.push(await throttle.recordFailure('alice@example.com', '203.0.113.9', now));
    }
    expect(delays.slice(0, 3)).toEqual([0, 0, 0]);
    expect(delays[9]).toBe(64_000);
    const guesser = await throttle.check('alice@example.com', '203.0.113.9', now + 500);
    // 63.5 s left: a Retry-After of 64 whole seconds, never 63 (a client retrying then is refused again).
    expect(guesser).toEqual({ allowed: false, retryAfterMs: 63_500, retryAfterSeconds: 64 });
    // From another address: the account's delay only, capped at seconds.
    const elsewhere = await throttle.check('alice@example.com', '198.51.100.7', now);
    expect(elsewhere.allowed ? 0 : elsewhere.retryAfterMs).toBeLessThanOrEqual(DEFAULT_THROTTLE_POLICY.account.capMs);
    const later = now + DEFAULT_THROTTLE_POLICY.account.capMs;
    expect(await throttle.check('alice@example.com', '198.51.100.7', later)).toEqual({ allowed: true });
    await throttle.recordSuccess('alice@example.com', '198.51.100.7');
    // The guesser's address is still blocked; the account is clear for everyone else.
    expect((await throttle.check('alice@example.com', '203.0.113.9', later)).allowed).toBe(false);
    expect(await throttle.check('alice@example.com', '192.0.2.1', later)).toEqual({ allowed: true });
  });

  it('forgets failures after a quiet day, and counts concurrent failures once each', async () => {
    const throttle = new SignInThrottle(await open(dialect));
    for (let i = 0; i < 4; i += 1) await throttle.recordFailure('bob@example.com', '203.0.113.1', T0);
    expect((await throttle.check('bob@example.com', '203.0.113.1', T0)).allowed).toBe(false);
    const nextDay = T0 + DEFAULT_THROTTLE_POLICY.forgetAfterMs + 1;
    expect(await throttle.recordFailure('bob@example.com', '203.0.113.1', nextDay)).toBe(0);
    await Promise.all(Array.from({ length: 6 }, () => throttle.recordFailure('carol@example.com', '203.0.113.2', T0)));
    const db = opened.at(-1)!;
    expect(await db.get("SELECT failures FROM sign_in_throttle WHERE key = 'account:carol@example.com'")).toEqual({ failures: 6 });
  });
});

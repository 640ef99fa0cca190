import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, SUBSCRIBER_MIGRATIONS } from '../../src/subscribers/migrations.ts';
import { latestVersion } from '../../src/store/migrations.ts';
import { CONFIRM_INTERVAL_MS, CONFIRM_TTL_MS, SubscriberStore } from '../../src/subscribers/store.ts';
import { hashToken, manageToken, readManageToken } from '../../src/subscribers/tokens.ts';
import type { DialectName } from '../../src/store/database.ts';
import type { StoreLocation } from '../../src/store/location.ts';
import { DIALECTS, useDialects } from '../support/postgres.ts';

const alice = { address: 'alice@example.com', key: 'alice@example.com' };
const bob = { address: 'bob@example.com', key: 'bob@example.com' };
const T0 = Date.UTC(2026, 10, 25, 10);

const dirs: string[] = [];
function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pl-subscribers-'));
  dirs.push(dir);
  return join(dir, 'nested', 'subscribers.db');
}
const dialects = useDialects();
const opened: SubscriberStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A store that the test's end closes (a second close does nothing). */
async function open(where: string | StoreLocation): Promise<SubscriberStore> {
  const store = await SubscriberStore.open(where);
  opened.push(store);
  return store;
}
/** A place a store can be closed and opened again: a file, or a PostgreSQL schema. */
const reopenable = (dialect: DialectName): StoreLocation => (dialect === 'sqlite' ? { dialect: 'sqlite', path: tempDb() } : dialects.location('postgres'));

async function confirmed(store: SubscriberStore, email = alice, components: string[] = [], page = 'page_1') {
  const request = (await store.subscribe(page, email, components, T0))!;
  return (await store.confirm(request.token, T0 + 1))!;
}

describe('SubscriberStore in a SQLite file', () => {
  it('creates its file 0600 and migrates once (a reopened file keeps its rows)', async () => {
    const path = tempDb();
    const store = await SubscriberStore.open(path);
    await confirmed(store);
    await store.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const again = await SubscriberStore.open(path);
    expect(await again.list()).toHaveLength(1);
    await again.close();
  });
});

describe.each(DIALECTS)('SubscriberStore on %s', (dialect) => {
  it('keeps only the hash of a confirmation token, which works once and only for 48 hours', async () => {
    const store = await open(dialects.location(dialect));
    const request = (await store.subscribe('page_1', alice, [], T0))!;
    expect(JSON.stringify(await store.list())).not.toContain(request.token);
    expect(await store.confirmable(request.token, T0 + CONFIRM_TTL_MS)).toBeNull();
    expect(await store.confirm('x'.repeat(43), T0)).toBeNull();
    expect((await store.confirm(request.token, T0 + 1000))?.state).toBe('confirmed');
    expect(await store.confirm(request.token, T0 + 2000)).toBeNull();
    expect(hashToken(request.token)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('sends at most one confirmation an hour to an address, and none once it is confirmed', async () => {
    const store = await open(dialects.location(dialect));
    expect(await store.subscribe('page_1', alice, [], T0)).not.toBeNull();
    for (let i = 1; i < 100; i += 1) expect(await store.subscribe('page_1', { address: 'ALICE@example.com', key: 'alice@example.com' }, [], T0 + i * 1000)).toBeNull();
    const renewed = (await store.subscribe('page_1', alice, [], T0 + CONFIRM_INTERVAL_MS))!;
    expect(renewed).not.toBeNull();
    await store.confirm(renewed.token, T0 + CONFIRM_INTERVAL_MS + 1);
    expect(await store.subscribe('page_1', alice, [], T0 + 10 * CONFIRM_INTERVAL_MS)).toBeNull();
    // Another page is another subscription.
    expect(await store.subscribe('page_2', alice, [], T0)).not.toBeNull();
  });

  it('lets a visitor ask again at once when the confirmation could not be sent', async () => {
    const store = await open(dialects.location(dialect));
    const first = (await store.subscribe('page_1', alice, [], T0))!;
    await store.confirmationNotSent(first.id);
    expect(await store.subscribe('page_1', alice, [], T0 + 1000)).not.toBeNull();
  });

  it('deletes unconfirmed requests once their link has expired', async () => {
    const store = await open(dialects.location(dialect));
    await store.subscribe('page_1', alice, [], T0);
    await confirmed(store, bob);
    expect(await store.expirePending(T0 + CONFIRM_TTL_MS - 1)).toBe(0);
    expect(await store.expirePending(T0 + CONFIRM_TTL_MS)).toBe(1);
    expect((await store.list()).map((s) => s.email)).toEqual(['bob@example.com']);
  });

  it('records an event once and queues it once per confirmed subscriber whose components it touches', async () => {
    const store = await open(dialects.location(dialect));
    await confirmed(store, alice, []);
    await confirmed(store, bob, ['mon_db']);
    await store.subscribe('page_1', { address: 'carol@example.com', key: 'carol@example.com' }, [], T0);
    expect(await store.recordEvent('page_1', 'incident:1:created', '{}', new Set(['mon_api']), T0)).toBe(1);
    expect(await store.recordEvent('page_1', 'incident:1:created', '{}', new Set(['mon_api']), T0)).toBe(0);
    expect(await store.recordEvent('page_1', 'incident:2:created', '{}', new Set(['mon_db']), T0)).toBe(2);
    expect(await store.recordEvent('page_2', 'incident:2:created', '{}', new Set(['mon_db']), T0)).toBe(0);
    expect((await store.stats()).outbox.pending).toBe(3);
  });

  it('claims each mail once; retries wait; a crash leaves a mail handed over unsent after its lease, never twice', async () => {
    const place = reopenable(dialect);
    const store = await open(place);
    await confirmed(store, alice);
    await confirmed(store, bob);
    await store.recordEvent('page_1', 'e1', '{}', new Set(['m']), T0);
    const [first, second] = await store.claimDue(T0, 10);
    expect(await store.claimDue(T0, 10)).toEqual([]);
    expect(await store.markStarted(first!, T0)).toBe(true);
    expect(await store.markSent(first!, T0)).toBe(true);
    await store.markRetry(second!, T0 + 60_000, T0);
    expect(await store.claimDue(T0 + 59_999, 10)).toEqual([]);
    expect(await store.nextDue()).toBe(T0 + 60_000);
    const again = await store.claimDue(T0 + 60_000, 10);
    expect(again).toHaveLength(1);
    expect(again[0]!.attempts).toBe(2);
    await store.markStarted(again[0]!, T0 + 60_000);
    await store.close();
    // The process dies while `again` is with SMTP; its lease (60 s from the start) is over at T0 + 120 s.
    const restarted = await open(place);
    expect(await restarted.reclaimExpired(T0 + 119_999)).toEqual({ requeued: 0, inDoubt: 0 });
    expect(await restarted.reclaimExpired(T0 + 120_001)).toEqual({ requeued: 0, inDoubt: 1 });
    expect(await restarted.claimDue(T0 + 3_600_000, 10)).toEqual([]);
    expect((await restarted.stats()).outbox).toMatchObject({ sent: 1, unknown: 1, pending: 0, sending: 0 });
    await restarted.close();
  });

  it('marks an address bouncing after three permanent failures in a row, and sends it nothing more', async () => {
    const store = await open(dialects.location(dialect));
    const subscriber = await confirmed(store, alice);
    for (let i = 0; i < 3; i += 1) {
      await store.recordEvent('page_1', `e${i}`, '{}', new Set(['m']), T0);
      const [due] = await store.claimDue(T0, 1);
      await store.markFailed(due!, T0);
    }
    expect((await store.get(subscriber.id))?.state).toBe('bouncing');
    expect(await store.recordEvent('page_1', 'e4', '{}', new Set(['m']), T0)).toBe(0);
  });

  it('deletes the subscribers of a page only after it has been missing for the whole grace period', async () => {
    const store = await open(dialects.location(dialect));
    await confirmed(store, alice, [], 'gone');
    await confirmed(store, bob, [], 'kept');
    const grace = 3_600_000;
    expect(await store.notePages(new Set(['kept']), T0, grace)).toBe(0);
    // Back in the data: the clock starts again.
    expect(await store.notePages(new Set(['kept', 'gone']), T0 + grace / 2, grace)).toBe(0);
    expect(await store.notePages(new Set(['kept']), T0 + grace, grace)).toBe(0);
    expect(await store.notePages(new Set(['kept']), T0 + 2 * grace - 1, grace)).toBe(0);
    expect(await store.notePages(new Set(['kept']), T0 + 2 * grace, grace)).toBe(1);
    expect((await store.list()).map((s) => s.pageId)).toEqual(['kept']);
  });

  it('unsubscribing deletes the address and its waiting mails; manage tokens cannot be forged', async () => {
    const store = await open(dialects.location(dialect));
    const subscriber = await confirmed(store, alice);
    await store.recordEvent('page_1', 'e1', '{}', new Set(['m']), T0);
    const token = manageToken(store.secret(), subscriber.id);
    expect(readManageToken(store.secret(), token)).toBe(subscriber.id);
    expect(readManageToken(store.secret(), `${subscriber.id}.${'A'.repeat(43)}`)).toBeNull();
    expect(readManageToken('another key', token)).toBeNull();
    expect(readManageToken(store.secret(), 'nonsense')).toBeNull();
    expect(await store.remove(subscriber.id)).toBe(true);
    expect((await store.stats()).outbox.pending).toBe(0);
    expect(await store.find('ALICE@example.com')).toEqual([]);
  });

  it('a pending request takes the newest language; a confirmed subscriber keeps theirs', async () => {
    const store = await open(dialects.location(dialect));
    const first = (await store.subscribe('page_1', alice, [], T0, 'de'))!;
    await store.subscribe('page_1', alice, [], T0 + CONFIRM_INTERVAL_MS, 'fr');
    expect((await store.get(first.id))?.locale).toBe('fr');
    const done = await confirmed(store, bob);
    await store.subscribe('page_1', bob, [], T0 + CONFIRM_INTERVAL_MS, 'ar');
    expect((await store.get(done.id))?.locale).toBeNull();
    await store.close();
  });
});

describe.each(DIALECTS)('SubscriberStore counts for the console on %s', (dialect) => {
  it('counts per page, channel and state in the database, lists a page\'s channel and the endpoints', async () => {
    const store = await open(dialects.location(dialect));
    await confirmed(store, alice);
    await store.subscribe('page_1', bob, [], T0);
    await confirmed(store, alice, [], 'page_2');
    const hook = (await store.subscribeEndpoint('page_1', { channel: 'webhook', url: 'https://ops.example/in/TOKEN', host: 'ops.example', signingSecret: null, contactEmail: null }, [], T0 + 5, null))!;
    await store.confirmEndpoint(hook, T0 + 6);
    await store.subscribeEndpoint('page_2', { channel: 'slack', url: 'https://hooks.slack.com/services/T/B/x', host: 'hooks.slack.com', signingSecret: null, contactEmail: null }, [], T0 + 7, null);
    const counts = await store.countsByPage();
    expect([...counts.keys()].sort()).toEqual(['page_1', 'page_2']);
    expect(counts.get('page_1')?.email).toEqual({ pending: 1, confirmed: 1, bouncing: 0 });
    expect(counts.get('page_1')?.webhook).toEqual({ pending: 0, confirmed: 1, bouncing: 0 });
    expect(counts.get('page_2')?.email).toEqual({ pending: 0, confirmed: 1, bouncing: 0 });
    expect(counts.get('page_2')?.slack).toEqual({ pending: 1, confirmed: 0, bouncing: 0 });
    expect((await store.ofPage('page_1', 'email')).map((s) => s.email).sort()).toEqual([alice.address, bob.address]);
    expect(await store.ofPage('page_3', 'email')).toEqual([]);
    expect((await store.endpoints(10)).map((s) => [s.pageId, s.channel])).toEqual([['page_1', 'webhook'], ['page_2', 'slack']]);
    expect((await store.endpoints(1)).map((s) => s.channel)).toEqual(['webhook']);
    // A page at a time: the next one starts where the last ended.
    expect((await store.endpoints(1, 1)).map((s) => s.channel)).toEqual(['slack']);
    expect(await store.endpoints(1, 2)).toEqual([]);
    expect(await store.remove(hook)).toBe(true);
    expect((await store.countsByPage()).get('page_1')?.webhook.confirmed).toBe(0);
  });
});

describe.each(DIALECTS)('SubscriberStore with callers at once on %s', (dialect) => {
  it('one subscription and one mailed token for the same address asked ten times at once; a token confirms once', async () => {
    const store = await open(dialects.location(dialect));
    const answers = await Promise.all(Array.from({ length: 10 }, () => store.subscribe('page_1', alice, [], T0)));
    const mailed = answers.filter((answer) => answer !== null);
    expect(mailed).toHaveLength(1);
    expect(await store.list()).toHaveLength(1);
    const confirmations = await Promise.all(Array.from({ length: 5 }, () => store.confirm(mailed[0]!.token, T0 + 1)));
    expect(confirmations.filter((subscriber) => subscriber !== null)).toHaveLength(1);
    await store.close();
  });

  it('purges outbox rows done with for longer than the retention, in bounded batches, once each with two purging at once', async () => {
    const store = await open(dialects.location(dialect));
    const RETENTION = 7 * 24 * 3_600_000;
    for (const name of ['a', 'b', 'c', 'd', 'e']) await confirmed(store, { address: `${name}@example.com`, key: `${name}@example.com` });
    await store.recordEvent('page_1', 'e1', '{}', new Set(['m']), T0);
    const [sentOne, sentTwo, failed, retried, sending] = await store.claimDue(T0, 10);
    for (const mail of [sentOne!, sentTwo!]) {
      await store.markStarted(mail, T0);
      await store.markSent(mail, T0);
    }
    await store.markFailed(failed!, T0, false);
    await store.markRetry(retried!, T0 + 2 * RETENTION, T0);
    expect(sending).toBeDefined();
    // A week later, a newer event sent to one subscriber: kept.
    await store.recordEvent('page_1', 'e2', '{}', new Set(['m']), T0 + RETENTION);
    const [fresh] = await store.claimDue(T0 + RETENTION, 1);
    await store.markStarted(fresh!, T0 + RETENTION);
    await store.markSent(fresh!, T0 + RETENTION);
    const now = T0 + RETENTION + 1;
    // Two replicas' housekeeping at once, two rows each at most, then again until nothing is
    // left: the three old rows, each deleted once.
    const [first, second] = await Promise.all([store.purgeDone(now, RETENTION, 2), store.purgeDone(now, RETENTION, 2)]);
    expect(Math.max(first!, second!)).toBeLessThanOrEqual(2);
    let purged = first! + second!;
    for (let round = 0; round < 3; round += 1) purged += await store.purgeDone(now, RETENTION, 2);
    expect(purged).toBe(3);
    // Waiting and claimed rows stay, however old; so does the week-old sent one.
    expect((await store.stats()).outbox).toMatchObject({ sent: 1, failed: 0, unknown: 0, pending: 5, sending: 1 });
    await store.close();
  });

  it('claims each due mail once when two senders claim at once', async () => {
    const store = await open(dialects.location(dialect));
    for (const address of ['a', 'b', 'c', 'd', 'e']) await confirmed(store, { address: `${address}@example.com`, key: `${address}@example.com` });
    await store.recordEvent('page_1', 'e1', '{}', new Set(['m']), T0);
    const [first, second] = await Promise.all([store.claimDue(T0, 3), store.claimDue(T0, 3)]);
    const claimed = [...first!, ...second!].map((mail) => mail.subscriberId);
    expect(claimed).toHaveLength(5);
    expect(new Set(claimed).size).toBe(5);
    await store.close();
  });
});

describe.each(DIALECTS)('SubscriberStore outbox leases: two processes on one %s database', (dialect) => {
  const LEASE = 1_000;
  /** Two stores on one database, as two processes have them: each its own owner id. */
  async function pair(): Promise<[SubscriberStore, SubscriberStore]> {
    const place = reopenable(dialect);
    const a = await open(place);
    await a.close();
    const [first, second] = [await SubscriberStore.open(place, { leaseMs: LEASE }), await SubscriberStore.open(place, { leaseMs: LEASE })];
    opened.push(first, second);
    expect(first.owner).not.toBe(second.owner);
    return [first, second];
  }
  async function fanOut(store: SubscriberStore, count: number): Promise<void> {
    for (let i = 0; i < count; i += 1) await confirmed(store, { address: `s${i}@example.com`, key: `s${i}@example.com` });
    await store.recordEvent('page_1', 'e1', '{}', new Set(['m']), T0);
  }
  const outbox = async (store: SubscriberStore) => (await store.stats()).outbox;

  it('never settles or claims another process\'s live claim, renewed while its send runs', async () => {
    const [a, b] = await pair();
    await fanOut(a, 2);
    const claimed = await a.claimDue(T0, 10);
    expect(claimed).toHaveLength(2);
    await a.markStarted(claimed[0]!, T0);
    // b starts (and sweeps) while a sends: nothing of a's is touched.
    expect(await b.reclaimExpired(T0 + LEASE - 1)).toEqual({ requeued: 0, inDoubt: 0 });
    expect(await b.claimDue(T0 + LEASE - 1, 10)).toEqual([]);
    // a's send outlasts a lease: renewed, it stays a's.
    expect(await a.renewLeases(T0 + 900, claimed)).toBe(2);
    expect(await b.reclaimExpired(T0 + 1_800)).toEqual({ requeued: 0, inDoubt: 0 });
    expect(await b.markSent(claimed[0]!, T0 + 1_800)).toBe(false);
    expect(await a.markSent(claimed[0]!, T0 + 1_800)).toBe(true);
    expect(await outbox(b)).toMatchObject({ sent: 1, sending: 1, unknown: 0 });
  });

  it('an expired claim never handed over is sent once by the other; one handed over becomes unknown and is never sent again', async () => {
    const [a, b] = await pair();
    await fanOut(a, 3);
    const claimed = await a.claimDue(T0, 10);
    expect(claimed).toHaveLength(3);
    // a hands the first to SMTP and dies; the other two were claimed in its batch and never left.
    expect(await a.markStarted(claimed[0]!, T0)).toBe(true);
    expect(await b.reclaimExpired(T0 + LEASE + 1)).toEqual({ requeued: 2, inDoubt: 1 });
    expect(await b.reclaimExpired(T0 + LEASE + 2)).toEqual({ requeued: 0, inDoubt: 0 });
    const resent = await b.claimDue(T0 + LEASE + 2, 10);
    expect(resent.map((mail) => mail.subscriberId).sort()).toEqual([claimed[1]!.subscriberId, claimed[2]!.subscriberId].sort());
    // The attempt that never happened is not counted.
    expect(resent.map((mail) => mail.attempts)).toEqual([1, 1]);
    for (const mail of resent) {
      expect(await b.markStarted(mail, T0 + LEASE + 3)).toBe(true);
      expect(await b.markSent(mail, T0 + LEASE + 3)).toBe(true);
    }
    expect(await b.claimDue(T0 + 3_600_000, 10)).toEqual([]);
    expect(await a.claimDue(T0 + 3_600_000, 10)).toEqual([]);
    expect(await outbox(a)).toMatchObject({ sent: 2, unknown: 1, pending: 0, sending: 0 });
  });

  it('renews only the claims listed (a failed round\'s are left to run out) and takes back one never handed over', async () => {
    const [a, b] = await pair();
    await fanOut(a, 3);
    const [working, dropped, given] = await a.claimDue(T0, 10);
    await a.markStarted(working!, T0);
    // The round that claimed `dropped` failed: the lease keeper no longer lists it (issue 29:
    // renewing every claim of the store kept it claimed, never sent, for the process's life).
    expect(await a.renewLeases(T0 + LEASE - 1, [working!])).toBe(1);
    expect(await b.reclaimExpired(T0 + LEASE + 1)).toEqual({ requeued: 2, inDoubt: 0 });
    // Given back at once instead: pending again, the attempt not counted; a handed-over one is not.
    const [again] = await b.claimDue(T0 + LEASE + 2, 1);
    expect(await b.release(again!, T0 + LEASE + 3)).toBe(true);
    expect(await b.release(again!, T0 + LEASE + 3)).toBe(false);
    expect(await a.release(working!, T0 + LEASE + 3)).toBe(false);
    const resent = await b.claimDue(T0 + LEASE + 4, 10);
    expect(resent.map((mail) => mail.subscriberId).sort()).toEqual([dropped!.subscriberId, given!.subscriberId].sort());
    expect(resent.map((mail) => mail.attempts)).toEqual([1, 1]);
    expect(await outbox(b)).toMatchObject({ sending: 3, pending: 0 });
  });

  it('refuses a late result from a process whose lease was taken over (fencing)', async () => {
    const [a, b] = await pair();
    await fanOut(a, 2);
    const [started, idle] = await a.claimDue(T0, 10);
    await a.markStarted(started!, T0);
    // a stalls past its lease; b settles both and sends the idle one itself.
    await b.reclaimExpired(T0 + LEASE + 1);
    const [taken] = await b.claimDue(T0 + LEASE + 1, 10);
    expect(taken!.subscriberId).toBe(idle!.subscriberId);
    // a wakes up: it may not start the one it lost, and none of its results is recorded.
    expect(await a.markStarted(idle!, T0 + LEASE + 2)).toBe(false);
    expect(await a.renewLeases(T0 + LEASE + 2, [started!, idle!])).toBe(0);
    expect(await a.markSent(started!, T0 + LEASE + 2)).toBe(false);
    expect(await a.markFailed(idle!, T0 + LEASE + 2)).toBe(false);
    expect(await a.markRetry(idle!, T0 + 60_000, T0 + LEASE + 2)).toBe(false);
    expect(await outbox(b)).toMatchObject({ unknown: 1, sending: 1, failed: 0, pending: 0 });
    expect(await b.markStarted(taken!, T0 + LEASE + 3)).toBe(true);
    expect(await b.markSent(taken!, T0 + LEASE + 3)).toBe(true);
    expect(await outbox(a)).toMatchObject({ unknown: 1, sent: 1, sending: 0 });
    // A failed result of a's does not count towards the address bouncing either.
    expect((await b.get(idle!.subscriberId))?.state).toBe('confirmed');
  });

  it('webhook deliveries are leased the same way', async () => {
    const [a, b] = await pair();
    const id = (await a.subscribeEndpoint('page_1', { channel: 'webhook', url: 'https://a.example/in', host: 'a.example', signingSecret: null, contactEmail: null }, [], T0, null))!;
    await a.confirmEndpoint(id, T0);
    await a.recordEvent('page_1', 'e1', '{}', new Set(['m']), T0);
    await a.recordEvent('page_1', 'e2', '{}', new Set(['m']), T0);
    const [first] = await a.claimDueDeliveries(T0, 10, 2, new Map());
    expect(await b.claimDueDeliveries(T0 + LEASE - 1, 10, 2, new Map())).toEqual([]);
    await b.reclaimExpired(T0 + LEASE - 1);
    expect(await b.claimDueDeliveries(T0 + LEASE - 1, 10, 2, new Map())).toEqual([]);
    // Never handed over: b delivers it after the lease, still in order (event 1, then 2).
    await b.reclaimExpired(T0 + LEASE + 1);
    const [taken] = await b.claimDueDeliveries(T0 + LEASE + 1, 10, 2, new Map());
    expect(taken!.eventId).toBe(first!.eventId);
    expect(await a.markSent(first!, T0 + LEASE + 2)).toBe(false);
    await b.markStarted(taken!, T0 + LEASE + 2);
    await b.markSent(taken!, T0 + LEASE + 2);
    expect((await b.claimDueDeliveries(T0 + LEASE + 2, 10, 2, new Map())).map((due) => due.eventId)).toEqual([2]);
  });
});

describe('SubscriberStore languages (migration 2)', () => {
  it('migrates a version-1 file: its rows keep everything and read the page default (NULL), its waiting mails still go out', async () => {
    const path = tempDb();
    mkdirSync(dirname(path), { recursive: true });
    // The store as the previous release left it: schema version 1, a subscriber, an event queued for them.
    const old = new DatabaseSync(path);
    old.exec(MIGRATIONS.find((migration) => migration.version === 1)!.scripts.sqlite!);
    old.exec('PRAGMA user_version = 1');
    old.prepare(`INSERT INTO subscribers (id, page_id, email, email_key, components, state, created_at, confirmed_at) VALUES ('s1', 'page_1', 'alice@example.com', 'alice@example.com', '[]', 'confirmed', ?, ?)`).run(T0, T0);
    old.prepare(`INSERT INTO events (id, page_id, key, mail, created_at) VALUES (1, 'page_1', 'incident:i1:created', '{"subject":"Old mail"}', ?)`).run(T0);
    old.prepare(`INSERT INTO outbox (subscriber_id, event_id, state, attempts, next_attempt, created_at, updated_at) VALUES ('s1', 1, 'pending', 0, ?, ?, ?)`).run(T0, T0, T0);
    // A mail the old Porchlight was handing to SMTP when it stopped (it claimed right before sending).
    old.prepare(`INSERT INTO events (id, page_id, key, mail, created_at) VALUES (2, 'page_1', 'incident:i2:created', '{"subject":"Old mail"}', ?)`).run(T0);
    old.prepare(`INSERT INTO outbox (subscriber_id, event_id, state, attempts, next_attempt, created_at, updated_at) VALUES ('s1', 2, 'sending', 1, ?, ?, ?)`).run(T0, T0, T0);
    old.close();

    const store = await SubscriberStore.open(path);
    const version = new DatabaseSync(path, { readOnly: true });
    // Migrated to the newest version (3 moved times to ISO text, 4 added webhook and chat subscribers), recorded where an older Porchlight looks too.
    expect(version.prepare('PRAGMA user_version').get()).toEqual({ user_version: latestVersion(SUBSCRIBER_MIGRATIONS) });
    expect(version.prepare('SELECT version FROM schema_migrations ORDER BY version').all().map((row) => row.version)).toEqual(MIGRATIONS.map((migration) => migration.version));
    version.close();
    // Rows from before webhooks are e-mail subscribers.
    expect(await store.get('s1')).toMatchObject({ email: 'alice@example.com', state: 'confirmed', locale: null, channel: 'email', endpointUrl: null, signingSecret: null });
    expect(await store.subscriberLocales('page_1')).toEqual([null]);
    expect(await store.claimDue(T0 + 1, 10)).toEqual([{ subscriberId: 's1', eventId: 1, email: 'alice@example.com', locale: null, mail: '{"subject":"Old mail"}', attempts: 1 }]);
    // The mail in flight when the old version stopped (migration 5: started, its lease long over) is in doubt, as before leases.
    expect(await store.reclaimExpired(T0 + 2)).toEqual({ requeued: 0, inDoubt: 1 });
    // New subscribers keep the language they asked in.
    const request = (await store.subscribe('page_1', bob, [], T0, 'de'))!;
    await store.confirm(request.token, T0 + 1);
    expect((await store.get(request.id))?.locale).toBe('de');
    expect(await store.subscriberLocales('page_1')).toEqual([null, 'de']);
    await store.close();
  });
});

describe.runIf(DIALECTS.includes('postgres'))('SubscriberStore: two instances (two pools) on one PostgreSQL database', () => {
  async function pair(): Promise<[SubscriberStore, SubscriberStore]> {
    const place = dialects.location('postgres');
    // Both open (and migrate) at once, as two replicas starting together would.
    const [a, b] = await Promise.all([open(place), open(place)]);
    return [a!, b!];
  }

  it('shares one link-signing key: a manage link signed by one is read by the other', async () => {
    const [a, b] = await pair();
    expect(a.secret()).toBe(b.secret());
    const subscriber = await confirmed(a);
    expect(readManageToken(b.secret(), manageToken(a.secret(), subscriber.id))).toBe(subscriber.id);
    expect(await b.get(subscriber.id)).toMatchObject({ email: 'alice@example.com', state: 'confirmed' });
  });

  it('ten subscribes at once across both give one subscription and one mailed token, which confirms once', async () => {
    const [a, b] = await pair();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).subscribe('page_1', alice, [], T0)));
    const mailed = answers.filter((answer) => answer !== null);
    expect(mailed).toHaveLength(1);
    expect(await b.list()).toHaveLength(1);
    const confirmations = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).confirm(mailed[0]!.token, T0 + 1)));
    expect(confirmations.filter((subscriber) => subscriber !== null)).toHaveLength(1);
  });

  it('claims each mail by one claimer when both claim at once, and records an event once', async () => {
    const [a, b] = await pair();
    const addresses = Array.from({ length: 40 }, (_, i) => ({ address: `s${i}@example.com`, key: `s${i}@example.com` }));
    for (const address of addresses) await confirmed(a, address);
    const recorded = await Promise.all([a.recordEvent('page_1', 'e1', '{}', new Set(['m']), T0), b.recordEvent('page_1', 'e1', '{}', new Set(['m']), T0)]);
    expect(recorded.sort((x, y) => x - y)).toEqual([0, 40]);
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).claimDue(T0, 7)));
    const claimed = claims.flat().map((mail) => mail.subscriberId);
    expect(new Set(claimed).size).toBe(claimed.length);
    // Whatever the first round left is claimed by the next, and nothing twice.
    const rest = [...(await a.claimDue(T0, 100)), ...(await b.claimDue(T0, 100))].map((mail) => mail.subscriberId);
    expect([...claimed, ...rest].sort()).toEqual((await a.list()).map((s) => s.id).sort());
    expect((await b.stats()).outbox).toMatchObject({ sending: 40, pending: 0 });
  });
});

describe('SubscriberStore webhook and chat subscribers (migration 4)', () => {
  const hook = (url: string) => ({ channel: 'webhook' as const, url, host: new URL(url).hostname, signingSecret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0', contactEmail: null });

  it('one subscription per page and URL; deliveries per subscriber go one at a time, oldest event first; mails and deliveries are claimed apart', async () => {
    const store = await SubscriberStore.open(':memory:');
    const id = (await store.subscribeEndpoint('page_1', hook('https://a.example/in'), [], T0, null))!;
    expect(await store.subscribeEndpoint('page_1', hook('https://a.example/in'), [], T0, null)).toBeNull();
    await store.confirmEndpoint(id, T0);
    // One left pending (Porchlight stopped while its ping was out) goes with the other expired requests.
    await store.subscribeEndpoint('page_1', hook('https://stale.example/in'), [], T0, null);
    expect(await store.expirePending(T0 + 10 * 60_000)).toBe(1);
    const mail = (await store.subscribe('page_1', alice, [], T0))!;
    await store.confirm(mail.token, T0);
    await store.recordEvent('page_1', 'e1', '{}', new Set(['m1']), T0);
    await store.recordEvent('page_1', 'e2', '{}', new Set(['m1']), T0);
    // A component change: webhooks only.
    expect(await store.recordEvent('page_1', 'c1', '{}', new Set(['m1']), T0, ['webhook'])).toBe(1);
    expect((await store.claimDue(T0 + 1, 10)).map((due) => due.eventId)).toEqual([1, 2]);
    const first = await store.claimDueDeliveries(T0 + 1, 10, 2, new Map());
    expect(first.map((due) => [due.eventId, due.host, due.attempts])).toEqual([[1, 'a.example', 1]]);
    // While event 1 is out (or waiting to be retried), event 2 is not claimed.
    expect(await store.claimDueDeliveries(T0 + 1, 10, 2, new Map())).toEqual([]);
    await store.markRetry(first[0]!, T0 + 1_000, T0 + 1);
    expect(await store.claimDueDeliveries(T0 + 2, 10, 2, new Map())).toEqual([]);
    expect(await store.nextDue(true)).toBe(T0 + 1_000);
    expect((await store.claimDueDeliveries(T0 + 1_000, 10, 2, new Map())).map((due) => [due.eventId, due.attempts])).toEqual([[1, 2]]);
    await store.markSent({ subscriberId: id, eventId: 1 }, T0 + 1_001);
    expect((await store.claimDueDeliveries(T0 + 1_001, 10, 2, new Map())).map((due) => due.eventId)).toEqual([2]);
    await store.close();
  });

  it('bounds deliveries per host, counting those already out; a paused subscriber gets nothing more', async () => {
    const store = await SubscriberStore.open(':memory:');
    const ids: string[] = [];
    for (const path of ['a', 'b', 'c']) {
      const id = (await store.subscribeEndpoint('page_1', hook(`https://same.example/${path}`), [], T0, null))!;
      await store.confirmEndpoint(id, T0);
      ids.push(id);
    }
    await store.recordEvent('page_1', 'e1', '{}', new Set(['m1']), T0);
    expect(await store.claimDueDeliveries(T0 + 1, 10, 2, new Map([['same.example', 1]]))).toHaveLength(1);
    expect(await store.claimDueDeliveries(T0 + 1, 10, 2, new Map([['same.example', 2]]))).toHaveLength(0);
    await store.pauseEndpoint(ids[2]!, T0 + 2);
    expect(await store.claimDueDeliveries(T0 + 3, 10, 5, new Map())).toHaveLength(1);
    expect((await store.get(ids[2]!))?.state).toBe('bouncing');
    await store.recordEvent('page_1', 'e2', '{}', new Set(['m1']), T0 + 4);
    expect((await store.stats()).outbox.pending).toBe(2);
    await store.close();
  });
});

/**
 * The fan-out's three jobs on a real PostgreSQL: a notification reaches the other replica's
 * listener with its event and version (never the sender's own), a killed LISTEN connection
 * (pg_terminate_backend) comes back and resyncs, the version poll catches a bump nobody
 * notified, and the push token is one for every replica. In-process pieces; the whole, across
 * real site processes, is test/e2e/replicas-fanout.spec.ts.
 */
import postgres from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { FANOUT_CHANNEL } from '../../../src/server/fanout/fanout-message.ts';
import { listenForReplicas } from '../../../src/server/fanout/fanout-listener.ts';
import { notifyReplicas } from '../../../src/server/fanout/fanout-notifier.ts';
import { migrateSiteStore, readSiteVersion, sharedSecret } from '../../../src/server/fanout/site-store.ts';
import { pollSiteVersion } from '../../../src/server/fanout/version-poll.ts';
import { listenPostgres } from '../../../src/store/postgres-listen.ts';
import { startFanout } from '../../../src/server/fanout/fanout.ts';
import { PUSH_TOKEN_PATTERN } from '../../../src/server/push/push-token.ts';
import { encodeFanoutMessage, parseFanoutMessage } from '../../../src/server/fanout/fanout-message.ts';
import { onPush, signalPush, type PushMessage } from '../../../src/site/data/push-signal.ts';
import { PostgresDatabase } from '../../../src/store/postgres.ts';
import { DIALECTS, useDialects } from '../../support/postgres.ts';

const dialects = useDialects();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function siteStore(): Promise<PostgresDatabase> {
  const db = await PostgresDatabase.open(dialects.postgresUrl(), { schema: 'site', maxConnections: 2 });
  cleanups.push(() => db.close());
  await migrateSiteStore(db);
  return db;
}

/** Resolves once `condition` holds (checked every 20 ms), failing after `ms`. */
async function until(condition: () => boolean, ms = 10_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > ms) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.runIf(DIALECTS.includes('postgres'))('the push fan-out on PostgreSQL', () => {
  it("tells the other replica's listener the event and version, not the sender's own", async () => {
    const db = await siteStore();
    const heard: Record<string, { event: string | null; version: number | null }[]> = { a: [], b: [] };
    const resyncs: Record<string, number> = { a: 0, b: 0 };
    for (const replica of ['a', 'b']) {
      const listener = listenForReplicas(dialects.postgresUrl(), {
        replica,
        onPush: (event, version) => heard[replica]!.push({ event, version }),
        onResync: () => (resyncs[replica]! += 1),
        onState: () => undefined,
      });
      cleanups.push(() => listener.close());
    }
    await until(() => resyncs.a === 1 && resyncs.b === 1);
    const before = await readSiteVersion(db);
    const version = await notifyReplicas(db, 'a', 'onIncidentCreated');
    expect(version).toBe(before + 1);
    await until(() => heard.b!.length === 1);
    expect(heard.b).toEqual([{ event: 'onIncidentCreated', version }]);
    await notifyReplicas(db, 'b', null);
    await until(() => heard.a!.length === 1);
    expect(heard.a).toEqual([{ event: null, version: version + 1 }]);
    // Each heard only the other's.
    expect(heard.b).toHaveLength(1);
    expect(await readSiteVersion(db)).toBe(version + 1);
  });

  it('comes back after its connection is killed, and says so (the resync), then hears again', async () => {
    const db = await siteStore();
    const states: string[] = [];
    let resyncs = 0;
    const heard: (string | null)[] = [];
    const listener = listenForReplicas(dialects.postgresUrl(), {
      replica: 'b',
      onPush: (event) => heard.push(event),
      onResync: () => (resyncs += 1),
      onState: (state) => states.push(state),
    });
    cleanups.push(() => listener.close());
    await until(() => resyncs === 1);
    const admin = postgres(dialects.postgresUrl(), { max: 1, onnotice: () => undefined });
    cleanups.push(() => admin.end({ timeout: 5 }));
    const killed = await admin`SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name = 'porchlight-site-listen'`;
    // At least this one (a backend of an earlier test's closed listener may still be on its way out).
    expect(killed.length).toBeGreaterThanOrEqual(1);
    await until(() => resyncs === 2);
    expect(states).toEqual(['listening', 'connecting', 'listening']);
    expect(listener.state()).toBe('listening');
    await notifyReplicas(db, 'a', 'onMonitorDown');
    await until(() => heard.length === 1);
    expect(heard).toEqual(['onMonitorDown']);
  });

  it('reads a payload it cannot parse as a change of unknown kind', async () => {
    const heard: { event: string | null; version: number | null }[] = [];
    let resyncs = 0;
    const listener = listenForReplicas(dialects.postgresUrl(), { replica: 'b', onPush: (event, version) => heard.push({ event, version }), onResync: () => (resyncs += 1), onState: () => undefined });
    cleanups.push(() => listener.close());
    await until(() => resyncs === 1);
    const admin = postgres(dialects.postgresUrl(), { max: 1, onnotice: () => undefined });
    cleanups.push(() => admin.end({ timeout: 5 }));
    await admin`SELECT pg_notify(${FANOUT_CHANNEL}, ${'{"v":"DROP TABLE"}'})`;
    await until(() => heard.length === 1);
    expect(heard).toEqual([{ event: null, version: null }]);
  });

  it('the version poll resyncs for a version bumped without a notification heard, after its grace', async () => {
    const db = await siteStore();
    let handled = await readSiteVersion(db);
    const missed: number[] = [];
    const poll = pollSiteVersion(db, {
      intervalMs: 50,
      graceMs: 200,
      handled: () => handled,
      onMissed: (seen) => {
        missed.push(seen);
        handled = seen;
      },
      onError: (error) => {
        throw error;
      },
    });
    cleanups.push(() => poll.stop());
    await db.run('UPDATE site_events SET version = version + 3 WHERE id = 1');
    const bumpedAt = Date.now();
    await until(() => missed.length === 1);
    expect(Date.now() - bumpedAt).toBeGreaterThanOrEqual(200);
    expect(missed).toEqual([handled]);
    // Handled: no second resync for the same version.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(missed).toHaveLength(1);
  });

  it('keeps one push token for every replica: the first one stored', async () => {
    const db = await siteStore();
    const other = await PostgresDatabase.open(dialects.postgresUrl(), { schema: 'site', maxConnections: 1 });
    cleanups.push(() => other.close());
    const first = await sharedSecret(db, 'push-token', () => 'token-of-the-first-replica-aaaaaaaaaaaaaa');
    expect(await sharedSecret(other, 'push-token', () => 'token-of-the-second-replica-bbbbbbbbbbbbb')).toBe(first);
  });

  it('a listener closed while it reconnects stays closed', async () => {
    const states: string[] = [];
    const listener = listenPostgres(dialects.postgresUrl().replace(/:\d+\//, ':1/'), { channel: FANOUT_CHANNEL, onNotify: () => undefined, onListening: () => undefined, onState: (state) => states.push(state), firstRetryMs: 20 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(listener.state()).toBe('connecting');
    await listener.close();
    expect(listener.state()).toBe('closed');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(states).toEqual(['closed']);
  });

  it('startFanout: a resync on listening, a push received here notified (once), another replica\'s heard as a push from the fan-out', async () => {
    const heard: PushMessage[] = [];
    cleanups.push(onPush((message) => heard.push(message)));
    const sent: string[] = [];
    const observer = listenPostgres(dialects.postgresUrl(), { channel: FANOUT_CHANNEL, onNotify: (payload) => sent.push(payload), onListening: () => undefined });
    cleanups.push(() => observer.close());
    await until(() => observer.state() === 'listening');
    const fanout = await startFanout({ databaseUrl: dialects.postgresUrl(), versionPollSeconds: 60 });
    cleanups.push(() => fanout.stop());
    // The one every replica of this database uses (an earlier test of this file stored it).
    expect(fanout.sharedPushToken).toMatch(PUSH_TOKEN_PATTERN);
    expect(await sharedSecret(await siteStore(), 'push-token', () => 'not-this-one-cccccccccccccccccccccccccc')).toBe(fanout.sharedPushToken);
    // Listening: a resync, which names nothing and is no push of this process's route.
    await until(() => heard.some((message) => message.type === 'push' && message.source === 'resync'));
    expect(sent).toEqual([]);
    // A push from this process's route: told to the others with its event.
    signalPush('onIncidentCreated');
    await until(() => sent.length === 1);
    expect(parseFanoutMessage(sent[0]!)).toMatchObject({ event: 'onIncidentCreated' });
    // Another replica's: a push here, from the fan-out, not sent on again.
    const admin = postgres(dialects.postgresUrl(), { max: 1, onnotice: () => undefined });
    cleanups.push(() => admin.end({ timeout: 5 }));
    await admin`SELECT pg_notify(${FANOUT_CHANNEL}, ${encodeFanoutMessage({ version: 99, event: 'onMonitorDown', replica: 'someone-else' })})`;
    await until(() => heard.some((message) => message.type === 'push' && message.source === 'fanout'));
    expect(heard.filter((message) => message.type === 'push' && message.source === 'fanout')).toEqual([{ type: 'push', event: 'onMonitorDown', source: 'fanout' }]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sent).toHaveLength(2);
    expect(parseFanoutMessage(sent[1]!)?.replica).toBe('someone-else');
  });
});

/**
 * The push fan-out between site replicas that share DATABASE_URL (runs on the site's thread,
 * beside the data it refreshes). The API's push reaches the one replica its balancer picked; that
 * replica tells the others over PostgreSQL, and each of them reacts exactly as to a push of its
 * own: the same signal (site/data/push-signal.ts), so the same refresh of the lists the event
 * names. Three small jobs:
 *
 * - notifier (fanout-notifier.ts): a push received here bumps the data version and NOTIFYs it;
 * - listener (fanout-listener.ts): a notification of another replica is a push here; each
 *   (re)connect of the LISTEN is a full resync (a push naming nothing: every list read), since
 *   PostgreSQL replays nothing to a listener that was away;
 * - version poll (version-poll.ts): the safety net, a version newer than the newest handled is a
 *   missed notification, and resyncs.
 *
 * Only hints travel (an event name, a version): each replica reads the data from the API itself.
 */
import { randomBytes } from 'node:crypto';
import { createLogger, reasonOf, type Logger } from '../../logging/logger.ts';
import { onPush, signalPush } from '../../site/data/push-signal.ts';
import type { FanoutSettings } from '../../site/running-config.ts';
import type { Database } from '../../store/database.ts';
import { newPushToken } from '../push/push-token.ts';
import { announceFanoutStats, type FanoutStats } from './fanout-stats.ts';
import { listenForReplicas } from './fanout-listener.ts';
import { notifyReplicas } from './fanout-notifier.ts';
import { migrateSiteStore, readSiteVersion, sharedSecret, SITE_MIGRATIONS } from './site-store.ts';
import { pollSiteVersion } from './version-poll.ts';

/** The name of the push token in site_secrets. */
export const PUSH_TOKEN_SECRET = 'push-token';
/** Connections of the fan-out's pool (notifications, the poll, the token): the LISTEN has one more of its own. */
export const FANOUT_POOL_CONNECTIONS = 2;

export interface Fanout {
  /** The push token every replica of this database uses when PUSH_TOKEN is not set. */
  sharedPushToken: string;
  stop(): Promise<void>;
}

export async function startFanout(settings: FanoutSettings, log: Logger = createLogger('fanout')): Promise<Fanout> {
  const { PostgresDatabase } = await import('../../store/postgres.ts');
  const db: Database = await PostgresDatabase.open(settings.databaseUrl, { schema: SITE_MIGRATIONS.store, maxConnections: FANOUT_POOL_CONNECTIONS });
  try {
    await migrateSiteStore(db);
    const sharedPushToken = await sharedSecret(db, PUSH_TOKEN_SECRET, newPushToken);
    let handled = await readSiteVersion(db);
    const replica = randomBytes(9).toString('base64url');
    const stats: FanoutStats = { sent: 0, received: 0, resyncs: 0, failed: 0, listening: false };
    const tell = () => announceFanoutStats({ ...stats });
    const handle = (version: number) => {
      handled = Math.max(handled, version);
    };
    const resync = (why: string) => {
      stats.resyncs += 1;
      tell();
      log.info({ event: 'fanout-resync', why }, `push fan-out: full resync (${why})`);
      signalPush(null, 'resync');
    };

    /** A push received here that the others have not been told of yet (PostgreSQL was unreachable). */
    let owed = false;
    const notify = async (event: string | null) => {
      try {
        handle(await notifyReplicas(db, replica, event));
        stats.sent += 1;
        owed = false;
      } catch (error) {
        stats.failed += 1;
        // Told later as a change of unknown kind (the next poll tick), or found by the others' resync.
        owed = true;
        log.warn({ event: 'fanout-notify', outcome: 'failure', reason: reasonOf(error) }, `push fan-out: could not tell the other replicas (${reasonOf(error)}); trying again shortly`);
      }
      tell();
    };
    const stopHearingPushes = onPush((message) => {
      if (message.type === 'push' && message.source === undefined) void notify(message.event);
    });

    const listener = listenForReplicas(settings.databaseUrl, {
      replica,
      onPush: (event, version) => {
        stats.received += 1;
        if (version !== null) handle(version);
        tell();
        signalPush(event, 'fanout');
      },
      onResync: () => {
        // The version now, read after the LISTEN is in place: anything later is heard.
        void readSiteVersion(db).then(handle, () => undefined);
        resync('listening');
      },
      onState: (state) => {
        stats.listening = state === 'listening';
        tell();
        if (state === 'connecting') log.warn({ event: 'fanout-listen', state }, 'push fan-out: the LISTEN connection was lost; reconnecting');
        else log.info({ event: 'fanout-listen', state }, `push fan-out: ${state}`);
      },
    });

    const poll = pollSiteVersion(db, {
      intervalMs: settings.versionPollSeconds * 1000,
      graceMs: Math.min(5_000, settings.versionPollSeconds * 1000),
      handled: () => handled,
      onMissed: (seen) => {
        handle(seen);
        resync('missed version');
      },
      onTick: async () => {
        if (owed) await notify(null);
      },
      onError: (error) => log.warn({ event: 'fanout-poll', outcome: 'failure', reason: reasonOf(error) }, `push fan-out: could not read the data version (${reasonOf(error)})`),
    });
    tell();

    return {
      sharedPushToken,
      async stop() {
        stopHearingPushes();
        poll.stop();
        await listener.close();
        await db.close();
      },
    };
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
}

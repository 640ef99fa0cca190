/**
 * Every replica LISTENs for the others' notifications on a dedicated connection
 * (store/postgres-listen.ts): a notification of another replica is a push received here; its own
 * (PostgreSQL sends a NOTIFY to its sender's session too, if listening) only moves the version
 * handled. A payload that does not read as a notification counts as a change of unknown kind.
 * Each time the LISTEN is (re)established, whatever was sent meanwhile is lost: `onResync`.
 */
import { listenPostgres, type ListenState } from '../../store/postgres-listen.ts';
import { FANOUT_CHANNEL, parseFanoutMessage } from './fanout-message.ts';

export interface FanoutListenerOptions {
  replica: string;
  /** Another replica's push: the event it named, and the version its notification carried (null: unreadable). */
  onPush(event: string | null, version: number | null): void;
  /** The LISTEN is in place (again): resync. */
  onResync(): void;
  onState(state: ListenState): void;
}

export function listenForReplicas(databaseUrl: string, options: FanoutListenerOptions): { state(): ListenState; close(): Promise<void> } {
  return listenPostgres(databaseUrl, {
    channel: FANOUT_CHANNEL,
    applicationName: 'porchlight-site-listen',
    onNotify: (payload) => {
      const message = parseFanoutMessage(payload);
      if (message === null) return options.onPush(null, null);
      if (message.replica === options.replica) return;
      options.onPush(message.event, message.version);
    },
    onListening: () => options.onResync(),
    onState: (state) => options.onState(state),
  });
}

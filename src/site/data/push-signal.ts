/**
 * "The API announced a change" and "the push channel is in place": told by the launcher, which
 * receives the push and keeps the channel, to the site, which owns the data. A thread channel
 * for the same reason as data-version.ts: the two run in one process from different module trees.
 * A push message carries only the event name the API gave in its X-Porchlight-Event header (a
 * hint of which lists changed, see refresh-plan.ts), never the payload.
 */
export const PUSH_CHANNEL = 'porchlight:push';

import { announcer, listenOn } from './thread-channel.ts';

/**
 * `source` 'fanout': another replica received this push and told this one over PostgreSQL
 * (server/fanout/); the site reacts the same, only the fan-out itself tells them apart (it
 * passes on the pushes received here, not those it brought).
 */
export type PushMessage = { type: 'push'; event: string | null; source?: 'fanout' } | { type: 'verified' } | { type: 'ask' };

const announcePush = announcer<PushMessage>(PUSH_CHANNEL);

/** A push arrived; `event` is its event name when it gave a plausible one. */
export function signalPush(event: string | null = null, source?: 'fanout'): void {
  announcePush(source ? { type: 'push', event, source } : { type: 'push', event });
}

/** The API has Porchlight's push channel, enabled: pushes should reach the site. */
export function signalPushChannelVerified(): void {
  announcePush({ type: 'verified' });
}

/**
 * The site asks whether the channel was verified before it started listening (a thread channel
 * keeps no messages for listeners to come); the launcher answers with signalPushChannelVerified.
 */
export function askPushChannelVerified(): void {
  announcePush({ type: 'ask' });
}

function isPushMessage(data: unknown): data is PushMessage {
  if (typeof data !== 'object' || data === null || !('type' in data)) return false;
  if (data.type === 'verified' || data.type === 'ask') return true;
  if (data.type !== 'push' || !('event' in data) || (typeof data.event !== 'string' && data.event !== null)) return false;
  return !('source' in data) || data.source === 'fanout';
}

/** Calls `listener` for each message (a push, a verification, a question); returns a function that stops listening. */
export function onPush(listener: (message: PushMessage) => void): () => void {
  return listenOn(PUSH_CHANNEL, (data) => {
    if (isPushMessage(data)) listener(data);
  });
}

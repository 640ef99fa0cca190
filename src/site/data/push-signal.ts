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
 * Where a push came from, when not from this process's push route (server/fanout/): 'fanout',
 * another replica received it and told this one over PostgreSQL; 'resync', the fan-out may have
 * missed some (its LISTEN was (re)connected, or its poll found a newer version). The site reads
 * as for any push (a resync names nothing: every list); only a resync is no sign that push works,
 * and only the fan-out passes on pushes, those without a source.
 */
export type PushSource = 'fanout' | 'resync';

export type PushMessage = { type: 'push'; event: string | null; source?: PushSource } | { type: 'verified' } | { type: 'ask' };

const announcePush = announcer<PushMessage>(PUSH_CHANNEL);

/** A push arrived; `event` is its event name when it gave a plausible one. */
export function signalPush(event: string | null = null, source?: PushSource): void {
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

/**
 * Whether a message shows that pushes reach this site (so polling is only the safety net,
 * refresh-plan.ts): a push, from the route or another replica, or the channel verified; not a
 * question, and not a fan-out resync (which happens whether or not any push ever arrives).
 */
export function isPushSign(message: PushMessage): boolean {
  if (message.type === 'ask') return false;
  return !(message.type === 'push' && message.source === 'resync');
}

function isPushMessage(data: unknown): data is PushMessage {
  if (typeof data !== 'object' || data === null || !('type' in data)) return false;
  if (data.type === 'verified' || data.type === 'ask') return true;
  if (data.type !== 'push' || !('event' in data) || (typeof data.event !== 'string' && data.event !== null)) return false;
  return !('source' in data) || data.source === 'fanout' || data.source === 'resync';
}

/** Calls `listener` for each message (a push, a verification, a question); returns a function that stops listening. */
export function onPush(listener: (message: PushMessage) => void): () => void {
  return listenOn(PUSH_CHANNEL, (data) => {
    if (isPushMessage(data)) listener(data);
  });
}

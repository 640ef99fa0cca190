/**
 * "The API announced a change": told by the front server, which receives the push, to the site,
 * which owns the data. A BroadcastChannel for the same reason as data-version.ts: the two run in
 * one process from different module trees. The message carries nothing from the push itself.
 */
export const PUSH_CHANNEL = 'porchlight:push';

import { announcer, listenOn } from './thread-channel.ts';

const announcePush = announcer<'refresh'>(PUSH_CHANNEL);

export function signalPush(): void {
  announcePush('refresh');
}

/** Calls `listener` for each push; returns a function that stops listening. */
export function onPush(listener: () => void): () => void {
  return listenOn(PUSH_CHANNEL, () => listener());
}

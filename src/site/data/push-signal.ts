/**
 * "The API announced a change": told by the front server, which receives the push, to the site,
 * which owns the data. A BroadcastChannel for the same reason as data-version.ts: the two run in
 * one process from different module trees. The message carries nothing from the push itself.
 */
export const PUSH_CHANNEL = 'porchlight:push';

type Unrefable = BroadcastChannel & { unref?: () => void };

let sender: BroadcastChannel | undefined;

export function signalPush(): void {
  if (!sender) {
    sender = new BroadcastChannel(PUSH_CHANNEL);
    (sender as Unrefable).unref?.();
  }
  sender.postMessage('refresh');
}

/** Calls `listener` for each push; returns a function that stops listening. */
export function onPush(listener: () => void): () => void {
  const channel = new BroadcastChannel(PUSH_CHANNEL);
  channel.onmessage = () => listener();
  // Listening must never keep the process alive.
  (channel as Unrefable).unref?.();
  return () => channel.close();
}

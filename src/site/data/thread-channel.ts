/**
 * The threads of one Porchlight process (the front server, the site's renderer, the embedded API)
 * share no module instances; they tell each other things over named BroadcastChannels. Neither
 * telling nor listening may keep a thread alive, so every channel here is unref'd.
 */
type Unrefable = BroadcastChannel & { unref?: () => void };

function quiet(name: string): BroadcastChannel {
  const channel = new BroadcastChannel(name);
  (channel as Unrefable).unref?.();
  return channel;
}

/** A function that posts on `name`, its channel made on first use. */
export function announcer<T>(name: string): (message: T) => void {
  let channel: BroadcastChannel | undefined;
  return (message) => {
    channel ??= quiet(name);
    channel.postMessage(message);
  };
}

/** Calls `onMessage` with each message posted on `name` by another channel; returns the stop function. */
export function listenOn(name: string, onMessage: (data: unknown) => void): () => void {
  const channel = quiet(name);
  channel.onmessage = (event: MessageEvent) => onMessage(event.data);
  return () => channel.close();
}

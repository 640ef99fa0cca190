/**
 * The threads of one Porchlight process (the front server, the site's renderer, the embedded API,
 * subscriptions) share no module instances; they tell each other things on named channels. A
 * message reaches every listener on its name in every thread: in the thread that posts it, and,
 * over the links worker-thread.ts and thread-side.ts make between a thread and those it starts,
 * in all the others (relayed along that tree, never back where it came from). Like a
 * BroadcastChannel, each listener gets its own copy, on a later turn; neither telling nor
 * listening keeps a thread alive.
 *
 * Not BroadcastChannel itself: receiving on one builds a MessageEvent, a class Node takes from
 * its bundled undici, so the first message loads all of it (fetch, WebSocket, ...): about 4.5 MiB
 * of V8 heap (measured) on threads that never fetch. Node-style listeners on a worker's ports
 * receive the data alone.
 *
 * Astro bundles the site's copy of this module apart from the threads' bundle, so the state lives
 * on globalThis: the two copies in the site's thread are one bus.
 */
type Listener = (data: unknown) => void;

export const CHANNEL_ENVELOPE = 'porchlight:channel';

export interface ChannelEnvelope {
  type: typeof CHANNEL_ENVELOPE;
  name: string;
  data: unknown;
}

interface Link {
  send(envelope: ChannelEnvelope): void;
}

interface Bus {
  listeners: Map<string, Set<Listener>>;
  links: Set<Link>;
}

const BUS = Symbol.for('porchlight.thread-channel');
const bus = ((globalThis as { [BUS]?: Bus })[BUS] ??= { listeners: new Map(), links: new Set() });

export function isChannelEnvelope(value: unknown): value is ChannelEnvelope {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === CHANNEL_ENVELOPE && typeof (value as { name?: unknown }).name === 'string';
}

function deliverHere({ name, data }: ChannelEnvelope): void {
  const listening = bus.listeners.get(name);
  if (!listening?.size) return;
  const targets = [...listening];
  setImmediate(() => {
    for (const listener of targets) listener(structuredClone(data));
  });
}

function relay(envelope: ChannelEnvelope, from: Link | null): void {
  deliverHere(envelope);
  for (const link of bus.links) if (link !== from) link.send(envelope);
}

/** A function that posts on `name`. */
export function announcer<T>(name: string): (message: T) => void {
  return (message) => relay({ type: CHANNEL_ENVELOPE, name, data: message }, null);
}

/** Calls `onMessage` with each message posted on `name` from now on; returns the stop function. */
export function listenOn(name: string, onMessage: (data: unknown) => void): () => void {
  let listening = bus.listeners.get(name);
  if (!listening) bus.listeners.set(name, (listening = new Set()));
  const listener: Listener = (data) => onMessage(data);
  listening.add(listener);
  return () => listening.delete(listener);
}

export interface ThreadLink {
  /** Takes an envelope the other thread sent. */
  receive(envelope: ChannelEnvelope): void;
  unlink(): void;
}

/** Links this thread's channels with another thread's, reached by `send` (a worker's postMessage). */
export function linkThread(send: (envelope: ChannelEnvelope) => void): ThreadLink {
  const link: Link = { send };
  bus.links.add(link);
  return { receive: (envelope) => relay(envelope, link), unlink: () => bus.links.delete(link) };
}

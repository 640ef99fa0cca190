/**
 * What the front server needs to answer /readyz on its own thread, without a render: the fetch
 * time of the newest snapshot the site can show (loaded, or restored from disk), told after each
 * load; and the other way, "a probe asked", so that a readiness probe still starts the first load
 * or a refresh of stale data, as a visitor would. BroadcastChannels, as in data-version.ts.
 */
import { announcer, listenOn } from './thread-channel.ts';

export const DATA_AGE_CHANNEL = 'porchlight:data-fetched-at';
export const DATA_WANTED_CHANNEL = 'porchlight:data-wanted';

const announceFetchedAt = announcer<number>(DATA_AGE_CHANNEL);
const announceWanted = announcer<'wanted'>(DATA_WANTED_CHANNEL);

/** Told by the site: a snapshot fetched at `fetchedAt` can be shown. */
export function announceDataFetchedAt(fetchedAt: Date): void {
  announceFetchedAt(fetchedAt.getTime());
}

/** The newest announced fetch time (epoch ms), null before any; and the function that stops listening. */
export function followDataFetchedAt(): { current(): number | null; close(): void } {
  let newest: number | null = null;
  const close = listenOn(DATA_AGE_CHANNEL, (data) => {
    if (typeof data === 'number' && Number.isFinite(data) && (newest === null || data > newest)) newest = data;
  });
  return { current: () => newest, close };
}

/** Told by the front server when a probe asks: the site loads or refreshes its data if it should. */
export function askForData(): void {
  announceWanted('wanted');
}

/** Calls `listener` each time data is asked for; returns the function that stops listening. */
export function onDataWanted(listener: () => void): () => void {
  return listenOn(DATA_WANTED_CHANNEL, () => listener());
}

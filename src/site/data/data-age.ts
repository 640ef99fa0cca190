/**
 * What the front server needs to answer /readyz on its own thread, without a render: the fetch
 * time of the newest snapshot the site can show (loaded, or restored from disk), told after each
 * load. (The other way, a probe asking for data as a visitor would, is data-wanted.ts.) A
 * thread channel, as in data-version.ts.
 */
import { announcer, listenOn } from './thread-channel.ts';

export const DATA_AGE_CHANNEL = 'porchlight:data-fetched-at';

const announceFetchedAt = announcer<number>(DATA_AGE_CHANNEL);

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

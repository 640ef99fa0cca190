/**
 * The version of the status data a page was rendered from (its snapshot's fetch time), told to
 * the front cache in the same process, so a new snapshot replaces stored pages at once rather
 * than when their own freshness ends. A thread channel (thread-channel.ts), because the site runs from Astro's
 * bundle and the front from the source tree: they share no module, only the process.
 */
import { announcer } from './thread-channel.ts';

export const DATA_VERSION_CHANNEL = 'porchlight:data-version';
/** Response header carrying the version from the site to the front; never sent to visitors. */
export const DATA_VERSION_HEADER = 'x-porchlight-data-version';

export function dataVersionOf(fetchedAt: Date): string {
  return String(fetchedAt.getTime());
}

export const announceDataVersion: (version: string) => void = announcer<string>(DATA_VERSION_CHANNEL);

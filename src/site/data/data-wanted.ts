/**
 * "Someone needs current data": told by the front server when it answers from data the site
 * announced rather than from a render, so that such questions keep the data fresh.
 *
 * - `visit` (a readiness probe): like a visitor, a refresh only when the data's freshness has run out.
 * - `pages` (the TLS gate): the status pages list, which no push ever announces, read on its own
 *   at most once per CACHE_FRESH_SECONDS, so a page made non-public stops getting certificates
 *   within that time even while push stretches the rest of the data's freshness.
 *
 * No number of questions costs more API requests than those bounds.
 */
import { announcer, listenOn } from './thread-channel.ts';

export const DATA_WANTED_CHANNEL = 'porchlight:data-wanted';

export type DataWanted = 'visit' | 'pages';

const announceWanted = announcer<DataWanted>(DATA_WANTED_CHANNEL);

export function askForFreshData(what: DataWanted = 'visit'): void {
  announceWanted(what);
}

/** Calls `listener` for each ask; returns a function that stops listening. */
export function onDataWanted(listener: (what: DataWanted) => void): () => void {
  return listenOn(DATA_WANTED_CHANNEL, (data) => listener(data === 'pages' ? 'pages' : 'visit'));
}

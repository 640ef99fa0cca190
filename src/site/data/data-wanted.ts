/**
 * "Someone needs current data": told by the front server when it answers from data the site
 * announced rather than from a render, so that such questions keep the data fresh.
 *
 * - `visit` (a readiness probe): like a visitor, a refresh only when the data's freshness has run out.
 * - `pages` (the TLS gate, for a name it does not know): the status pages list read again, by the
 *   same rate-limited ask as a visitor's for an unknown slug (pages-freshness.ts: one read per
 *   10 s for all of them); the site answers with its next announcement of custom domains.
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

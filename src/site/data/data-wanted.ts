/**
 * "Someone needs current data": told by the front server when it answers from data the site
 * announced rather than from a render (the TLS gate), so that such questions keep the data fresh
 * the way visitors do. The site treats it as a visit: a refresh only when the data's freshness has
 * run out, so no number of questions costs more API requests than visitors would.
 */
import { announcer, listenOn } from './thread-channel.ts';

export const DATA_WANTED_CHANNEL = 'porchlight:data-wanted';

const announceWanted = announcer<'fresh'>(DATA_WANTED_CHANNEL);

export function askForFreshData(): void {
  announceWanted('fresh');
}

/** Calls `listener` for each ask; returns a function that stops listening. */
export function onDataWanted(listener: () => void): () => void {
  return listenOn(DATA_WANTED_CHANNEL, () => listener());
}

/**
 * The pages list of each snapshot the site loads or restores, told to listeners on the site's
 * own thread (the audiences, src/site/private/audience-book.ts, pair it with their settings).
 */
import type { StatusPage } from '../../contract/index.ts';

const listeners = new Set<(pages: readonly StatusPage[]) => void>();

export function notePagesLoaded(pages: readonly StatusPage[]): void {
  for (const listener of listeners) listener(pages);
}

export function onPagesLoaded(listener: (pages: readonly StatusPage[]) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * A page's linked monitors as the console edits them: in their order (sortOrder, then as listed),
 * moved one place up or down, added at the end or removed, and written back whole (the API
 * replaces the set on PATCH) with sortOrder 0, 1, 2… so the order is explicit.
 */
import type { PageMonitor, PageMonitorLinkInput } from '../contract/index.ts';

export interface PageLink {
  monitorId: string;
  displayName: string | null;
}

export function orderedLinks(links: readonly PageMonitor[]): PageLink[] {
  return links
    .map((link, index) => ({ link, index }))
    .sort((a, b) => (a.link.sortOrder ?? Number.MAX_SAFE_INTEGER) - (b.link.sortOrder ?? Number.MAX_SAFE_INTEGER) || a.index - b.index)
    .map(({ link }) => ({ monitorId: link.monitorId, displayName: link.displayName ?? null }));
}

/** The links with one moved a place; unchanged when it is not there or already at that end. */
export function moveLink(links: readonly PageLink[], monitorId: string, direction: 'up' | 'down'): PageLink[] {
  const from = links.findIndex((link) => link.monitorId === monitorId);
  const to = direction === 'up' ? from - 1 : from + 1;
  if (from < 0 || to < 0 || to >= links.length) return [...links];
  const moved = [...links];
  [moved[from], moved[to]] = [moved[to] as PageLink, moved[from] as PageLink];
  return moved;
}

export function addLink(links: readonly PageLink[], monitorId: string): PageLink[] {
  return links.some((link) => link.monitorId === monitorId) ? [...links] : [...links, { monitorId, displayName: null }];
}

export function removeLink(links: readonly PageLink[], monitorId: string): PageLink[] {
  return links.filter((link) => link.monitorId !== monitorId);
}

/** What the API is sent: every link with its place as sortOrder. */
export function linksInput(links: readonly PageLink[]): PageMonitorLinkInput[] {
  return links.map((link, index) => ({ monitorId: link.monitorId, ...(link.displayName ? { displayName: link.displayName } : {}), sortOrder: index }));
}

import { describe, expect, it } from 'vitest';
import { addLink, linksInput, moveLink, orderedLinks, removeLink } from '../../src/console/page-links.ts';

const links = orderedLinks([
  { id: 'l3', monitorId: 'mon_c', sortOrder: 2 },
  { id: 'l1', monitorId: 'mon_a', sortOrder: 0, displayName: 'API' },
  { id: 'l2', monitorId: 'mon_b', sortOrder: 1 },
  { id: 'l4', monitorId: 'mon_d' },
]);
const ids = (list: readonly { monitorId: string }[]) => list.map((link) => link.monitorId);

describe('a page\'s linked monitors in the console', () => {
  it('orders by sortOrder, then as listed (links without one last)', () => {
    expect(ids(links)).toEqual(['mon_a', 'mon_b', 'mon_c', 'mon_d']);
  });

  it('moves one place up or down, and not past either end', () => {
    expect(ids(moveLink(links, 'mon_c', 'up'))).toEqual(['mon_a', 'mon_c', 'mon_b', 'mon_d']);
    expect(ids(moveLink(links, 'mon_a', 'down'))).toEqual(['mon_b', 'mon_a', 'mon_c', 'mon_d']);
    expect(ids(moveLink(links, 'mon_a', 'up'))).toEqual(ids(links));
    expect(ids(moveLink(links, 'mon_d', 'down'))).toEqual(ids(links));
    expect(ids(moveLink(links, 'mon_x', 'up'))).toEqual(ids(links));
  });

  it('adds once at the end, removes, and writes every place as sortOrder with the display names kept', () => {
    expect(ids(addLink(links, 'mon_e'))).toEqual(['mon_a', 'mon_b', 'mon_c', 'mon_d', 'mon_e']);
    expect(ids(addLink(links, 'mon_a'))).toEqual(ids(links));
    expect(ids(removeLink(links, 'mon_b'))).toEqual(['mon_a', 'mon_c', 'mon_d']);
    expect(linksInput(moveLink(links, 'mon_b', 'up')).slice(0, 2)).toEqual([
      { monitorId: 'mon_b', sortOrder: 0 },
      { monitorId: 'mon_a', displayName: 'API', sortOrder: 1 },
    ]);
  });
});

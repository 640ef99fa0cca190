import { parseAtomFeed, parseRssFeed } from 'feedsmith';
import { SaxesParser } from 'saxes';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { atomFeed } from '../../../src/site/outputs/atom.ts';
import { feedData, htmlText } from '../../../src/site/outputs/feed-entries.ts';
import { rssFeed } from '../../../src/site/outputs/rss.ts';
import { incident, now, page, snapshot } from '../view/fixtures.ts';
import { outputFor } from './fixtures.ts';

const HOSTILE_TITLE = `Tom & "Jerry" <script>alert(1)</script> ]]> &amp; 😀 שלום עולם`;
const HOSTILE_MESSAGE = `It's <b>bad</b> & getting "worse" ]]> <![CDATA[x]]> 🚀 مرحبا\u0000\u0008`;

const at = (iso: string) => Date.parse(iso);

function wellFormed(xml: string): void {
  const parser = new SaxesParser({ xmlns: true });
  parser.on('error', (error) => {
    throw error;
  });
  parser.write(xml).close();
}

function hostileSnapshot() {
  return snapshot({
    incidents: [
      incident('i1', {
        title: HOSTILE_TITLE,
        status: 'resolved',
        severity: 'critical',
        startedAt: '2026-11-20T10:00:00Z',
        resolvedAt: '2026-11-20T12:30:00Z',
        updates: [
          { id: 'u1', status: 'investigating', message: HOSTILE_MESSAGE, createdAt: '2026-11-20T10:00:00Z' },
          { id: 'u2', status: 'resolved', message: 'Fixed.\nAll good.', createdAt: '2026-11-20T12:00:00Z' },
        ],
      }),
      incident('i2', { startedAt: '2026-11-21T09:00:00Z', updates: [] }),
      // Not on the page: affects no linked monitor.
      incident('i3', { monitors: [{ monitor: { id: 'secret', name: 'Secret service' } }] }),
    ],
  });
}

describe('feedData', () => {
  it('lists the 50 most recently started incidents of the page, newest first', () => {
    const many = Array.from({ length: 60 }, (_, index) =>
      incident(`n${index}`, { startedAt: new Date(at('2026-01-01T00:00:00Z') + index * 3_600_000).toISOString(), updates: [] }),
    );
    const entries = feedData(outputFor(snapshot({ incidents: many }))).entries;
    expect(entries).toHaveLength(50);
    expect(entries[0]?.link).toBe('https://status.example.com/acme/incidents/n59/');
    expect(entries[49]?.link).toBe('https://status.example.com/acme/incidents/n10/');
  });

  it('dates entries and the feed from the data: published is the start, updated the latest change', () => {
    const feed = feedData(outputFor(hostileSnapshot()));
    const [newest, older] = feed.entries;
    expect(newest?.published).toBe(at('2026-11-21T09:00:00Z'));
    expect(older?.published).toBe(at('2026-11-20T10:00:00Z'));
    expect(older?.updated).toBe(at('2026-11-20T12:30:00Z'));
    expect(feed.updated).toBe(at('2026-11-21T09:00:00Z'));
  });

  it('keeps ids when the page is read from another host, and only the links follow the host', () => {
    const onSlug = feedData(outputFor(hostileSnapshot()));
    const onDomain = feedData(outputFor(hostileSnapshot(), { origin: 'https://status.acme.test', basePath: '' }));
    expect(onDomain.entries.map((entry) => entry.id)).toEqual(onSlug.entries.map((entry) => entry.id));
    expect(onDomain.id).toBe(onSlug.id);
    expect(onDomain.entries[0]?.link).toBe('https://status.acme.test/incidents/i2/');
  });

  it('names affected services as the page does, and never a monitor the page does not show', () => {
    const html = feedData(outputFor(hostileSnapshot())).entries[1]?.html ?? '';
    expect(html).toContain('Impact: Critical. Status: Resolved. Affected: Database.');
    expect(html).not.toContain('Secret');
    expect(html).not.toContain('db-primary');
  });

  it('writes the updates newest first with status in words, UTC time and the message escaped for HTML once', () => {
    const html = feedData(outputFor(hostileSnapshot())).entries[1]?.html ?? '';
    expect(html.indexOf('Fixed.<br>All good.')).toBeLessThan(html.indexOf(htmlText(HOSTILE_MESSAGE.trim())));
    expect(html).toContain('<strong>Resolved</strong> · 20 Nov 2026, 12:00 UTC<br>Fixed.<br>All good.');
    expect(html).toContain(`<strong>Investigating</strong> · 20 Nov 2026, 10:00 UTC<br>${htmlText(HOSTILE_MESSAGE.trim())}`);
    expect(html).not.toContain('<b>');
  });

  it('leaves out an incident with no readable date at all', () => {
    const entries = feedData(outputFor(snapshot({ incidents: [incident('bad', { startedAt: 'never', updates: [] }), incident('ok')] }))).entries;
    expect(entries.map((entry) => entry.link)).toEqual(['https://status.example.com/acme/incidents/ok/']);
  });

  it('has a date from the data even with no incidents', () => {
    const updated = feedData(outputFor(snapshot({ incidents: [], pages: [page({ updatedAt: '2026-10-01T00:00:00Z' })] }))).updated;
    expect(updated).toBe(at('2026-10-01T00:00:00Z'));
  });
});

describe.each([
  ['Atom', atomFeed],
  ['RSS', rssFeed],
])('%s feed', (_, render) => {
  it('is well-formed XML with hostile text and control characters', () => {
    expect(() => wellFormed(render(outputFor(hostileSnapshot())))).not.toThrow();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('is the same bytes for the same data, whenever it is rendered', () => {
    const data = hostileSnapshot();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now);
    const first = render(outputFor(data));
    vi.setSystemTime(new Date(now.getTime() + 86_400_000));
    expect(render(outputFor(data, { at: new Date() }))).toBe(first);
  });
});

describe('atomFeed, read by a feed parser', () => {
  const feed = parseAtomFeed(atomFeed(outputFor(hostileSnapshot())));

  it('has the feed metadata RFC 4287 asks for', () => {
    expect(feed.id).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(feed.title?.value).toBe('Acme Status status history');
    expect(feed.updated).toBe('2026-11-21T09:00:00.000Z');
    expect(feed.links).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ rel: 'self', href: 'https://status.example.com/acme/history.atom' }),
        expect.objectContaining({ rel: 'alternate', href: 'https://status.example.com/acme/' }),
      ]),
    );
    expect(feed.authors?.[0]?.name).toBe('Acme Cloud');
  });

  it('gives back the exact original title and HTML content, escaped once', () => {
    const entry = feed.entries?.[1];
    expect(entry?.title?.value).toBe(`${HOSTILE_TITLE} (Resolved)`);
    expect(entry?.content?.type).toBe('html');
    expect(entry?.content?.value).toBe(feedData(outputFor(hostileSnapshot())).entries[1]?.html.replace(/[\u0000\u0008]/g, ''));
    expect(entry?.published).toBe('2026-11-20T10:00:00.000Z');
    expect(entry?.updated).toBe('2026-11-20T12:30:00.000Z');
    expect(entry?.links?.[0]).toMatchObject({ rel: 'alternate', href: 'https://status.example.com/acme/incidents/i1/' });
  });
});

describe('rssFeed, read by a feed parser', () => {
  const feed = parseRssFeed(rssFeed(outputFor(hostileSnapshot())));

  it('has the channel elements RSS 2.0 asks for, dated from the data in RFC 822 GMT', () => {
    expect(feed.title).toBe('Acme Status status history');
    expect(feed.link).toBe('https://status.example.com/acme/');
    expect(feed.lastBuildDate).toBe('Sat, 21 Nov 2026 09:00:00 GMT');
    expect(feed.atom?.links?.[0]).toMatchObject({ rel: 'self', href: 'https://status.example.com/acme/history.rss' });
  });

  it('gives back the exact original title, with a non-permalink guid equal to the Atom id', () => {
    const item = feed.items?.[1];
    const atom = parseAtomFeed(atomFeed(outputFor(hostileSnapshot())));
    expect(item?.title).toBe(`${HOSTILE_TITLE} (Resolved)`);
    expect(item?.guid).toEqual({ value: atom.entries?.[1]?.id, isPermaLink: false });
    expect(item?.link).toBe('https://status.example.com/acme/incidents/i1/');
    expect(item?.pubDate).toBe('Fri, 20 Nov 2026 10:00:00 GMT');
    expect(item?.description).toContain(htmlText('It\'s <b>bad</b> & getting "worse" ]]>'));
  });
});


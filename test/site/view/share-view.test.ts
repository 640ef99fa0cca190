import { describe, expect, it } from 'vitest';
import { incidentView } from '../../../src/site/view/incident-view.ts';
import { pageContext } from '../../../src/site/view/page-context.ts';
import { publicUrls } from '../../../src/site/view/public-url.ts';
import { cutAtWord, DESCRIPTION_MAX_LENGTH, historyShare, incidentShare, pageShare, statusIcons } from '../../../src/site/view/share-view.ts';
import { overallView } from '../../../src/site/view/status-page-view.ts';
import { incident, now, page, snapshot } from './fixtures.ts';

const urls = publicUrls('https://status.example.com', '/acme');

describe('cutAtWord', () => {
  it('leaves short text alone, on one line', () => {
    expect(cutAtWord('All  systems\noperational.')).toBe('All systems operational.');
  });

  it('cuts after the last whole word that fits and ends with an ellipsis', () => {
    expect(cutAtWord('The database is slow again today', 20)).toBe('The database is…');
    expect(cutAtWord('The database is slow, again', 21)).toBe('The database is slow…');
    expect([...cutAtWord('word '.repeat(100))].length).toBeLessThanOrEqual(DESCRIPTION_MAX_LENGTH);
  });

  it('never splits an emoji or accented letter, and cuts inside one overlong word', () => {
    expect(cutAtWord('🔥'.repeat(30), 10)).toBe(`${'🔥'.repeat(9)}…`);
    expect(cutAtWord('a'.repeat(500), 10)).toBe(`${'a'.repeat(9)}…`);
  });
});

describe('link previews', () => {
  const data = snapshot();
  const context = pageContext(data, page(), { basePath: '/acme', now, stale: false });
  const overall = overallView(context);

  it('a status page: its status sentence with open incidents, absolute canonical and card', () => {
    const share = pageShare({ title: 'Acme Status: Partial outage', pageName: 'Acme Status', overall, urls, active: [{ title: 'Database down' }] });
    expect(share).toMatchObject({
      url: 'https://status.example.com/acme/',
      siteName: 'Acme Status',
      type: 'website',
      description: `Current status of Acme Status: ${overall.label}. Active incident: Database down.`,
      image: { url: 'https://status.example.com/acme/card.png', width: 1200, height: 630, type: 'image/png', alt: `Acme Status: ${overall.label}` },
    });
  });

  it("an incident: its status, title and latest update, cut cleanly, at its own address", () => {
    const long = incident('i9', { updates: [{ id: 'u', status: 'monitoring', message: `A fix is out. ${'We keep watching the error rates closely. '.repeat(10)}`, createdAt: now.toISOString() }] });
    const share = incidentShare({ title: 't', pageName: 'Acme Status', urls, incident: incidentView(long, context) });
    expect(share.url).toBe('https://status.example.com/acme/incidents/i9/');
    expect(share.type).toBe('article');
    expect(share.description.startsWith('Identified: Incident i9. Latest update: A fix is out. We keep')).toBe(true);
    expect(share.description.endsWith('…')).toBe(true);
    expect(share.description).toMatch(/ [a-z]+…$/);
    expect([...share.description].length).toBeLessThanOrEqual(DESCRIPTION_MAX_LENGTH);
    // The card is the page's live one; the incident's tags never name the live status.
    expect(share.image.url).toBe('https://status.example.com/acme/card.png');
    expect(share.image.alt).not.toContain(overall.label);
  });

  it('the latest update is the newest one, whatever order the API lists them in', () => {
    const share = incidentShare({ title: 't', pageName: 'Acme Status', urls, incident: incidentView(incident('i1'), context) });
    expect(share.description).toBe('Identified: Incident i1. Latest update: Found it');
  });

  it('a month of history: its own address, words that do not follow the live status', () => {
    expect(historyShare({ title: 't', pageName: 'Acme Status', urls, month: { key: '2026-10', label: 'October 2026' } })).toMatchObject({
      url: 'https://status.example.com/acme/history/2026-10/',
      description: 'Past incidents of Acme Status in October 2026.',
    });
    expect(historyShare({ title: 't', pageName: 'Acme Status', urls, month: { key: null, label: 'November 2026' } }).url).toBe('https://status.example.com/acme/history/');
  });

  it('status icons are relative, below the page root', () => {
    expect(statusIcons('/acme')).toEqual({ svg: '/acme/favicon.svg', png: '/acme/favicon.png' });
    expect(statusIcons('')).toEqual({ svg: '/favicon.svg', png: '/favicon.png' });
  });
});

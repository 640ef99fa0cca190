import { describe, expect, it } from 'vitest';
import IncidentCard from '../../../src/site/components/IncidentCard.astro';
import IncidentList from '../../../src/site/components/IncidentList.astro';
import RecentIncidents from '../../../src/site/components/RecentIncidents.astro';
import { activeIncident, resolvedIncident } from './fixtures.ts';
import { count, cspOffenders, render, text } from './render.ts';

describe('IncidentCard', () => {
  it('links the title and tells severity and status in words', async () => {
    const html = await render(IncidentCard, { incident: activeIncident });
    expect(html).toMatch(/<h3 class="pl-incident__title"><a href="\/acme\/incidents\/inc_db\/">Database connection errors<\/a><\/h3>/);
    expect(text(html)).toContain('Severity: Major');
    expect(text(html)).toContain('Status: Identified');
    expect(html).toContain('data-severity="major"');
    expect(cspOffenders(html)).toEqual([]);
  });

  it('lists the updates newest first, each with a machine-readable and an absolute time', async () => {
    const html = await render(IncidentCard, { incident: activeIncident });
    const datetimes = [...html.matchAll(/<li class="pl-timeline__entry">[\s\S]*?<time datetime="([^"]+)" title="([^"]+)" data-local[^>]*>([^<]+)<\/time>/g)];
    expect(datetimes.map((m) => m[1])).toEqual(['2026-11-22T13:40:00.000Z', '2026-11-22T13:05:00.000Z', '2026-11-22T12:50:00.000Z']);
    for (const match of datetimes) expect(match[3]).toBe(match[2]);
    expect(datetimes[0]?.[3]).toBe('22 Nov 2026, 13:40 UTC');
    const words = text(html);
    expect(words.indexOf('A failed replica')).toBeLessThan(words.indexOf('Error rates are rising'));
    expect(words).not.toMatch(/\bago\b/);
  });

  it('tells no running duration for an ongoing incident (it would be false by the time a cached copy is read)', async () => {
    const words = text(await render(IncidentCard, { incident: activeIncident }));
    expect(words).toContain('Started 22 Nov 2026, 12:50 UTC');
    expect(words).not.toMatch(/Ongoing for|Lasted/);
  });

  it('keeps message line breaks as text and escapes markup in it', async () => {
    const html = await render(IncidentCard, {
      incident: { ...activeIncident, updates: [{ id: 'u', statusLabel: 'Identified', message: '<b>not bold</b>', at: activeIncident.startedAt }] },
    });
    expect(html).toContain('&lt;b&gt;not bold&lt;/b&gt;');
    expect(html).not.toContain('<b>not bold</b>');
  });

  it('lists affected systems as a list', async () => {
    const html = await render(IncidentCard, { incident: activeIncident });
    expect(html).toMatch(/<ul class="pl-affected__list"><li>Public API<\/li><li>Dashboard<\/li><\/ul>/);
  });

  it('shows when a resolved incident ended and how long it lasted', async () => {
    const html = await render(IncidentCard, { incident: resolvedIncident });
    const words = text(html);
    expect(words).toContain('Resolved 19 Nov 2026, 09:30 UTC');
    expect(words).toContain('Lasted 1 h 30 min');
    expect(html).toContain('data-resolved="true"');
  });

  it('as the page heading: h1 without a link to itself', async () => {
    const html = await render(IncidentCard, { incident: activeIncident, headingLevel: 1, link: false });
    expect(html).toMatch(/<h1 class="pl-incident__title">Database connection errors<\/h1>/);
    expect(html).not.toContain('href="/acme/incidents/inc_db/"');
  });

  it("'latest' shows only the newest update and links to all of them", async () => {
    const html = await render(IncidentCard, { incident: activeIncident, updates: 'latest' });
    expect(count(html, 'class="pl-timeline__entry"')).toBe(1);
    expect(text(html)).toContain('A failed replica');
    expect(text(html)).toContain('All 3 updates');
  });
});

describe('IncidentList and RecentIncidents', () => {
  it('renders nothing for no incidents without an empty text', async () => {
    const html = await render(IncidentList, { id: 'active', title: 'Active incidents', incidents: [] });
    expect(html.trim()).toBe('');
  });

  it('puts cards one heading level below the section', async () => {
    const html = await render(IncidentList, { id: 'active', title: 'Active incidents', incidents: [activeIncident] });
    expect(html).toMatch(/<h2 class="pl-section__title" id="active-heading">Active incidents<\/h2>/);
    expect(html).toContain('aria-labelledby="active-heading"');
    expect(html).toContain('<h3 class="pl-incident__title">');
  });

  it('says so when there were no recent incidents, and links the history', async () => {
    const html = await render(RecentIncidents, { incidents: [], historyHref: '/acme/history/' });
    expect(text(html)).toContain('No incidents in the last 14 days.');
    expect(html).toContain('href="/acme/history/"');
  });
});

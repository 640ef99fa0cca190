import { describe, expect, it } from 'vitest';
import MonitorList from '../../../src/site/components/MonitorList.astro';
import MonitorRow from '../../../src/site/components/MonitorRow.astro';
import { chart, monitor, uptimeDays } from './fixtures.ts';
import { count, cspOffenders, render, text } from './render.ts';

describe('MonitorRow', () => {
  it('draws the bar as one linked SVG of a few paths, summed up for screen readers, no day written twice', async () => {
    const days = uptimeDays();
    const html = await render(MonitorRow, { monitor: monitor({ days }) });
    const link = html.slice(html.indexOf('<a class="pl-uptime__bar"'), html.indexOf('</a>', html.indexOf('<a class="pl-uptime__bar"')));
    expect(link).toContain('href="/acme/components/mon_api/"');
    expect(link).toMatch(/<svg viewBox="0 0 90 10" preserveAspectRatio="none" aria-hidden="true" focusable="false">/);
    // One path per level present, plus the cap of down days and the inside of hollow ones.
    expect([...link.matchAll(/<path data-layer="(\w+)"/g)].map((match) => match[1])).toEqual(['up', 'minor', 'major', 'down', 'cap', 'none', 'hollow']);
    expect(text(link)).toBe('Daily uptime of Public API, day by day');
    expect(text(html)).toContain('Daily uptime of Public API over 90 days: 85 days up, 1 day with minor issues, 1 day with a major outage, 1 day down and 2 days without data.');
    // Days are not in the status page's row: they are on the linked page (only the issue list names bad days).
    const quiet = days[10]!;
    expect(html).not.toContain(quiet.label);
    expect(count(html, /<[a-z]/g)).toBeLessThan(50);
    expect(html).not.toMatch(/\stitle=|tabindex|<input/);
  });

  it('draws the bar without a link on the day-by-day page itself', async () => {
    const html = await render(MonitorRow, { monitor: monitor(), linkDays: false });
    expect(html).toContain('<div class="pl-uptime__bar">');
    expect(html).not.toContain('href=');
    expect(text(html)).not.toContain('day by day');
  });

  it('sums the bar up in one closed disclosure: the days with issues, newest first, each with its level', async () => {
    const html = await render(MonitorRow, { monitor: monitor() });
    expect(count(html, '<details')).toBe(1);
    expect(html).not.toMatch(/<details[^>]*open/);
    const disclosure = html.slice(html.indexOf('<details'), html.indexOf('</details>'));
    const expected = uptimeDays().filter((day) => day.level !== 'up' && day.level !== 'none').reverse();
    expect(expected.map((day) => day.level)).toEqual(['down', 'major', 'minor']);
    expect(text(disclosure)).toBe(`3 days with issues for Public API ${expected.map((day) => day.description).join(' ')}`);
    expect([...disclosure.matchAll(/<li data-level="(\w+)">/g)].map((match) => match[1])).toEqual(['down', 'major', 'minor']);
    expect(disclosure).not.toContain('<svg');
  });

  it('lists a day with an incident but good uptime among the days with issues', async () => {
    const days = uptimeDays().map((day, index) => (index === 50 ? { ...day, incidents: 1, description: 'an up day with 1 incident' } : day));
    const html = await render(MonitorRow, { monitor: monitor({ days }) });
    const disclosure = html.slice(html.indexOf('<details'), html.indexOf('</details>'));
    expect(text(disclosure)).toContain('4 days with issues');
    expect(disclosure).toContain('<li>an up day with 1 incident</li>');
  });

  it('says so in words when every day was fine, and says nothing of issues when there is no data yet', async () => {
    const fine = uptimeDays().map((day) => ({ ...day, level: 'up' as const, incidents: 0 }));
    const html = await render(MonitorRow, { monitor: monitor({ days: fine }) });
    expect(html).not.toContain('<details');
    expect(text(html)).toContain('No days with issues for Public API');
    expect(html).not.toContain('data-level');

    const empty = uptimeDays().map((day) => ({ ...day, level: 'none' as const, incidents: 0 }));
    const blank = await render(MonitorRow, { monitor: monitor({ days: empty, uptimeText: 'No data' }) });
    expect(text(blank)).not.toMatch(/issues/);
    expect(text(blank)).toContain('Daily uptime of Public API over 90 days: 90 days without data.');
  });

  it('tells health in words with a shape, uptime and latest latency', async () => {
    const html = await render(MonitorRow, { monitor: monitor({ health: 'down', healthLabel: 'Down' }) });
    const words = text(html);
    expect(words).toContain('Status: Down');
    expect(html).toContain('data-shape="major-outage"');
    expect(words).toContain('99.95% uptime over 90 days');
    expect(words).toContain('Latest response: 123 ms');
    expect(cspOffenders(html)).toEqual([]);
  });

  it('draws the response-time chart as an accessible inline SVG when provided', async () => {
    const html = await render(MonitorRow, { monitor: monitor() });
    expect(html).toContain(`<svg class="pl-chart__plot" role="img" aria-label="${chart.summary}" viewBox="${chart.viewBox}"`);
    expect(html).toContain(`<path d="${chart.path}"`);
  });

  it('has no chart and no latency when they are not provided', async () => {
    const html = await render(MonitorRow, { monitor: monitor({ chart: null, latencyText: null }) });
    expect(html).not.toContain('pl-chart');
    expect(html).not.toContain('role="img"');
    expect(text(html)).not.toContain('Latest response');
  });

  it('says "No data" plainly instead of as a percentage', async () => {
    const html = await render(MonitorRow, { monitor: monitor({ uptimeText: 'No data' }) });
    expect(text(html)).toContain('Uptime: No data');
  });
});

describe('MonitorList', () => {
  it('lists every monitor under one h2, each bar linking to its own days', async () => {
    const html = await render(MonitorList, { monitors: [monitor(), monitor({ id: 'b', name: 'Website', daysHref: '/acme/components/b/' })] });
    expect(count(html, '<h2')).toBe(1);
    expect(count(html, 'class="pl-monitor"')).toBe(2);
    expect(count(html, '<a class="pl-uptime__bar" href="/acme/components/mon_api/">')).toBe(1);
    expect(count(html, '<a class="pl-uptime__bar" href="/acme/components/b/">')).toBe(1);
  });

  it('says so when there is nothing to list', async () => {
    const html = await render(MonitorList, { monitors: [] });
    expect(text(html)).toContain('No systems are listed on this page yet.');
  });
});

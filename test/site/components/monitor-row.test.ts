import { describe, expect, it } from 'vitest';
import MonitorList from '../../../src/site/components/MonitorList.astro';
import MonitorRow from '../../../src/site/components/MonitorRow.astro';
import { chart, monitor, uptimeDays } from './fixtures.ts';
import { count, cspOffenders, render, text } from './render.ts';

describe('MonitorRow', () => {
  it('makes the bar one radio group: 90 days oldest first, each day\'s text there once, as its radio\'s label', async () => {
    const days = uptimeDays();
    const html = await render(MonitorRow, { monitor: monitor({ days }), group: 'd3' });
    const bar = html.slice(html.indexOf('<fieldset'), html.indexOf('</fieldset>'));
    expect(bar).toContain('<legend class="pl-visually-hidden">Daily uptime of Public API, oldest first</legend>');
    const segments = [...bar.matchAll(/<label( data-level="(\w+)")?><input type="radio" name="d3"><i>([^<]*)<\/i><\/label>/g)];
    expect(segments).toHaveLength(90);
    segments.forEach((segment, index) => {
      const day = days[index]!;
      // Up, the common level, is the stylesheet's default and is not written out.
      expect(segment[2]).toBe(day.level === 'up' ? undefined : day.level);
      expect(segment[3]).toBe(day.description);
    });
    expect(count(bar, '<input')).toBe(90);
    // Once in the whole row: no title, no second hidden copy (only the issue list names bad days).
    const quiet = days[10]!;
    expect(quiet.level).toBe('up');
    expect(count(html, `>${quiet.description}<`)).toBe(1);
    expect(count(html, new RegExp(`(?<!\\d)${quiet.label}`))).toBe(1);
    expect(html).not.toMatch(/\stitle=|tabindex|\schecked/);
  });

  it('sums the bar up in one closed disclosure: the days with issues, newest first, each with its level', async () => {
    const html = await render(MonitorRow, { monitor: monitor(), group: 'd0' });
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
    const html = await render(MonitorRow, { monitor: monitor({ days }), group: 'd0' });
    const disclosure = html.slice(html.indexOf('<details'), html.indexOf('</details>'));
    expect(text(disclosure)).toContain('4 days with issues');
    expect(disclosure).toContain('<li>an up day with 1 incident</li>');
  });

  it('says so in words when every day was fine, and says nothing of issues when there is no data yet', async () => {
    const fine = uptimeDays().map((day) => ({ ...day, level: 'up' as const, incidents: 0 }));
    const html = await render(MonitorRow, { monitor: monitor({ days: fine }), group: 'd0' });
    expect(html).not.toContain('<details');
    expect(text(html)).toContain('No days with issues for Public API');
    expect(html).not.toContain('data-level');

    const empty = uptimeDays().map((day) => ({ ...day, level: 'none' as const, incidents: 0 }));
    const blank = await render(MonitorRow, { monitor: monitor({ days: empty, uptimeText: 'No data' }), group: 'd0' });
    expect(text(blank)).not.toMatch(/issues/);
    expect(count(blank, '<input type="radio"')).toBe(90);
  });

  it('tells health in words with a shape, uptime and latest latency', async () => {
    const html = await render(MonitorRow, { monitor: monitor({ health: 'down', healthLabel: 'Down' }), group: 'd0' });
    const words = text(html);
    expect(words).toContain('Status: Down');
    expect(html).toContain('data-shape="major-outage"');
    expect(words).toContain('99.95% uptime over 90 days');
    expect(words).toContain('Latest response: 123 ms');
    expect(cspOffenders(html)).toEqual([]);
  });

  it('draws the response-time chart as an accessible inline SVG when provided', async () => {
    const html = await render(MonitorRow, { monitor: monitor(), group: 'd0' });
    expect(html).toContain(`<svg class="pl-chart__plot" role="img" aria-label="${chart.summary}" viewBox="${chart.viewBox}"`);
    expect(html).toContain(`<path d="${chart.path}"`);
  });

  it('has no chart and no latency when they are not provided', async () => {
    const html = await render(MonitorRow, { monitor: monitor({ chart: null, latencyText: null }), group: 'd0' });
    expect(html).not.toContain('pl-chart');
    expect(html).not.toContain('role="img"');
    expect(text(html)).not.toContain('Latest response');
  });

  it('says "No data" plainly instead of as a percentage', async () => {
    const html = await render(MonitorRow, { monitor: monitor({ uptimeText: 'No data' }), group: 'd0' });
    expect(text(html)).toContain('Uptime: No data');
  });
});

describe('MonitorList', () => {
  it('lists every monitor under one h2, each bar its own radio group', async () => {
    const html = await render(MonitorList, { monitors: [monitor(), monitor({ id: 'b', name: 'Website' })] });
    expect(count(html, '<h2')).toBe(1);
    expect(count(html, 'class="pl-monitor"')).toBe(2);
    expect(count(html, '<input type="radio" name="d0">')).toBe(90);
    expect(count(html, '<input type="radio" name="d1">')).toBe(90);
    expect(count(html, '<fieldset class="pl-uptime__bar">')).toBe(2);
  });

  it('says so when there is nothing to list', async () => {
    const html = await render(MonitorList, { monitors: [] });
    expect(text(html)).toContain('No systems are listed on this page yet.');
  });
});

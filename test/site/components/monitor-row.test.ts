import { describe, expect, it } from 'vitest';
import MonitorList from '../../../src/site/components/MonitorList.astro';
import MonitorRow from '../../../src/site/components/MonitorRow.astro';
import { chart, monitor, uptimeDays } from './fixtures.ts';
import { count, cspOffenders, render, text } from './render.ts';

describe('MonitorRow', () => {
  it('has exactly 90 segments, oldest first, each with its full accessible text and tooltip', async () => {
    const days = uptimeDays();
    const html = await render(MonitorRow, { monitor: monitor({ days }) });
    const segments = [...html.matchAll(/<li class="pl-uptime__day" data-level="(\w+)"[^>]*>([\s\S]*?)<\/li>/g)];
    expect(segments).toHaveLength(90);
    segments.forEach((segment, index) => {
      const day = days[index];
      expect(segment[1]).toBe(day?.level);
      expect(segment[2]).toContain(`title="${day?.description}"`);
      expect(segment[2]).toContain(`<span class="pl-visually-hidden">${day?.description}</span>`);
    });
    expect(html).toContain('aria-label="Daily uptime of Public API, oldest first"');
  });

  it('gives the bar no tab stops: one closed disclosure lists the days with issues, newest first', async () => {
    const html = await render(MonitorRow, { monitor: monitor() });
    expect(html).not.toMatch(/tabindex/);
    expect(count(html, '<details')).toBe(1);
    expect(html).not.toMatch(/<details[^>]*open/);
    const issues = text(html.slice(html.indexOf('<details'), html.indexOf('</details>')));
    const expected = uptimeDays().filter((day) => day.level !== 'up' && day.level !== 'none').reverse();
    expect(expected.map((day) => day.level)).toEqual(['down', 'major', 'minor']);
    expect(issues).toBe(`3 days with issues for Public API ${expected.map((day) => day.description).join(' ')}`);
  });

  it('has no disclosure when every day was fine', async () => {
    const days = uptimeDays().map((day) => ({ ...day, level: 'up' as const, incidents: 0 }));
    const html = await render(MonitorRow, { monitor: monitor({ days }) });
    expect(html).not.toContain('<details');
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
  it('lists every monitor under one h2', async () => {
    const html = await render(MonitorList, { monitors: [monitor(), monitor({ id: 'b', name: 'Website' })] });
    expect(count(html, '<h2')).toBe(1);
    expect(count(html, 'class="pl-monitor"')).toBe(2);
    expect(count(html, 'class="pl-uptime__day"')).toBe(180);
  });

  it('says so when there is nothing to list', async () => {
    const html = await render(MonitorList, { monitors: [] });
    expect(text(html)).toContain('No systems are listed on this page yet.');
  });
});

import { describe, expect, it } from 'vitest';
import { statusPageView } from '../../../src/site/view/status-page-view.ts';
import { translator } from '../../../src/site/i18n/translator.ts';
import { componentDaysView } from '../../../src/site/view/component-days-view.ts';
import { historyView } from '../../../src/site/view/history-view.ts';
import { historyWithDays, incident, now, page, snapshot, window } from './fixtures.ts';

const options = { basePath: '/acme', now, stale: false };

describe('statusPageView', () => {
  it('lists linked monitors in sortOrder under their display names, with health in words', () => {
    const view = statusPageView(snapshot(), page(), options);
    expect(view.monitors.map((row) => [row.name, row.health, row.healthLabel])).toEqual([
      ['Website', 'up', 'Operational'],
      ['Database', 'down', 'Down'],
    ]);
  });

  it('computes the overall status from monitors and incidents', () => {
    expect(statusPageView(snapshot(), page(), options).overall.level).toBe('partial_outage');
    const allUp = snapshot({ monitors: [], incidents: [] });
    expect(statusPageView(allUp, page(), options).overall).toEqual({ level: 'degraded', label: expect.any(String) });
    const healthy = snapshot({ incidents: [], monitors: [snapshot().monitors[0]!, { ...snapshot().monitors[1]!, currentStatus: 'up' }] });
    expect(statusPageView(healthy, page(), options).overall.label).toBe('All systems operational');
  });

  it('gives every monitor 90 days of uptime with accessible text, and the window uptime', () => {
    const [website] = statusPageView(snapshot(), page(), options).monitors;
    expect(website!.days).toHaveLength(90);
    expect(website!.days.at(-1)).toMatchObject({ date: '2026-11-22', uptimeText: '91.66%', level: 'down' });
    expect(website!.days.at(-1)!.description).toBe('22 Nov 2026: 91.66% uptime, no incidents');
    expect(website!.days[0]!.description).toBe('25 Aug 2026: no data, no incidents');
    expect(website!.uptimeText).toBe('97.22%');
  });

  it('in a page zone, the bar and the day list end with that zone\'s date and read its counters', () => {
    // now is 22 Nov 12:00 UTC: 23 Nov 01:00 in Auckland.
    const history = { ...historyWithDays({ '2026-11-22': { checks: 12, up: 11 } }), zoneDays: { 'Pacific/Auckland': { '2026-11-23': { checks: 2, up: 2 }, '2026-11-22': { checks: 24, up: 23 } } } };
    const zoned = { ...options, i18n: translator('en', 'Pacific/Auckland') };
    const data = snapshot({ histories: new Map([['m1', history]]) });
    const [website] = statusPageView(data, page(), zoned).monitors;
    expect(website!.days.at(-1)).toMatchObject({ date: '2026-11-23', uptimeText: '100.00%', level: 'up' });
    expect(website!.days.at(-2)!.description).toBe('22 Nov 2026: 95.83% uptime, no incidents');
    expect(website!.days[0]!.date).toBe('2026-08-26');
    expect(website!.uptimeText).toBe('96.15%');
    const list = componentDaysView(data, page(), 'm1', zoned)!;
    expect(list.newestFirst[0]!.description).toBe('23 Nov 2026: 100.00% uptime, no incidents');
    // A zone the history has no counters for shows no data rather than another zone's days.
    const berlin = statusPageView(data, page(), { ...options, i18n: translator('en', 'Europe/Berlin') }).monitors[0]!;
    expect(berlin.uptimeText).toBe('No data');
  });

  it('dates the incident history by the page zone\'s months', () => {
    const data = snapshot({ incidents: [incident('eve', { status: 'resolved', startedAt: '2026-11-01T02:00:00Z', resolvedAt: '2026-11-01T03:00:00Z' })] });
    // 31 Oct, 22:00 in New York: October there, November in UTC.
    const newYork = historyView(data, page(), '2026-10', { ...options, i18n: translator('en', 'America/New_York') })!;
    expect(newYork.incidents.map((item) => item.id)).toEqual(['eve']);
    expect(newYork.newer).toBeNull();
    expect(historyView(data, page(), '2026-10', options)!.incidents).toEqual([]);
  });

  it('counts incidents on the days of the monitors they affect', () => {
    const database = statusPageView(snapshot(), page(), options).monitors[1]!;
    expect(database.days.at(-1)!.incidents).toBe(1);
    expect(database.days.at(-1)!.description).toContain('1 incident');
  });

  it('shows latency and a chart only when the page shows response times', () => {
    const shown = statusPageView(snapshot(), page(), options).monitors[0]!;
    expect(shown.latencyText).toBe('120 ms');
    expect(shown.chart?.path).toMatch(/^M/);
    const hidden = statusPageView(snapshot(), page({ showResponseTimes: false }), options).monitors[0]!;
    expect(hidden.latencyText).toBeNull();
    expect(hidden.chart).toBeNull();
  });

  it('names affected services as the page labels them and hides the ones it does not show', () => {
    const [active] = statusPageView(snapshot(), page(), options).activeIncidents;
    expect(active!.affected).toEqual(['Database']);
    expect(active!.href).toBe('/acme/incidents/i1/');
    expect(active!.updates.map((update) => update.message)).toEqual(['Found it', 'Looking']);
  });

  it('keeps incidents of unlinked monitors off the page, and lists recent resolved ones', () => {
    const other = incident('i2', { monitors: [{ monitor: { id: 'secret', name: 'Secret' } }] });
    const resolved = incident('i3', { status: 'resolved', resolvedAt: new Date(now.getTime() - 3_600_000).toISOString() });
    const old = incident('i4', { status: 'resolved', startedAt: '2026-10-01T00:00:00Z', resolvedAt: '2026-10-01T02:00:00Z' });
    const view = statusPageView(snapshot({ incidents: [incident('i1'), other, resolved, old] }), page(), options);
    expect(view.activeIncidents.map((item) => item.id)).toEqual(['i1']);
    expect(view.recentIncidents.map((item) => item.id)).toEqual(['i3']);
  });

  it('shows running and upcoming maintenance, and monitors under maintenance as such', () => {
    const running = window('w1', { status: 'in_progress', scheduledStart: '2026-11-22T11:00:00Z', scheduledEnd: '2026-11-22T13:00:00Z' });
    const view = statusPageView(snapshot({ maintenance: [running, window('w2')] }), page(), options);
    expect(view.runningMaintenance.map((item) => [item.id, item.affected])).toEqual([['w1', ['Website']]]);
    expect(view.upcomingMaintenance.map((item) => item.id)).toEqual(['w2']);
    expect(view.monitors[0]!.health).toBe('maintenance');
  });

  it('sanitizes branding and keeps owner CSS inside its style element', () => {
    const { branding } = statusPageView(snapshot(), page(), options);
    expect(branding.headerHtml).toBe('<strong>Hello</strong>');
    expect(branding.footerHtml).not.toContain('javascript');
    expect(branding.customCss).not.toMatch(/<\/style/i);
    expect(branding.brandCss).toContain('--pl-brand: #1a7f37');
    expect(branding.logoUrl).toBe('https://acme.example/logo.svg');
  });

  it('ignores an invalid brand color and a logo URL that is not http(s)', () => {
    const { branding } = statusPageView(snapshot(), page({ brandColor: 'red; background: url(x)', logoUrl: 'javascript:alert(1)' }), options);
    expect(branding.brandCss).toBeNull();
    expect(branding.logoUrl).toBeNull();
  });

  it('says the same an hour later with the same data: nothing is relative to the moment of rendering', () => {
    const resolved = incident('i3', { status: 'resolved', resolvedAt: new Date(now.getTime() - 3_600_000).toISOString() });
    const data = snapshot({ incidents: [incident('i1'), resolved] });
    const later = { ...options, now: new Date(now.getTime() + 3_600_000) };
    const { monitors: _first, ...first } = statusPageView(data, page(), options);
    const { monitors: _second, ...second } = statusPageView(data, page(), later);
    expect(second).toEqual(first);
    expect(first.activeIncidents[0]?.duration).toBeNull();
    expect(first.recentIncidents[0]?.duration).toMatch(/\d/);
  });

  it('marks the view stale with the time of the data shown', () => {
    const view = statusPageView(snapshot(), page(), { ...options, stale: true });
    expect(view.stale?.asOf.iso).toBe('2026-11-22T11:59:50.000Z');
  });
});

import { describe, expect, it } from 'vitest';
import { eventMail, finishMail } from '../../src/subscribers/mail-view.ts';
import { diffSnapshots } from '../../src/subscribers/snapshot-events.ts';
import { incident, monitor, now, page, snapshot, window } from '../site/view/fixtures.ts';

const later = (minutes: number) => new Date(now.getTime() + minutes * 60_000);
const keys = (before: ReturnType<typeof snapshot>, after: ReturnType<typeof snapshot>) => diffSnapshots(before, after).map((event) => event.key);

describe('diffSnapshots', () => {
  it('finds nothing between equal snapshots', () => {
    expect(keys(snapshot(), snapshot({ fetchedAt: later(1) }))).toEqual([]);
  });

  it('one event per new incident, per new update, and one for the resolution with its update', () => {
    const before = snapshot({ incidents: [] });
    const created = snapshot({ incidents: [incident('i1')], fetchedAt: later(1) });
    expect(keys(before, created)).toEqual(['incident:i1:created']);
    const base = incident('i1');
    const updated = snapshot({
      incidents: [{ ...base, updates: [...base.updates, { id: 'u3', status: 'monitoring', message: 'Fix deployed', createdAt: later(2).toISOString() }, { id: 'u4', status: 'monitoring', message: 'Still watching', createdAt: later(3).toISOString() }] }],
      fetchedAt: later(3),
    });
    expect(keys(created, updated)).toEqual(['incident:i1:update:u3', 'incident:i1:update:u4']);
    const resolved = snapshot({
      incidents: [{ ...updated.incidents[0]!, status: 'resolved', resolvedAt: later(4).toISOString(), updates: [...updated.incidents[0]!.updates, { id: 'u5', status: 'resolved', message: 'All good', createdAt: later(4).toISOString() }] }],
      fetchedAt: later(4),
    });
    const events = diffSnapshots(updated, resolved);
    expect(events.map((event) => event.key)).toEqual(['incident:i1:resolved']);
    expect(events[0]).toMatchObject({ kind: 'incident-resolved', updateId: 'u5' });
  });

  it('maintenance: scheduled when it appears, started and completed as it moves (by status or by the clock)', () => {
    const start = later(10);
    const planned = window('w1', { scheduledStart: start.toISOString(), scheduledEnd: later(70).toISOString() });
    const none = snapshot({ maintenance: [] });
    const scheduled = snapshot({ maintenance: [planned], fetchedAt: later(1) });
    expect(keys(none, scheduled)).toEqual(['maintenance:w1:scheduled']);
    // Its start passes between two loads: started, although the status still says scheduled.
    const byClock = snapshot({ maintenance: [planned], fetchedAt: later(11) });
    expect(keys(scheduled, byClock)).toEqual(['maintenance:w1:started']);
    const running = snapshot({ maintenance: [{ ...planned, status: 'in_progress' }], fetchedAt: later(12) });
    expect(keys(byClock, running)).toEqual([]);
    const done = snapshot({ maintenance: [{ ...planned, status: 'completed' }], fetchedAt: later(60) });
    expect(keys(running, done)).toEqual(['maintenance:w1:completed']);
    // A window first seen already completed, or cancelled, is nobody's news.
    expect(keys(none, snapshot({ maintenance: [{ ...planned, status: 'completed' }] }))).toEqual([]);
    expect(keys(scheduled, snapshot({ maintenance: [{ ...planned, status: 'cancelled' }], fetchedAt: later(2) }))).toEqual([]);
  });
});

describe('monitor down without an incident (optional)', () => {
  const down = (lastCheckedAt: string) => monitor('m1', 'down', { lastCheckedAt });
  const up = monitor('m1', 'up');

  it('is off unless asked; then one event per outage, none while an incident covers it', () => {
    const before = snapshot({ monitors: [up, monitor('m2', 'down')] });
    const after = snapshot({ monitors: [down('2026-11-22T12:00:30.000Z'), monitor('m2', 'down')], fetchedAt: later(1) });
    expect(keys(before, after)).toEqual([]);
    expect(diffSnapshots(before, after, { monitorDown: true }).map((event) => event.key)).toEqual(['monitor:m1:down:2026-11-22T12:00:30.000Z']);
    // Still down on the next load: nothing new.
    expect(diffSnapshots(after, snapshot({ monitors: after.monitors, fetchedAt: later(2) }), { monitorDown: true })).toEqual([]);
    // An incident already names it: the incident's mails say it.
    const covered = snapshot({ monitors: [down('2026-11-22T12:00:30.000Z')], incidents: [incident('i2', { monitors: [{ monitor: { id: 'm1', name: 'web' } }] })], fetchedAt: later(1) });
    expect(diffSnapshots(before, covered, { monitorDown: true }).filter((event) => event.kind === 'monitor-down')).toEqual([]);
  });

  it('names the component as the page does', () => {
    const before = snapshot({ monitors: [up] });
    const after = snapshot({ monitors: [down('2026-11-22T12:00:30.000Z')], fetchedAt: later(1) });
    const [event] = diffSnapshots(before, after, { monitorDown: true }).filter((item) => item.kind === 'monitor-down');
    const mail = eventMail(after, page(), event!, { origin: 'https://status.example.com', basePath: '/acme' })!;
    expect(mail.subject).toBe('[Acme Status] Down: Website');
    expect(mail.text).toContain('No incident has been opened about it yet');
  });
});

describe('eventMail', () => {
  const address = { origin: 'https://status.example.com', basePath: '/acme' };

  it('says what a visitor needs, as the page shows it, and never names a monitor the page does not show', () => {
    const after = snapshot({ fetchedAt: later(1) });
    const [event] = diffSnapshots(snapshot({ incidents: [] }), after);
    const mail = eventMail(after, after.pages[0]!, event!, address)!;
    expect(mail.subject).toBe('[Acme Status] New incident: Incident i1');
    expect(mail.text).toContain('Status: Identified');
    expect(mail.text).toContain('Impact: Major');
    expect(mail.text).toContain('Affected: Database');
    expect(mail.text).not.toContain('Secret service');
    expect(mail.text).toMatch(/Started: \d+ \w+ 2026, \d\d:\d\d UTC \(2026-11-22T10:00:00\.000Z\)/);
    expect(mail.text).toContain('https://status.example.com/acme/incidents/i1/');
    expect(mail.html).toContain('href="https://status.example.com/acme/incidents/i1/"');
  });

  it('escapes owner text in the HTML part and keeps the subject on one line', () => {
    const hostile = incident('i9', { title: 'Down\r\nBcc: victim@example.com <script>alert(1)</script>', updates: [{ id: 'x', status: 'investigating', message: '<img src=x onerror=alert(1)>', createdAt: later(1).toISOString() }] });
    const after = snapshot({ incidents: [hostile], fetchedAt: later(1) });
    const [event] = diffSnapshots(snapshot({ incidents: [] }), after);
    const mail = finishMail({ ...eventMail(after, page(), event!, address)! }, 'https://status.example.com/acme/subscribe/manage?t=abc');
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<img src=x');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(mail.text).toContain('https://status.example.com/acme/subscribe/manage?t=abc');
    expect(mail.html).toContain('background:#1a7f37');
    // The logo is decoration beside the page's name: alt-less, and the mail reads the same without it.
    expect(mail.html).toContain('<img src="https://acme.example/logo.svg" alt=""');
  });

  it('is null for a page that shows none of what the event affects', () => {
    const other = page({ id: 'p3', monitors: [{ id: 'l9', monitorId: 'm9', displayName: 'Other', sortOrder: 1 }] });
    const after = snapshot({ fetchedAt: later(1) });
    const [event] = diffSnapshots(snapshot({ incidents: [] }), after);
    expect(eventMail(after, other, event!, address)).toBeNull();
  });
});

import ICAL from 'ical.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MaintenanceWindow } from '../../../src/contract/index.ts';
import { maintenanceCalendar, windowRevision } from '../../../src/site/outputs/icalendar.ts';
import { now, snapshot, window } from '../view/fixtures.ts';
import { outputFor } from './fixtures.ts';

// `now` is 2026-11-22T12:00:00Z.
const WINDOWS: MaintenanceWindow[] = [
  window('upcoming', { status: 'scheduled', scheduledStart: '2026-11-25T10:00:00Z', scheduledEnd: '2026-11-25T12:00:00Z', createdAt: '2026-11-01T00:00:00Z', updatedAt: '2026-11-01T00:00:00Z' }),
  window('running', { status: 'in_progress', scheduledStart: '2026-11-22T11:00:00.000Z', scheduledEnd: '2026-11-22T13:00:00.000Z', createdAt: '2026-11-01T00:00:00Z', startedAt: '2026-11-22T11:00:05Z', updatedAt: '2026-11-22T11:00:05Z' }),
  window('due', { status: 'scheduled', scheduledStart: '2026-11-22T11:30:00Z', scheduledEnd: '2026-11-22T12:30:00Z' }),
  window('done', { status: 'completed', scheduledStart: '2026-11-10T01:00:00Z', scheduledEnd: '2026-11-10T02:00:00Z', createdAt: '2026-11-09T00:00:00Z', completedAt: '2026-11-10T02:00:00Z' }),
  window('off', { status: 'cancelled', scheduledStart: '2026-11-30T01:00:00Z', scheduledEnd: '2026-11-30T02:00:00Z', createdAt: '2026-11-20T00:00:00Z', updatedAt: '2026-11-21T00:00:00Z' }),
  window('lapsed', { status: 'scheduled', scheduledStart: '2026-11-01T01:00:00Z', scheduledEnd: '2026-11-01T02:00:00Z' }),
  window('odd', { status: 'paused', scheduledStart: '2026-11-23T01:00:00Z', scheduledEnd: '2026-11-23T02:00:00Z' }),
  window('unreadable', { status: 'completed', scheduledStart: 'soon', scheduledEnd: '2026-11-23T02:00:00Z' }),
  window('elsewhere', { status: 'scheduled', monitors: [{ monitor: { id: 'secret', name: 'Secret' } }] }),
];

function parse(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return { calendar, events: calendar.getAllSubcomponents('vevent').map((vevent) => ({ vevent, event: new ICAL.Event(vevent) })) };
}

const render = () => maintenanceCalendar(outputFor(snapshot({ maintenance: WINDOWS })));

describe('maintenanceCalendar', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('has the calendar properties subscribers need', () => {
    const { calendar } = parse(render());
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('prodid')).toBe('-//Porchlight//Status page maintenance//EN');
    expect(calendar.getFirstPropertyValue('calscale')).toBe('GREGORIAN');
    expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Acme Status maintenance');
    expect(calendar.getFirstProperty('refresh-interval')?.type).toBe('duration');
    expect(String(calendar.getFirstPropertyValue('refresh-interval'))).toBe('PT1H');
    expect(calendar.getFirstPropertyValue('x-published-ttl')).toBe('PT1H');
  });

  it('has one event per scheduled, running, completed or cancelled window of the page, soonest first', () => {
    const { events } = parse(render());
    expect(events.map(({ event }) => event.summary)).toEqual([
      'Window done',
      'Window running',
      'Window due',
      'Window upcoming',
      'Cancelled: Window off',
    ]);
    expect(events.map(({ vevent }) => vevent.getFirstPropertyValue('status'))).toEqual(['CONFIRMED', 'CONFIRMED', 'CONFIRMED', 'CONFIRMED', 'CANCELLED']);
  });

  it('gives the API times in UTC', () => {
    const { events } = parse(render());
    const running = events.find(({ event }) => event.summary === 'Window running')?.event;
    expect(running?.startDate.toJSDate().toISOString()).toBe('2026-11-22T11:00:00.000Z');
    expect(running?.endDate.toJSDate().toISOString()).toBe('2026-11-22T13:00:00.000Z');
    expect(running?.startDate.zone?.tzid).toBe('UTC');
    expect(render()).toContain('DTSTART:20261122T110000Z\r\n');
  });

  it('stamps events from the data; SEQUENCE is the seconds from creation to the last change, rounded up', () => {
    const { events } = parse(render());
    const byId = (summary: string) => events.find(({ event }) => event.summary === summary)?.vevent;
    expect(byId('Window upcoming')?.getFirstPropertyValue('sequence')).toBe(0);
    expect(byId('Window running')?.getFirstPropertyValue('sequence')).toBe(21 * 86_400 + 11 * 3_600 + 5);
    expect(String(byId('Window running')?.getFirstPropertyValue('dtstamp'))).toBe('2026-11-22T11:00:05Z');
    expect(String(byId('Window running')?.getFirstPropertyValue('last-modified'))).toBe('2026-11-22T11:00:05Z');
    expect(byId('Cancelled: Window off')?.getFirstPropertyValue('sequence')).toBe(86_400);
    // No createdAt or updatedAt: stamped with its start, sequence 0.
    expect(String(byId('Window due')?.getFirstPropertyValue('dtstamp'))).toBe('2026-11-22T11:30:00Z');
    expect(byId('Window due')?.getFirstPropertyValue('sequence')).toBe(0);
  });

  it('raises SEQUENCE when the window changes', () => {
    const created = { createdAt: '2026-11-01T00:00:00Z' };
    const before = windowRevision({ ...created, updatedAt: '2026-11-01T00:00:00Z' }, 0).sequence;
    const edited = windowRevision({ ...created, updatedAt: '2026-11-02T00:00:00Z' }, 0).sequence;
    const started = windowRevision({ ...created, updatedAt: '2026-11-02T00:00:00Z', startedAt: '2026-11-03T00:00:00Z' }, 0).sequence;
    expect(before).toBe(0);
    expect(before).toBeLessThan(edited);
    expect(edited).toBeLessThan(started);
    // Even a change right after creation counts.
    expect(windowRevision({ ...created, updatedAt: '2026-11-01T00:00:00.100Z' }, 0).sequence).toBe(1);
  });

  it('has stable UIDs, the same on every host', () => {
    const data = snapshot({ maintenance: WINDOWS });
    const uids = (text: string) => parse(text).events.map(({ event }) => event.uid);
    const onDomain = maintenanceCalendar(outputFor(data, { origin: 'https://status.acme.test', basePath: '' }));
    expect(uids(onDomain)).toEqual(uids(render()));
    expect(new Set(uids(render())).size).toBe(5);
    expect(onDomain).toContain('URL:https://status.acme.test/\r\n');
  });

  it('is the same bytes for the same data, whenever it is rendered (until a window lapses)', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now);
    const first = render();
    vi.setSystemTime(new Date(now.getTime() + 20 * 60_000));
    expect(maintenanceCalendar(outputFor(snapshot({ maintenance: WINDOWS }), { at: new Date() }))).toBe(first);
  });

  it('describes a window with the page\'s names for affected services and a link, escaped as TEXT', () => {
    const hostile = window('h', {
      title: 'DB; cache, and \\ more <script> 😀 שלום',
      description: 'Line one\nLine two; with, commas',
      scheduledStart: '2026-11-25T10:00:00Z',
      scheduledEnd: '2026-11-25T12:00:00Z',
      monitors: [{ monitor: { id: 'm2', name: 'db-primary' } }, { monitor: { id: 'm1', name: 'web' } }, { monitor: { id: 'secret', name: 'Secret' } }],
    });
    const text = maintenanceCalendar(outputFor(snapshot({ maintenance: [hostile] })));
    const event = parse(text).events[0]?.event;
    expect(event?.summary).toBe('DB; cache, and \\ more <script> 😀 שלום');
    expect(event?.description).toBe('Line one\nLine two; with, commas\n\nAffected: Website and Database\nStatus: Scheduled\nhttps://status.example.com/acme/');
    expect(text).toContain('SUMMARY:DB\\; cache\\, and \\\\ more <script> 😀 שלום\r\n');
  });

  it('names each window\'s state as the page and the JSON do, by its phase', () => {
    const byTitle = new Map(parse(render()).events.map(({ event }) => [event.summary, /Status: (.+)/.exec(event.description ?? '')?.[1]]));
    // 'due' is still `scheduled` in the API but inside its time: in progress, as on the HTML page.
    expect([...byTitle].find(([title]) => title?.includes('due'))?.[1]).toBe('In progress');
    expect([...byTitle].find(([title]) => title?.includes('upcoming'))?.[1]).toBe('Scheduled');
    expect([...byTitle].find(([title]) => title?.includes('done'))?.[1]).toBe('Completed');
  });

  it('uses CRLF only and no line over 75 octets', () => {
    const text = render();
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
  });
});

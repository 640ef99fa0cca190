import { describe, expect, it } from 'vitest';
import type { Incident } from '../../../src/contract/index.ts';
import type { Snapshot } from '../../../src/site/data/snapshot.ts';
import {
  activeMaintenancesDocument,
  componentsDocument,
  incidentsDocument,
  maintenancesDocument,
  STATUSPAGE_OUTPUTS,
  statusDocument,
  statuspageJson,
  statuspageOutputAt,
  summaryDocument,
  UNDATED,
  unresolvedIncidentsDocument,
  upcomingMaintenancesDocument,
} from '../../../src/site/outputs/statuspage.ts';
import { buildOutputSource, type OutputSource } from '../../../src/site/view/output-route.ts';
import { PAGE_OUTPUTS } from '../../../src/site/view/page-outputs.ts';
import { overallView } from '../../../src/site/view/status-page-view.ts';
import { incident, monitor, now, page, snapshot, window } from '../view/fixtures.ts';

const at = (hoursFromNow: number) => new Date(now.getTime() + hoursFromNow * 3_600_000).toISOString();
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function source(data: Snapshot = snapshot(), options: { domain?: boolean; pageIndex?: number } = {}): OutputSource {
  const basePath = options.domain ? '' : '/acme';
  const origin = options.domain ? 'https://status.acme.test' : 'https://status.example.com';
  return buildOutputSource(data, data.pages[options.pageIndex ?? 0]!, { basePath, now, stale: false, origin });
}

const ids = (list: readonly { id: string }[]) => list.map((entry) => entry.id);

describe('the page object', () => {
  it('names the page, its absolute home, and when anything on it last changed (from the data, not the clock)', () => {
    expect(statusDocument(source()).page).toEqual({
      id: 'p1',
      name: 'Acme Status',
      url: 'https://status.example.com/acme/',
      time_zone: 'Etc/UTC',
      // The latest update of the fixture's incidents, components and windows.
      updated_at: '2026-11-22T11:00:00.000Z',
    });
    expect(statusDocument(source(snapshot(), { domain: true })).page.url).toBe('https://status.acme.test/');
  });

  it('moves updated_at with a newer incident update', () => {
    const base = snapshot();
    const first = base.incidents[0]!;
    const later = { ...base, incidents: [{ ...first, updates: [...first.updates, { id: 'u-new', status: 'identified', message: 'x', createdAt: '2026-11-22T11:30:00Z' }] }, ...base.incidents.slice(1)] };
    expect(statusDocument(source(later)).page.updated_at).toBe('2026-11-22T11:30:00.000Z');
  });

  /** The page as an API that sends no record dates (the spec lists none for pages and monitors) gives it: nothing on it is dated. */
  function undated(extra: Partial<Snapshot> = {}): Snapshot {
    const base = snapshot();
    return snapshot({
      incidents: [],
      maintenance: [],
      monitors: base.monitors.map((monitor) => ({ ...monitor, updatedAt: undefined, createdAt: undefined, lastCheckedAt: '2026-11-22T11:59:00Z' })),
      pages: base.pages.map((page) => ({ ...page, updatedAt: undefined, createdAt: undefined })),
      ...extra,
    });
  }

  it('with nothing on the page dated, falls back to when the organization was created, else the epoch: never the fetch or check time', () => {
    const organization = { id: 'o1', name: 'Acme Cloud', slug: 'acme', logo: null, createdAt: '2025-06-01T08:00:00+02:00' };
    expect(statusDocument(source(undated({ organization }))).page.updated_at).toBe('2025-06-01T06:00:00.000Z');
    expect(statusDocument(source(undated())).page.updated_at).toBe(UNDATED);
  });

  it('gives the same bytes in every document for the same data fetched and checked again later', () => {
    for (const data of [undated(), snapshot()]) {
      const later: Snapshot = {
        ...data,
        fetchedAt: new Date(data.fetchedAt.getTime() + 3_600_000),
        // A check that found nothing new moves lastCheckedAt only.
        monitors: data.monitors.map((monitor) => ({ ...monitor, lastCheckedAt: '2026-11-22T11:59:30Z' })),
      };
      for (const output of STATUSPAGE_OUTPUTS) {
        expect(statuspageJson(output, source(later)), output).toBe(statuspageJson(output, source(data)));
      }
    }
  });
});

describe('status', () => {
  it('is the HTML banner: the same level as an indicator, the same label', () => {
    const from = source();
    expect(overallView(from.context)).toEqual({ level: 'partial_outage', label: 'Partial outage' });
    expect(statusDocument(from).status).toEqual({ indicator: 'major', description: 'Partial outage' });
  });

  it('keeps the banner wording for an unknown-only page', () => {
    const data = snapshot({ incidents: [], monitors: [monitor('m1', 'up'), monitor('m2', 'exploded')] });
    expect(statusDocument(source(data)).status).toEqual({ indicator: 'minor', description: 'Some systems have an unknown status' });
  });
});

describe('components', () => {
  it('are the linked monitors in page order, named and identified like the rows', () => {
    const data = snapshot({
      monitors: [
        monitor('m1', 'up', { createdAt: '2026-01-05T10:00:00Z', updatedAt: '2026-03-01T08:30:00+02:00' }),
        monitor('m2', 'down', { createdAt: '2026-02-01T00:00:00Z' }),
      ],
    });
    expect(componentsDocument(source(data)).components).toEqual([
      {
        id: 'm1',
        name: 'Website',
        status: 'operational',
        created_at: '2026-01-05T10:00:00.000Z',
        updated_at: '2026-03-01T06:30:00.000Z',
        position: 1,
        description: 'Operational',
        showcase: true,
        start_date: '2026-01-05',
        group_id: null,
        page_id: 'p1',
        group: false,
        only_show_if_degraded: false,
      },
      expect.objectContaining({ id: 'm2', name: 'Database', status: 'major_outage', position: 2, description: 'Down', updated_at: '2026-02-01T00:00:00.000Z' }),
    ]);
  });

  it('say paused and pending honestly while counting them operational, like the banner', () => {
    const data = snapshot({ incidents: [], monitors: [monitor('m1', 'up', { active: false }), monitor('m2', 'pending')] });
    const from = source(data);
    expect(componentsDocument(from).components.map((component) => [component.status, component.description])).toEqual([
      ['operational', 'Paused'],
      ['operational', 'Awaiting first check'],
    ]);
    expect(statusDocument(from).status.indicator).toBe('none');
  });

  it('show a running window as under maintenance, and a link to a missing monitor as degraded', () => {
    const data = snapshot({
      incidents: [],
      monitors: [monitor('m1', 'down')],
      maintenance: [window('w1', { status: 'in_progress', scheduledStart: at(-1), scheduledEnd: at(1) })],
    });
    const components = componentsDocument(source(data)).components;
    expect(components.map((component) => [component.id, component.status, component.description])).toEqual([
      ['m1', 'under_maintenance', 'Under maintenance'],
      ['m2', 'degraded_performance', 'Status unknown'],
    ]);
  });

  it('fall back to the page dates, and to null, when the monitor has none', () => {
    const withPageDate = snapshot({ pages: [page({ createdAt: '2025-12-31T23:59:59Z' })], monitors: [monitor('m1', 'up')] });
    const [first] = componentsDocument(source(withPageDate)).components;
    expect(first).toMatchObject({ created_at: '2025-12-31T23:59:59.000Z', updated_at: '2025-12-31T23:59:59.000Z', start_date: '2025-12-31' });
    const [bare] = componentsDocument(source(snapshot())).components;
    expect(bare).toMatchObject({ created_at: null, updated_at: null, start_date: null });
  });
});

describe('incidents', () => {
  const timeline: Incident['updates'] = [
    { id: 'u1', status: 'investigating', message: 'Looking', createdAt: at(-5) },
    { id: 'u3', status: 'monitoring', message: 'Fix out', createdAt: at(-3) },
    { id: 'u2', status: 'identified', message: 'Found', createdAt: at(-4) },
    { id: 'u4', status: 'monitoring', message: 'Still watching', createdAt: at(-2) },
    { id: 'u5', status: 'resolved', message: 'Fixed', createdAt: at(-1) },
  ];

  it('carry Statuspage fields, updates newest first, and only this page’s components', () => {
    const resolved = incident('i9', { status: 'resolved', severity: 'critical', startedAt: at(-5), resolvedAt: at(-1), updates: timeline });
    const [only] = incidentsDocument(source(snapshot({ incidents: [resolved] }))).incidents;
    expect(only).toEqual({
      id: 'i9',
      name: 'Incident i9',
      status: 'resolved',
      created_at: at(-5),
      updated_at: at(-1),
      monitoring_at: at(-3),
      resolved_at: at(-1),
      impact: 'critical',
      shortlink: 'https://status.example.com/acme/incidents/i9/',
      started_at: at(-5),
      page_id: 'p1',
      incident_updates: ['u5', 'u4', 'u3', 'u2', 'u1'].map((id) => expect.objectContaining({ id, incident_id: 'i9', affected_components: null })),
      components: [expect.objectContaining({ id: 'm2', name: 'Database', position: 2 })],
    });
    expect(only!.incident_updates[0]).toEqual({
      id: 'u5',
      status: 'resolved',
      body: 'Fixed',
      incident_id: 'i9',
      created_at: at(-1),
      updated_at: at(-1),
      display_at: at(-1),
      affected_components: null,
    });
  });

  it('are resolved by their status, not by a resolvedAt', () => {
    const reopened = incident('i1', { status: 'identified', resolvedAt: at(-1), createdAt: '2026-11-22T09:00:00Z', updatedAt: '2026-11-22T11:00:00Z' });
    const [only] = unresolvedIncidentsDocument(source(snapshot({ incidents: [reopened] }))).incidents;
    expect(only).toMatchObject({ status: 'identified', resolved_at: null, monitoring_at: null, created_at: '2026-11-22T09:00:00.000Z', updated_at: '2026-11-22T11:00:00.000Z' });
  });

  it('normalize odd statuses and severities the way the HTML page does', () => {
    const odd = incident('i1', { status: 'postmortem', severity: 'apocalyptic', updates: [{ id: 'u', status: 'Weird', message: 'x', createdAt: at(-1) }] });
    const [only] = incidentsDocument(source(snapshot({ incidents: [odd] }))).incidents;
    expect(only).toMatchObject({ status: 'investigating', impact: 'major', incident_updates: [{ status: 'investigating' }] });
  });

  it('lists the 50 latest in incidents.json and the active ones in unresolved.json and the summary', () => {
    const many = Array.from({ length: 55 }, (_, index) =>
      incident(`i${String(index).padStart(2, '0')}`, { status: index % 2 === 0 ? 'resolved' : 'monitoring', startedAt: at(-100 + index) }),
    );
    const from = source(snapshot({ incidents: [...many, incident('elsewhere', { monitors: [{ monitor: { id: 'secret', name: 's' } }] })] }));
    const latest = incidentsDocument(from).incidents;
    expect(latest).toHaveLength(50);
    expect(latest[0]!.id).toBe('i54');
    expect(latest.at(-1)!.id).toBe('i05');
    const unresolved = ids(unresolvedIncidentsDocument(from).incidents);
    expect(unresolved).toHaveLength(27);
    expect(unresolved[0]).toBe('i53');
    expect(ids(summaryDocument(from).incidents)).toEqual(unresolved);
    expect(latest.every((entry) => entry.components.every((component) => component.id !== 'secret'))).toBe(true);
  });

  it('write every time as Statuspage does, in UTC with milliseconds', () => {
    const [only] = incidentsDocument(source(snapshot({ incidents: [incident('i1', { startedAt: '2026-11-22T16:05:00+02:00' })] }))).incidents;
    expect(only!.started_at).toBe('2026-11-22T14:05:00.000Z');
    for (const value of [only!.created_at, only!.updated_at, ...only!.incident_updates.map((update) => update.created_at)]) expect(value).toMatch(ISO);
  });
});

describe('scheduled maintenances', () => {
  const windows = [
    window('upcoming-late', { scheduledStart: at(72), scheduledEnd: at(73) }),
    window('upcoming-soon', { scheduledStart: at(2), scheduledEnd: at(3), createdAt: at(-24) }),
    window('far', { scheduledStart: at(24 * 90), scheduledEnd: at(24 * 90 + 1) }),
    window('running-on-time', { scheduledStart: at(-1), scheduledEnd: at(1), createdAt: at(-48) }),
    window('started', { status: 'in_progress', scheduledStart: at(-3), scheduledEnd: at(-2), startedAt: at(-3), createdAt: at(-50) }),
    window('done', { status: 'completed', scheduledStart: at(-30), scheduledEnd: at(-29), startedAt: at(-30), completedAt: at(-29), createdAt: at(-60) }),
    window('cancelled', { status: 'cancelled', scheduledStart: at(5), scheduledEnd: at(6) }),
    window('lapsed', { scheduledStart: at(-10), scheduledEnd: at(-9) }),
    window('odd', { status: 'postponed', scheduledStart: at(5), scheduledEnd: at(6) }),
    window('elsewhere', { status: 'in_progress', monitors: [{ monitor: { id: 'secret', name: 's' } }] }),
  ];
  const from = source(snapshot({ maintenance: windows }));

  it('list scheduled, in progress and completed windows, latest first, leaving out what Statuspage cannot say', () => {
    const all = maintenancesDocument(from).scheduled_maintenances;
    expect(all.map((entry) => [entry.id, entry.status])).toEqual([
      ['far', 'scheduled'],
      ['upcoming-late', 'scheduled'],
      ['upcoming-soon', 'scheduled'],
      ['running-on-time', 'in_progress'],
      ['started', 'in_progress'],
      ['done', 'completed'],
    ]);
  });

  it('split into upcoming (soonest first) and active, and the summary has both', () => {
    expect(ids(upcomingMaintenancesDocument(from).scheduled_maintenances)).toEqual(['upcoming-soon', 'upcoming-late', 'far']);
    expect(ids(activeMaintenancesDocument(from).scheduled_maintenances)).toEqual(['started', 'running-on-time']);
    expect(ids(summaryDocument(from).scheduled_maintenances)).toEqual(['started', 'running-on-time', 'upcoming-soon', 'upcoming-late', 'far']);
  });

  it('carry the schedule, maintenance impact, components and one update per transition', () => {
    const done = maintenancesDocument(from).scheduled_maintenances.find((entry) => entry.id === 'done')!;
    expect(done).toEqual({
      id: 'done',
      name: 'Window done',
      status: 'completed',
      created_at: at(-60),
      updated_at: at(-29),
      monitoring_at: null,
      resolved_at: at(-29),
      impact: 'maintenance',
      shortlink: 'https://status.example.com/acme/',
      started_at: at(-30),
      page_id: 'p1',
      incident_updates: [
        { id: 'done-completed', status: 'completed', body: 'The scheduled maintenance has been completed.', incident_id: 'done', created_at: at(-29), updated_at: at(-29), display_at: at(-29), affected_components: null },
        { id: 'done-in_progress', status: 'in_progress', body: 'The scheduled maintenance is in progress.', incident_id: 'done', created_at: at(-30), updated_at: at(-30), display_at: at(-30), affected_components: null },
        { id: 'done-scheduled', status: 'scheduled', body: 'Upgrading', incident_id: 'done', created_at: at(-60), updated_at: at(-60), display_at: at(-60), affected_components: null },
      ],
      components: [expect.objectContaining({ id: 'm1', name: 'Website' })],
      scheduled_for: at(-30),
      scheduled_until: at(-29),
    });
  });

  it('date a window running on schedule from its scheduled start, and announce an upcoming one plainly', () => {
    const all = maintenancesDocument(from).scheduled_maintenances;
    const running = all.find((entry) => entry.id === 'running-on-time')!;
    expect(running.incident_updates.map((update) => [update.status, update.created_at])).toEqual([
      ['in_progress', at(-1)],
      ['scheduled', at(-48)],
    ]);
    expect(running.started_at).toBe(at(-1));
    const upcoming = all.find((entry) => entry.id === 'upcoming-soon')!;
    expect(upcoming).toMatchObject({ status: 'scheduled', resolved_at: null, updated_at: at(-24) });
    expect(upcoming.incident_updates).toHaveLength(1);
    const blank = source(snapshot({ maintenance: [window('w', { description: '  ', scheduledStart: at(2), scheduledEnd: at(3) })] }));
    expect(upcomingMaintenancesDocument(blank).scheduled_maintenances[0]!.incident_updates[0]!.body).toBe('Maintenance is scheduled.');
  });
});

describe('documents', () => {
  it('nest and order their keys like Statuspage', () => {
    const data = snapshot({ maintenance: [window('w1', { status: 'in_progress', scheduledStart: at(-1), scheduledEnd: at(1) })] });
    const summary = JSON.parse(statuspageJson('summaryJson', source(data))) as { page: object; components: object[]; incidents: { incident_updates: object[] }[]; scheduled_maintenances: object[]; status: object };
    expect(Object.keys(summary)).toEqual(['page', 'components', 'incidents', 'scheduled_maintenances', 'status']);
    expect(Object.keys(summary.page)).toEqual(['id', 'name', 'url', 'time_zone', 'updated_at']);
    expect(Object.keys(summary.status)).toEqual(['indicator', 'description']);
    expect(Object.keys(summary.components[0]!)).toEqual([
      'id', 'name', 'status', 'created_at', 'updated_at', 'position', 'description', 'showcase', 'start_date', 'group_id', 'page_id', 'group', 'only_show_if_degraded',
    ]);
    const incidentKeys = ['id', 'name', 'status', 'created_at', 'updated_at', 'monitoring_at', 'resolved_at', 'impact', 'shortlink', 'started_at', 'page_id', 'incident_updates', 'components'];
    const incident = summary.incidents[0]!;
    expect(Object.keys(incident)).toEqual(incidentKeys);
    expect(Object.keys(incident.incident_updates[0]!)).toEqual(['id', 'status', 'body', 'incident_id', 'created_at', 'updated_at', 'display_at', 'affected_components']);
    expect(Object.keys(summary.scheduled_maintenances[0]!)).toEqual([...incidentKeys, 'scheduled_for', 'scheduled_until']);
  });

  it.each([
    ['statusJson', ['page', 'status']],
    ['componentsJson', ['page', 'components']],
    ['incidentsJson', ['page', 'incidents']],
    ['unresolvedIncidentsJson', ['page', 'incidents']],
    ['maintenancesJson', ['page', 'scheduled_maintenances']],
    ['upcomingMaintenancesJson', ['page', 'scheduled_maintenances']],
    ['activeMaintenancesJson', ['page', 'scheduled_maintenances']],
  ] as const)('%s has %j', (output, keys) => {
    expect(Object.keys(JSON.parse(statuspageJson(output, source())) as object)).toEqual(keys);
  });

  it('are found by their path in PAGE_OUTPUTS and by nothing else', () => {
    expect(STATUSPAGE_OUTPUTS).toHaveLength(8);
    for (const output of STATUSPAGE_OUTPUTS) expect(statuspageOutputAt(PAGE_OUTPUTS[output])).toBe(output);
    expect(Object.values(PAGE_OUTPUTS).filter((path) => path.startsWith('api/v2/')).map(statuspageOutputAt)).not.toContain(null);
    for (const path of ['api/v2/summary', 'api/v2/Summary.json', 'api/v2/', 'summary.json', 'api/v2/incidents/../summary.json', 'history.atom']) {
      expect(statuspageOutputAt(path)).toBeNull();
    }
  });

  it('carry hostile owner and incident text exactly once through JSON', () => {
    const hostile = `"quoted" & <script>alert('x')</script> ]]> \\ \u2028 🔥 مرحبا بالعالم \u202Eevil\u202C \ud800 </`;
    const data = snapshot({
      pages: [page({ name: hostile, monitors: [{ id: 'l1', monitorId: 'm1', displayName: hostile, sortOrder: 1 }] })],
      monitors: [monitor('m1', 'down')],
      incidents: [incident('i1', { title: hostile, monitors: [{ monitor: { id: 'm1', name: 'x' } }], updates: [{ id: 'u1', status: 'investigating', message: hostile, createdAt: at(-1) }] })],
      maintenance: [window('w1', { title: hostile, description: hostile, scheduledStart: at(1), scheduledEnd: at(2) })],
    });
    const text = statuspageJson('summaryJson', source(data));
    const parsed = JSON.parse(text) as {
      page: { name: string };
      components: { name: string }[];
      incidents: { name: string; incident_updates: { body: string }[]; components: { name: string }[] }[];
      scheduled_maintenances: { name: string; incident_updates: { body: string }[] }[];
    };
    expect(parsed.page.name).toBe(hostile);
    expect(parsed.components[0]!.name).toBe(hostile);
    expect(parsed.incidents[0]!.name).toBe(hostile);
    expect(parsed.incidents[0]!.incident_updates[0]!.body).toBe(hostile);
    expect(parsed.incidents[0]!.components[0]!.name).toBe(hostile);
    expect(parsed.scheduled_maintenances[0]!.name).toBe(hostile);
    expect(parsed.scheduled_maintenances[0]!.incident_updates[0]!.body).toBe(hostile);
    // No HTML entities: JSON escapes only what JSON must, so nothing is escaped twice.
    expect(text).not.toMatch(/&(amp|lt|gt|quot|#\d+);/);
    // Well-formed even for a lone surrogate: a strict UTF-8 decoder accepts the bytes.
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(new TextEncoder().encode(text))).not.toThrow();
    expect(text).toContain('\\ud800');
  });
});

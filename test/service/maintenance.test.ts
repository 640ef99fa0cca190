import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { singleEnvelope } from '../../src/contract/common.ts';
import { maintenanceSchema } from '../../src/contract/maintenance.ts';
import { dataOf, expectError, httpMonitor, idOf, ISO_UTC_MS, listOf, startTestService, useServiceDialects, type TestService } from './helpers.ts';
import { DIALECTS } from '../support/postgres.ts';

const on = useServiceDialects();

describe.each(DIALECTS)('maintenance windows on %s', (dialect) => {
  let t: TestService;
  let db: string;
  let foreign: string;
  const window = (overrides: Record<string, unknown> = {}) => ({
    title: 'Upgrade',
    scheduledStart: '2030-05-01T10:00:00Z',
    scheduledEnd: '2030-05-01T12:00:00Z',
    monitorIds: [db],
    ...overrides,
  });
  beforeAll(async () => {
    t = await startTestService(on(dialect));
    db = idOf(await t.a.post('/monitors', { name: 'DB', type: 'tcp', host: 'db.example.com', port: 5432 }));
    foreign = idOf(await t.b.post('/monitors', httpMonitor()));
  });
  afterAll(() => t.close());

  it('creates a scheduled window with UTC timestamps and its monitors', async () => {
    const response = await t.a.post('/maintenance', window({ description: 'Engine upgrade', scheduledStart: '2030-05-01T12:00:00+02:00', scheduledEnd: '2030-05-01T14:30:00+02:00' }));
    expect(response.status).toBe(201);
    const created = singleEnvelope(maintenanceSchema).parse(response.json).data;
    expect(created).toEqual({
      id: expect.any(String),
      title: 'Upgrade',
      description: 'Engine upgrade',
      status: 'scheduled',
      scheduledStart: '2030-05-01T10:00:00.000Z',
      scheduledEnd: '2030-05-01T12:30:00.000Z',
      startedAt: null,
      completedAt: null,
      cancelledAt: null,
      monitorIds: [db],
      monitors: [{ monitor: { id: db, name: 'DB' } }],
      createdAt: expect.stringMatching(ISO_UTC_MS),
      updatedAt: expect.stringMatching(ISO_UTC_MS),
    });
  });

  it('rejects invalid windows with 400 and stores nothing', async () => {
    const before = listOf(await t.a.get('/maintenance')).pagination.total;
    const cases: [Record<string, unknown>, string[]][] = [
      [window({ title: '' }), ['title']],
      [window({ scheduledStart: 'tomorrow' }), ['scheduledStart']],
      [window({ scheduledEnd: '2030-05-01T09:00:00Z' }), ['scheduledEnd']],
      [window({ monitorIds: undefined }), ['monitorIds']],
      [window({ monitorIds: [foreign] }), ['monitorIds.0']],
      // Out of the documented time range: before 1970, after 9999 (in UTC), longer than 31 days.
      [window({ scheduledStart: '1900-01-01T00:00:00Z', scheduledEnd: '1900-01-01T02:00:00Z' }), ['scheduledStart', 'scheduledEnd']],
      [window({ scheduledStart: '1970-01-01T00:30:00+01:00', scheduledEnd: '1970-01-01T02:00:00Z' }), ['scheduledStart']],
      [window({ scheduledStart: '9999-12-31T20:00:00Z', scheduledEnd: '9999-12-31T23:00:00-05:00' }), ['scheduledEnd']],
      [window({ scheduledEnd: '+010000-01-01T00:00:00Z' }), ['scheduledEnd']],
      [window({ scheduledEnd: '2030-06-01T10:00:01Z' }), ['scheduledEnd']],
    ];
    for (const [body, paths] of cases) {
      expect(expectError(await t.a.post('/maintenance', body), 400, 'validation_error'), JSON.stringify(body)).toEqual(paths);
    }
    expect(listOf(await t.a.get('/maintenance')).pagination.total).toBe(before);
  });

  it('starts, then completes a window, and shows its monitors in maintenance meanwhile', async () => {
    const id = idOf(await t.a.post('/maintenance', window()));
    const started = await t.a.post(`/maintenance/${id}/start`);
    expect(started.status).toBe(200);
    expect(dataOf(started)).toMatchObject({ id, status: 'in_progress', startedAt: expect.stringMatching(ISO_UTC_MS) });
    expect(dataOf(await t.a.get(`/monitors/${db}`)).currentStatus).toBe('maintenance');

    expectError(await t.a.post(`/maintenance/${id}/start`), 409, 'invalid_state');
    expectError(await t.a.post(`/maintenance/${id}/cancel`), 409, 'invalid_state');
    expectError(await t.a.patch(`/maintenance/${id}`, { title: 'Late edit' }), 409, 'invalid_state');
    expectError(await t.a.delete(`/maintenance/${id}`), 409, 'invalid_state');

    const completed = await t.a.post(`/maintenance/${id}/complete`);
    expect(completed.status).toBe(200);
    expect(dataOf(completed)).toMatchObject({ status: 'completed', completedAt: expect.stringMatching(ISO_UTC_MS), title: 'Upgrade' });
    expect(dataOf(await t.a.get(`/monitors/${db}`)).currentStatus).toBe('pending');
    for (const action of ['start', 'complete', 'cancel']) expectError(await t.a.post(`/maintenance/${id}/${action}`), 409, 'invalid_state');
  });

  it('cancels only scheduled windows', async () => {
    const id = idOf(await t.a.post('/maintenance', window()));
    expectError(await t.a.post(`/maintenance/${id}/complete`), 409, 'invalid_state');
    const cancelled = await t.a.post(`/maintenance/${id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(dataOf(cancelled)).toMatchObject({ status: 'cancelled', cancelledAt: expect.stringMatching(ISO_UTC_MS), startedAt: null });
    for (const action of ['start', 'complete', 'cancel']) expectError(await t.a.post(`/maintenance/${id}/${action}`), 409, 'invalid_state');
    expectError(await t.a.patch(`/maintenance/${id}`, { title: 'x' }), 409, 'invalid_state');
    expectError(await t.a.delete(`/maintenance/${id}`), 409, 'invalid_state');
  });

  it('accepts the edges of the time range and a window of exactly 31 days', async () => {
    const edges = [
      window({ scheduledStart: '1970-01-01T00:00:00Z', scheduledEnd: '1970-01-01T01:00:00Z' }),
      window({ scheduledStart: '9999-12-31T00:00:00Z', scheduledEnd: '9999-12-31T23:59:59Z' }),
      window({ scheduledEnd: '2030-06-01T10:00:00Z' }),
    ];
    for (const body of edges) {
      const response = await t.a.post('/maintenance', body);
      expect(response.status, response.text).toBe(201);
      // Gone again, so the list test below sees only its own windows.
      expect((await t.a.delete(`/maintenance/${idOf(response)}`)).status).toBe(204);
    }
  });

  it('updates scheduled windows, checking the merged times', async () => {
    const id = idOf(await t.a.post('/maintenance', window()));
    const response = await t.a.patch(`/maintenance/${id}`, { title: 'Renamed', description: 'Now with notes', scheduledEnd: '2030-05-01T13:00:00Z', monitorIds: [] });
    expect(response.status).toBe(200);
    expect(dataOf(response)).toMatchObject({ title: 'Renamed', description: 'Now with notes', scheduledEnd: '2030-05-01T13:00:00.000Z', scheduledStart: '2030-05-01T10:00:00.000Z', monitors: [], monitorIds: [] });
    const before = dataOf(await t.a.get(`/maintenance/${id}`));
    expect(expectError(await t.a.patch(`/maintenance/${id}`, { scheduledStart: '2030-05-01T14:00:00Z' }), 400, 'validation_error')).toEqual(['scheduledEnd']);
    expect(expectError(await t.a.patch(`/maintenance/${id}`, { scheduledEnd: '2031-05-01T10:00:00Z' }), 400, 'validation_error')).toEqual(['scheduledEnd']);
    expect(expectError(await t.a.patch(`/maintenance/${id}`, { scheduledStart: '1969-12-31T23:59:59Z' }), 400, 'validation_error')).toEqual(['scheduledStart']);
    expect(expectError(await t.a.patch(`/maintenance/${id}`, { monitorIds: [foreign] }), 400, 'validation_error')).toEqual(['monitorIds.0']);
    expect(expectError(await t.a.patch(`/maintenance/${id}`, { title: 42 }), 400, 'validation_error')).toEqual(['title']);
    expect(dataOf(await t.a.get(`/maintenance/${id}`))).toEqual(before);
    expect(dataOf(await t.a.patch(`/maintenance/${id}`, { description: null })).description).toBeNull();
  });

  it('deletes scheduled windows with 204', async () => {
    const id = idOf(await t.a.post('/maintenance', window()));
    const response = await t.a.delete(`/maintenance/${id}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expectError(await t.a.get(`/maintenance/${id}`), 404, 'not_found');
    expect(Number((await t.service.store.db.get('SELECT COUNT(*) AS n FROM maintenance_monitors WHERE window_id = ?', id))?.n)).toBe(0);
  });

  it('lists windows latest start first, paginated', async () => {
    await t.a.post('/maintenance', window({ title: 'Later', scheduledStart: '2031-01-01T00:00:00Z', scheduledEnd: '2031-01-01T01:00:00Z' }));
    const page = listOf(await t.a.get('/maintenance?limit=1'));
    expect(page.items[0]).toMatchObject({ title: 'Later' });
    expect(page.pagination.hasMore).toBe(true);
    page.items.forEach((item) => maintenanceSchema.parse(item));
    expect(listOf(await t.b.get('/maintenance')).pagination.total).toBe(0);
    expectError(await t.a.get('/maintenance?limit=1000'), 400, 'validation_error');
  });

  it('404s for unknown windows on every action', async () => {
    for (const action of ['start', 'complete', 'cancel']) expectError(await t.a.post(`/maintenance/nope/${action}`), 404, 'not_found');
  });
});

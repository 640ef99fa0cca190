import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { singleEnvelope } from '../../src/contract/common.ts';
import { incidentSchema } from '../../src/contract/incident.ts';
import { dataOf, expectError, httpMonitor, idOf, ISO_UTC_MS, listOf, startTestService, useServiceDialects, type TestService } from './helpers.ts';
import { DIALECTS } from '../support/postgres.ts';

const on = useServiceDialects();

describe.each(DIALECTS)('incidents on %s', (dialect) => {
  let t: TestService;
  let clock = Date.parse('2030-03-01T10:00:00.000Z');
  let web: string;
  let foreign: string;
  const tick = (): void => {
    clock += 60_000;
  };
  beforeAll(async () => {
    t = await startTestService({ ...on(dialect), now: () => new Date(clock) });
    web = idOf(await t.a.post('/monitors', httpMonitor({ name: 'Web' })));
    foreign = idOf(await t.b.post('/monitors', httpMonitor({ name: 'Theirs' })));
  });
  afterAll(() => t.close());

  it('creates an incident with its initial update and affected monitors', async () => {
    const response = await t.a.post('/incidents', { monitorIds: [web], title: 'Outage', message: 'Looking into it' });
    expect(response.status).toBe(201);
    const incident = singleEnvelope(incidentSchema).parse(response.json).data;
    expect(incident).toEqual({
      id: expect.any(String),
      title: 'Outage',
      status: 'investigating',
      severity: 'minor',
      startedAt: '2030-03-01T10:00:00.000Z',
      resolvedAt: null,
      updates: [{ id: expect.any(String), status: 'investigating', message: 'Looking into it', createdAt: '2030-03-01T10:00:00.000Z' }],
      monitors: [{ monitor: { id: web, name: 'Web' } }],
      createdAt: expect.stringMatching(ISO_UTC_MS),
      updatedAt: expect.stringMatching(ISO_UTC_MS),
    });
  });

  it('moves through statuses by PATCH, newest update first, and sets resolvedAt', async () => {
    const id = idOf(await t.a.post('/incidents', { monitorIds: [web], title: 'Slow', message: 'Slow responses', severity: 'major' }));
    tick();
    const identified = dataOf(await t.a.patch(`/incidents/${id}`, { status: 'identified', message: 'Found it' }));
    expect(identified).toMatchObject({ status: 'identified', resolvedAt: null, severity: 'major' });
    tick();
    const resolvedResponse = await t.a.patch(`/incidents/${id}`, { status: 'resolved', message: 'Fixed' });
    expect(resolvedResponse.status).toBe(200);
    const resolved = dataOf(resolvedResponse);
    expect(resolved.status).toBe('resolved');
    expect(resolved.resolvedAt).toBe(new Date(clock).toISOString());
    expect((resolved.updates as { status: string; message: string }[]).map((u) => [u.status, u.message])).toEqual([
      ['resolved', 'Fixed'],
      ['identified', 'Found it'],
      ['investigating', 'Slow responses'],
    ]);
    expect(dataOf(await t.a.get(`/incidents/${id}`))).toEqual(resolved);

    // Reopening clears resolvedAt.
    tick();
    const reopened = dataOf(await t.a.patch(`/incidents/${id}`, { status: 'monitoring', message: 'It is back' }));
    expect(reopened).toMatchObject({ status: 'monitoring', resolvedAt: null });
    expect(reopened.updates).toHaveLength(4);
  });

  it('can be created already resolved', async () => {
    const incident = dataOf(await t.a.post('/incidents', { monitorIds: [], title: 'Blip', message: 'Over already', status: 'resolved', severity: 'critical' }));
    expect(incident).toMatchObject({ status: 'resolved', severity: 'critical', resolvedAt: new Date(clock).toISOString(), monitors: [] });
  });

  it('rejects invalid input with 400 and stores nothing', async () => {
    const before = listOf(await t.a.get('/incidents')).pagination.total;
    const cases: [Record<string, unknown>, string[]][] = [
      [{ title: 'x', message: 'y' }, ['monitorIds']],
      [{ monitorIds: [web], message: 'y' }, ['title']],
      [{ monitorIds: [web], title: 'x' }, ['message']],
      [{ monitorIds: [web], title: 'x', message: 'y', status: 'fixed' }, ['status']],
      [{ monitorIds: [web], title: 'x', message: 'y', severity: 'huge' }, ['severity']],
      [{ monitorIds: [web, foreign], title: 'x', message: 'y' }, ['monitorIds.1']],
      [{ monitorIds: ['nope'], title: 'x', message: 'y' }, ['monitorIds.0']],
    ];
    for (const [body, paths] of cases) {
      expect(expectError(await t.a.post('/incidents', body), 400, 'validation_error'), JSON.stringify(body)).toEqual(paths);
    }
    expect(listOf(await t.a.get('/incidents')).pagination.total).toBe(before);
  });

  it('requires both status and message on PATCH', async () => {
    const id = idOf(await t.a.post('/incidents', { monitorIds: [web], title: 'x', message: 'y' }));
    const before = dataOf(await t.a.get(`/incidents/${id}`));
    expect(expectError(await t.a.patch(`/incidents/${id}`, { status: 'identified' }), 400, 'validation_error')).toEqual(['message']);
    expect(expectError(await t.a.patch(`/incidents/${id}`, { message: 'hi' }), 400, 'validation_error')).toEqual(['status']);
    expect(expectError(await t.a.patch(`/incidents/${id}`, { status: 'done', message: 'hi' }), 400, 'validation_error')).toEqual(['status']);
    expect(dataOf(await t.a.get(`/incidents/${id}`))).toEqual(before);
    expectError(await t.a.patch('/incidents/nope', { status: 'identified', message: 'x' }), 404, 'not_found');
  });

  it('lists newest first with updates and monitors, paginated', async () => {
    tick();
    const newest = idOf(await t.a.post('/incidents', { monitorIds: [web], title: 'Newest', message: 'now' }));
    const page = listOf(await t.a.get('/incidents?limit=2'));
    expect(page.pagination).toMatchObject({ limit: 2, offset: 0, hasMore: true });
    expect(page.items[0]).toMatchObject({ id: newest, updates: [{ message: 'now' }], monitors: [{ monitor: { id: web, name: 'Web' } }] });
    page.items.forEach((item) => incidentSchema.parse(item));
    expect(listOf(await t.b.get('/incidents')).pagination.total).toBe(0);
    expectError(await t.a.get('/incidents?offset=x'), 400, 'validation_error');
  });

  it('deletes an incident with its updates', async () => {
    const id = idOf(await t.a.post('/incidents', { monitorIds: [web], title: 'Temp', message: 'a' }));
    await t.a.patch(`/incidents/${id}`, { status: 'resolved', message: 'b' });
    expect(await t.service.store.incidents.countUpdates(id)).toBe(2);
    const response = await t.a.delete(`/incidents/${id}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(await t.service.store.incidents.countUpdates(id)).toBe(0);
    expectError(await t.a.get(`/incidents/${id}`), 404, 'not_found');
    expect((await t.a.get(`/monitors/${web}`)).status).toBe(200);
  });

  it('notifies subscribed channels on create, update and resolve', async () => {
    await t.a.post('/notifications', { name: 'all', type: 'slack', webhookUrl: 'https://hooks.example.com/a' });
    await t.a.post('/notifications', { name: 'no-updates', type: 'email', recipientEmail: 'x@example.com', onIncidentUpdated: false });
    t.logs.length = 0;
    const id = idOf(await t.a.post('/incidents', { monitorIds: [], title: 'Noisy', message: 'a' }));
    await t.a.patch(`/incidents/${id}`, { status: 'identified', message: 'b' });
    await t.a.patch(`/incidents/${id}`, { status: 'resolved', message: 'c' });
    const lineFor = (event: string) => t.logs.find((line) => line.includes(event)) ?? '';
    expect(lineFor('onIncidentCreated')).toMatch(/slack:"all".*email:"no-updates"/);
    expect(lineFor('onIncidentUpdated')).toContain('slack:"all"');
    expect(lineFor('onIncidentUpdated')).not.toContain('no-updates');
    expect(lineFor('onIncidentResolved')).toContain('email:"no-updates"');
  });
});

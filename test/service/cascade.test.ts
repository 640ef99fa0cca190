import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, httpMonitor, idOf, startTestService, useServiceDialects, type TestService } from './helpers.ts';
import { DIALECTS } from '../support/postgres.ts';

const on = useServiceDialects();

describe.each(DIALECTS)('deleting a monitor on %s', (dialect) => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService(on(dialect));
  });
  afterAll(() => t.close());

  it('removes its checks and its page, incident and maintenance links, and nothing else', async () => {
    const doomed = idOf(await t.a.post('/monitors', httpMonitor({ name: 'Doomed' })));
    const kept = idOf(await t.a.post('/monitors', httpMonitor({ name: 'Kept' })));
    const store = t.service.store;
    for (const monitorId of [doomed, kept]) {
      await store.checks.insert({ monitorId, status: 'up', latency: 10, statusCode: 200, region: 'eu', checkedAt: new Date().toISOString(), error: null });
    }
    const page = idOf(await t.a.post('/status-pages', { name: 'P', slug: 'p', monitors: [{ monitorId: doomed }, { monitorId: kept }] }));
    const incident = idOf(await t.a.post('/incidents', { monitorIds: [doomed, kept], title: 'I', message: 'm' }));
    const window = idOf(await t.a.post('/maintenance', { title: 'W', scheduledStart: '2030-01-01T00:00:00Z', scheduledEnd: '2030-01-01T01:00:00Z', monitorIds: [doomed, kept] }));

    expect((await t.a.delete(`/monitors/${doomed}`)).status).toBe(204);

    expect(await store.checks.count(doomed)).toBe(0);
    expect(await store.checks.count(kept)).toBe(1);
    expect((dataOf(await t.a.get(`/status-pages/${page}`)).monitors as { monitorId: string }[]).map((link) => link.monitorId)).toEqual([kept]);
    expect(dataOf(await t.a.get(`/incidents/${incident}`)).monitors).toEqual([{ monitor: { id: kept, name: 'Kept' } }]);
    expect(dataOf(await t.a.get(`/incidents/${incident}`)).updates).toHaveLength(1);
    expect(dataOf(await t.a.get(`/maintenance/${window}`))).toMatchObject({ monitorIds: [kept] });
  });
});

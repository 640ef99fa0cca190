import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, httpMonitor, idOf, startTestService, useServiceDialects, type TestService } from './helpers.ts';
import { DIALECTS } from '../support/postgres.ts';

const on = useServiceDialects();

interface Ids {
  monitor: string;
  page: string;
  incident: string;
  window: string;
  channel: string;
}

type Call = [method: string, path: string, body?: unknown];

/** Every endpoint of the API, with a valid body where it takes one. */
function everyEndpoint(ids: Ids): Call[] {
  return [
    ['GET', '/monitors'],
    ['POST', '/monitors', httpMonitor({ name: 'intruder' })],
    ['GET', `/monitors/${ids.monitor}`],
    ['PATCH', `/monitors/${ids.monitor}`, { name: 'hijacked' }],
    ['DELETE', `/monitors/${ids.monitor}`],
    ['GET', `/monitors/${ids.monitor}/checks`],
    ['POST', `/monitors/${ids.monitor}/run`],
    ['GET', '/status-pages'],
    ['POST', '/status-pages', { name: 'intruder', slug: 'intruder' }],
    ['GET', `/status-pages/${ids.page}`],
    ['PATCH', `/status-pages/${ids.page}`, { name: 'hijacked' }],
    ['DELETE', `/status-pages/${ids.page}`],
    ['GET', '/incidents'],
    ['POST', '/incidents', { monitorIds: [], title: 'intruder', message: 'x' }],
    ['GET', `/incidents/${ids.incident}`],
    ['PATCH', `/incidents/${ids.incident}`, { status: 'resolved', message: 'hijacked' }],
    ['DELETE', `/incidents/${ids.incident}`],
    ['GET', '/maintenance'],
    ['POST', '/maintenance', { title: 'intruder', scheduledStart: '2030-01-01T00:00:00Z', scheduledEnd: '2030-01-01T01:00:00Z', monitorIds: [] }],
    ['GET', `/maintenance/${ids.window}`],
    ['PATCH', `/maintenance/${ids.window}`, { title: 'hijacked' }],
    ['DELETE', `/maintenance/${ids.window}`],
    ['POST', `/maintenance/${ids.window}/start`],
    ['POST', `/maintenance/${ids.window}/complete`],
    ['POST', `/maintenance/${ids.window}/cancel`],
    ['GET', '/organization'],
    ['GET', '/notifications'],
    ['POST', '/notifications', { name: 'intruder', type: 'email', recipientEmail: 'x@example.com' }],
    ['GET', `/notifications/${ids.channel}`],
    ['PATCH', `/notifications/${ids.channel}`, { name: 'hijacked' }],
    ['DELETE', `/notifications/${ids.channel}`],
  ];
}

describe.each(DIALECTS)('access control on every endpoint on %s', (dialect) => {
  let t: TestService;
  let ids: Ids;

  /** Everything organization A can see, to prove nothing changed. */
  const snapshotOfA = async (): Promise<string[]> => {
    const paths = [
      '/monitors?limit=100',
      `/monitors/${ids.monitor}/checks`,
      '/status-pages?limit=100',
      '/incidents?limit=100',
      '/maintenance?limit=100',
      '/notifications?limit=100',
      '/organization',
    ];
    return Promise.all(paths.map(async (path) => (await t.a.get(path)).text));
  };

  beforeAll(async () => {
    // The monitor's target is a closed loopback port (nothing leaves the machine): private targets are allowed.
    t = await startTestService({ ...on(dialect), allowPrivateTargets: true });
    const monitor = idOf(await t.a.post('/monitors', httpMonitor({ url: 'http://127.0.0.1:9/never-called' })));
    ids = {
      monitor,
      page: idOf(await t.a.post('/status-pages', { name: 'A', slug: 'org-a', monitors: [{ monitorId: monitor }] })),
      incident: idOf(await t.a.post('/incidents', { monitorIds: [monitor], title: 'A incident', message: 'x' })),
      window: idOf(await t.a.post('/maintenance', { title: 'A window', scheduledStart: '2030-01-01T00:00:00Z', scheduledEnd: '2030-01-01T01:00:00Z', monitorIds: [monitor] })),
      channel: idOf(await t.a.post('/notifications', { name: 'A channel', type: 'slack', webhookUrl: 'https://hooks.example.com/a' })),
    };
  });
  afterAll(() => t.close());

  it('answers 401 without a key and with a wrong key, and changes nothing', async () => {
    const before = await snapshotOfA();
    for (const [method, path, body] of everyEndpoint(ids)) {
      for (const key of [null, 'pl_wrongwrongwrongwrongwrongwrongwron']) {
        const response = await t.anonymous.request(method, path, { key, body });
        expectError(response, 401, 'unauthorized');
        expect(response.headers.get('www-authenticate'), `${method} ${path}`).toMatch(/^Bearer/);
      }
    }
    expect(await snapshotOfA()).toEqual(before);
  });

  it("answers 404 to another organization for every one of A's resources, and changes nothing", async () => {
    const before = await snapshotOfA();
    for (const [method, path, body] of everyEndpoint(ids)) {
      if (!Object.values(ids).some((id) => path.includes(id))) continue;
      expectError(await t.b.request(method, path, { body }), 404, 'not_found');
    }
    expect(await snapshotOfA()).toEqual(before);
  });

  it("rejects A's monitor ids in B's links with 400", async () => {
    expectError(await t.b.post('/status-pages', { name: 'B', slug: 'org-b', monitors: [{ monitorId: ids.monitor }] }), 400, 'validation_error');
    expectError(await t.b.post('/incidents', { monitorIds: [ids.monitor], title: 'B', message: 'x' }), 400, 'validation_error');
    expectError(await t.b.post('/maintenance', { title: 'B', scheduledStart: '2030-01-01T00:00:00Z', scheduledEnd: '2030-01-01T01:00:00Z', monitorIds: [ids.monitor] }), 400, 'validation_error');
  });

  it('serves the same resources to their owner (so the 404s above are about ownership)', async () => {
    for (const [method, path] of everyEndpoint(ids)) {
      if (method !== 'GET') continue;
      expect((await t.a.get(path)).status, path).toBe(200);
    }
  });
});

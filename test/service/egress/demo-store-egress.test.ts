/**
 * A demo store is still multi-tenant (issue 17, item 2, reproduced as `npm start` plus
 * `npm run create-org`): with ALLOW_PRIVATE_TARGETS unset, only the organization the demo seed
 * created may aim checks and webhooks at this machine; an organization created beside it is held to
 * the egress policy when saving and when connecting. Only loopback peers are ever connected to.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createChannelSchema } from '../../../src/contract/notification.ts';
import { createMonitorSchema } from '../../../src/contract/monitor.ts';
import type { ServiceOptions } from '../../../src/service/index.ts';
import { startTargetServer, type TargetServer } from '../checks/target-server.ts';
import { startEngineService } from '../engine/harness.ts';
import { Client, dataOf, expectError, idOf, startTestService, type TestService } from '../helpers.ts';

let t: TestService | null = null;
let target: TargetServer | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
  await target?.close();
  target = null;
});

/** A demo store, then organizations A and B created in it, as `npm run create-org` does. */
async function demoStore(options: Partial<ServiceOptions> = {}): Promise<{ t: TestService; demo: Client }> {
  t = await startTestService({ seedDemo: true, ...options });
  const key = t.service.demo?.apiKey;
  if (!key) throw new Error('no demo organization');
  return { t, demo: new Client(t.service.url, key) };
}

async function loopbackTarget(): Promise<TargetServer> {
  target = await startTargetServer();
  return target;
}

const bodyOracle = [{ type: 'body', operator: 'contains', value: 'operational' }];

describe('a second organization in a demo store (ALLOW_PRIVATE_TARGETS unset)', () => {
  it('is refused loopback, metadata and private targets when saving, with the field named', async () => {
    const { t: test } = await demoStore();
    const apiPort = new URL(test.service.url).port;
    const refused: [Record<string, unknown>, string][] = [
      [{ type: 'http', url: `http://127.0.0.1:${apiPort}/api/v1/organization` }, 'url'],
      [{ type: 'http', url: 'http://169.254.169.254/latest/meta-data/' }, 'url'],
      [{ type: 'http', url: 'http://localhost:22/' }, 'url'],
      [{ type: 'http', url: 'http://10.0.0.1/' }, 'url'],
      [{ type: 'tcp', host: '127.0.0.1', port: 22 }, 'host'],
      [{ type: 'ping', host: '192.168.1.1' }, 'host'],
    ];
    for (const [fields, field] of refused) {
      // active: false as well: were it saved, nothing would be contacted.
      const response = await test.a.post('/monitors', { name: 'Probe', active: false, ...fields });
      expect(expectError(response, 400, 'validation_error'), JSON.stringify(fields)).toEqual([field]);
    }
    expect(expectError(await test.b.post('/notifications', { name: 'Hook', type: 'slack', webhookUrl: 'http://127.0.0.1:9/hook', enabled: false }), 400, 'validation_error')).toEqual(['webhookUrl']);
    expect((await test.a.get('/monitors')).json).toMatchObject({ data: [] });
    expect((await test.b.get('/notifications')).json).toMatchObject({ data: [] });
    expect(test.service.privateTargets).toBe('demo');
  });

  it("is refused at connect time, while the demo organization's own loopback monitors keep working", async () => {
    const peer = await loopbackTarget();
    const { t: test, demo } = await demoStore({ resolver: async () => [{ address: '127.0.0.1', family: 4 }] });
    const url = `${peer.url}/`;

    const demoMonitor = idOf(await demo.post('/monitors', { name: 'Local', type: 'http', url, rules: bodyOracle }));
    expect(dataOf(await demo.post(`/monitors/${demoMonitor}/run`))).toMatchObject({ status: 'up', statusCode: 200 });
    const demoTcp = idOf(await demo.post('/monitors', { name: 'Local TCP', type: 'tcp', host: '127.0.0.1', port: Number(new URL(peer.url).port) }));
    expect(dataOf(await demo.post(`/monitors/${demoTcp}/run`))).toMatchObject({ status: 'up' });
    const seen = peer.received.length;

    // Saved before the policy (straight into the store), and a name that resolves to loopback.
    const legacy = await test.service.store.monitors.insert(test.orgA.organizationId, createMonitorSchema.parse({ name: 'Legacy', type: 'http', url, rules: bodyOracle }), new Date());
    expect(dataOf(await test.a.post(`/monitors/${legacy.id}/run`))).toMatchObject({ status: 'down', statusCode: null, error: expect.stringMatching(/^refused: 127\.0\.0\.1 is not a public address \(loopback\)/) });
    const named = idOf(await test.a.post('/monitors', { name: 'Named', type: 'tcp', host: 'db.example.test', port: Number(new URL(peer.url).port) }));
    expect(dataOf(await test.a.post(`/monitors/${named}/run`))).toMatchObject({ status: 'down', error: expect.stringMatching(/^refused: db\.example\.test resolves to an address that is not public/) });
    expect(peer.received.length).toBe(seen);
  });

  it("has its chat webhook refused at delivery, while the demo organization's is delivered", async () => {
    const peer = await loopbackTarget();
    const { t: test, demo } = await demoStore({ notifications: { deliver: true, retryDelaysMs: [10] } });
    const hook = `${peer.url}/echo`;
    const demoChannel = idOf(await demo.post('/notifications', { name: 'Local', type: 'slack', webhookUrl: hook }));
    const legacy = await test.service.store.notifications.insert(test.orgA.organizationId, createChannelSchema.parse({ name: 'Legacy', type: 'slack', webhookUrl: hook }), new Date());

    await demo.post('/incidents', { title: 'Demo down', message: 'Looking.', monitorIds: [] });
    await test.a.post('/incidents', { title: 'A down', message: 'Looking.', monitorIds: [] });
    await vi.waitFor(async () => {
      expect(await test.service.store.deliveries.forChannel(demoChannel)).toMatchObject([{ outcome: 'delivered' }]);
      expect(await test.service.store.deliveries.forChannel(legacy.id)).toMatchObject([{ outcome: 'failed', willRetry: false, error: expect.stringMatching(/^refused: 127\.0\.0\.1 is not a public address/) }]);
    });
    expect(peer.received.map((request) => request.url)).toEqual(['/echo']);
  });

  it("may still post to the site's own origin, which the launcher trusts (the push channel)", async () => {
    const peer = await loopbackTarget();
    const { t: test } = await demoStore({ notifications: { deliver: true, retryDelaysMs: [] } });
    test.service.setSiteUrl(peer.url);
    const channel = idOf(await test.a.post('/notifications', { name: 'Push', type: 'slack', webhookUrl: `${peer.url}/echo` }));
    expect(expectError(await test.a.post('/notifications', { name: 'Other port', type: 'slack', webhookUrl: `http://127.0.0.1:${Number(new URL(peer.url).port) + 1}/` }), 400, 'validation_error')).toEqual(['webhookUrl']);
    await test.a.post('/incidents', { title: 'A down', message: 'Looking.', monitorIds: [] });
    await vi.waitFor(async () => expect(await test.service.store.deliveries.forChannel(channel)).toMatchObject([{ outcome: 'delivered' }]));
    expect(peer.received.map((request) => request.url)).toEqual(['/echo']);
  });

  it('is refused by the scheduler too, which knows each monitor’s organization', async () => {
    const peer = await loopbackTarget();
    const engine = await startEngineService({ seedDemo: true, allowPrivateTargets: undefined, resolver: async () => [{ address: '127.0.0.1', family: 4 }] });
    t = engine;
    const demo = new Client(engine.service.url, engine.service.demo?.apiKey ?? '');
    const url = `http://scheduled.example.test:${new URL(peer.url).port}/`;
    const ofDemo = idOf(await demo.post('/monitors', { name: 'Scheduled', type: 'http', url, interval: 30 }));
    const ofA = idOf(await engine.a.post('/monitors', { name: 'Scheduled', type: 'http', url, interval: 30 }));
    engine.clock.advance(0);
    await vi.waitFor(async () => expect([await engine.checks(ofDemo), await engine.checks(ofA)]).toEqual([1, 1]));
    const latest = async (id: string) => (await engine.service.store.checks.list(id, { limit: 1, offset: 0 }))[0];
    expect(await latest(ofDemo)).toMatchObject({ status: 'up' });
    expect(await latest(ofA)).toMatchObject({ status: 'down', error: expect.stringMatching(/^refused: scheduled\.example\.test resolves/) });
    expect(peer.received.filter((request) => request.headers.host?.startsWith('scheduled.example.test'))).toHaveLength(1);
  });
});

describe('ALLOW_PRIVATE_TARGETS set in a demo store', () => {
  it('true lifts the policy for every organization', async () => {
    const { t: test } = await demoStore({ allowPrivateTargets: true });
    expect((await test.a.post('/monitors', { name: 'Local', type: 'tcp', host: '127.0.0.1', port: 9, active: false })).status).toBe(201);
    expect(test.service.privateTargets).toBe('all');
  });

  it('false holds the demo organization too', async () => {
    const peer = await loopbackTarget();
    const { demo, t: test } = await demoStore({ allowPrivateTargets: false });
    expect(expectError(await demo.post('/monitors', { name: 'Local', type: 'http', url: `${peer.url}/`, active: false }), 400, 'validation_error')).toEqual(['url']);
    // The demo's seeded local monitor (this API's /health) is refused when connecting.
    const api = await test.service.store.demoTargets.monitorFor('api');
    if (!api) throw new Error('no demo API monitor');
    expect(dataOf(await demo.post(`/monitors/${api}/run`))).toMatchObject({ status: 'down', error: expect.stringMatching(/^refused: 127\.0\.0\.1/) });
    expect(test.service.privateTargets).toBe('none');
  });
});

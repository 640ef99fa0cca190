/**
 * Porchlight's push channel against the real embedded service, over real sockets: created once,
 * never duplicated, updated when its URL changes, and actually delivered to over loopback.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, type ApiClient, type NotificationChannel } from '../../../src/api/index.ts';
import { EVENT_FLAGS } from '../../../src/contract/index.ts';
import { ensurePushChannel } from '../../../src/server/push/push-channel.ts';
import { createPushReceiver, type PushReceiver } from '../../../src/server/push/push-receiver.ts';
import { planPush, pushChannelName, pushUrl } from '../../../src/server/push/push-setup.ts';
import { createOrganization, startService, type RunningService } from '../../../src/service/index.ts';

let service: RunningService;
let client: ApiClient;
let site: Server;
let siteOrigin: string;
let receiver: PushReceiver;
let pushes: (string | null)[];
const TOKEN = 'push-token-for-tests-0123456789abcdef';

beforeAll(async () => {
  service = await startService({ databasePath: ':memory:', seedDemo: false, scheduler: false, log: () => undefined, notifications: { retryDelaysMs: [] } });
  const { apiKey } = await createOrganization(service.store, { name: 'Push Co', plan: 'pro' });
  client = createClient({ baseUrl: service.url, apiKey, maxRetries: 0 });
  site = createServer((req, res) => receiver.handle(req, res));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  // As the launcher does: the API's egress policy allows the site's own origin (and no other loopback address).
  service.setSiteUrl(siteOrigin);
});

afterAll(async () => {
  await client.close();
  await service.close();
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
});

beforeEach(async () => {
  pushes = [];
  receiver = createPushReceiver({ token: TOKEN, onPush: (kind) => pushes.push(kind) });
  for await (const channel of client.notifications.listAll()) await client.notifications.delete(channel.id);
});

async function channels(): Promise<NotificationChannel[]> {
  const all: NotificationChannel[] = [];
  for await (const channel of client.notifications.listAll()) all.push(channel);
  return all;
}

describe('the push channel', () => {
  it('is created once, with every event flag on, and never duplicated by later starts', async () => {
    const spec = { name: pushChannelName(null), webhookUrl: pushUrl(siteOrigin, TOKEN) };
    expect((await ensurePushChannel(client.notifications, spec)).outcome).toBe('created');
    expect((await ensurePushChannel(client.notifications, spec)).outcome).toBe('unchanged');
    expect((await ensurePushChannel(client.notifications, spec)).outcome).toBe('unchanged');
    const all = await channels();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ name: 'Porchlight live updates', type: 'slack', enabled: true, webhookUrl: spec.webhookUrl });
    for (const flag of EVENT_FLAGS) expect(all[0]![flag]).toBe(true);
  });

  it('is updated in place when its URL changed (another port or token), and switched back on', async () => {
    const name = pushChannelName(null);
    // The site of an earlier start, on another port.
    service.setSiteUrl('http://127.0.0.1:1');
    const { id } = await ensurePushChannel(client.notifications, { name, webhookUrl: pushUrl('http://127.0.0.1:1', TOKEN) });
    await client.notifications.update(id, { enabled: false, onIncidentUpdated: false });
    const again = await ensurePushChannel(client.notifications, { name, webhookUrl: pushUrl(siteOrigin, TOKEN) });
    expect(again).toEqual({ outcome: 'updated', id });
    const all = await channels();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ webhookUrl: pushUrl(siteOrigin, TOKEN), enabled: true, onIncidentUpdated: true });
  });

  it("leaves the organization's other channels alone, and keeps one per public address", async () => {
    await client.notifications.create({ name: 'Ops', type: 'slack', webhookUrl: 'https://hooks.example.test/ops' });
    await ensurePushChannel(client.notifications, { name: pushChannelName('https://status.example.com'), webhookUrl: pushUrl('https://status.example.com', TOKEN) });
    await ensurePushChannel(client.notifications, { name: pushChannelName('https://staging.example.com'), webhookUrl: pushUrl('https://staging.example.com', TOKEN) });
    const names = (await channels()).map((channel) => channel.name).sort();
    expect(names).toEqual(['Ops', 'Porchlight live updates (staging.example.com)', 'Porchlight live updates (status.example.com)']);
  });

  it('is refused on a loopback origin that is not the site the API was told about', async () => {
    await expect(ensurePushChannel(client.notifications, { name: pushChannelName(null), webhookUrl: pushUrl('http://127.0.0.1:2', TOKEN) })).rejects.toThrow(/validation|not a public address/);
    expect(await channels()).toHaveLength(0);
  });

  it('carries events from the service to the push route over loopback', async () => {
    await ensurePushChannel(client.notifications, { name: pushChannelName(null), webhookUrl: pushUrl(siteOrigin, TOKEN) });
    const monitor = await client.monitors.create({ name: 'Web', type: 'http', url: 'https://example.test/' });
    await client.incidents.create({ title: 'Broken', message: 'Looking.', monitorIds: [monitor.id] });
    await expect.poll(() => pushes).toEqual(['onIncidentCreated']);
    expect(receiver.counts.accepted).toBe(1);
  });
});

describe('when push is on', () => {
  it('is on with the embedded API, on with an external one only given SITE_PUBLIC_URL, and off when switched off', () => {
    expect(planPush({ enabled: true, embedded: true, publicUrl: null })).toMatchObject({ on: true, publicUrl: null });
    expect(planPush({ enabled: true, embedded: false, publicUrl: 'https://status.example.com' })).toMatchObject({ on: true, publicUrl: 'https://status.example.com', name: 'Porchlight live updates (status.example.com)' });
    expect(planPush({ enabled: true, embedded: false, publicUrl: null })).toMatchObject({ on: false, reason: expect.stringMatching(/SITE_PUBLIC_URL.*polling-only/) });
    expect(planPush({ enabled: false, embedded: true, publicUrl: null })).toMatchObject({ on: false });
    // Replicas on one DATABASE_URL keep one channel at the balancer, not each its own loopback one.
    expect(planPush({ enabled: true, embedded: true, publicUrl: 'https://status.example.com', shared: true })).toMatchObject({ on: true, publicUrl: 'https://status.example.com', name: 'Porchlight live updates (status.example.com)' });
    expect(planPush({ enabled: true, embedded: true, publicUrl: 'https://status.example.com', shared: false })).toMatchObject({ on: true, publicUrl: null });
    expect(planPush({ enabled: true, embedded: true, publicUrl: null, shared: true })).toMatchObject({ on: true, publicUrl: null });
  });
});

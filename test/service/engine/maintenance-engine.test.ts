import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTargetServer, type TargetServer } from '../checks/target-server.ts';
import { dataOf, idOf, listOf } from '../helpers.ts';
import { startEngineService, type EngineTest } from './harness.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';

const settle = (ms = 100) => new Promise((resolve) => setTimeout(resolve, ms));
const at = (offsetMs: number) => new Date(Date.parse('2030-01-01T00:00:00.000Z') + offsetMs).toISOString();

describe('maintenance and the engine', () => {
  let t: EngineTest;
  let target: TargetServer;
  let hooks: WebhookReceiver;
  beforeEach(async () => {
    target = await startTargetServer();
    hooks = await startWebhookReceiver();
    t = await startEngineService();
    await t.a.post('/notifications', { name: 'all', type: 'slack', webhookUrl: hooks.url('/all') });
  });
  afterEach(async () => {
    await t.close();
    await hooks.close();
    await target.close();
  });
  const events = () => hooks.forPath('/all').map((hook) => hook.event);

  it('keeps monitors in a running window under maintenance, with no down alert and no incident', async () => {
    target.mode = 'error';
    const inside = idOf(await t.a.post('/monitors', { name: 'Inside', type: 'http', url: `${target.url}/`, interval: 30, autoIncidents: true }));
    const outside = idOf(await t.a.post('/monitors', { name: 'Outside', type: 'http', url: `${target.url}/`, interval: 30 }));
    const window = idOf(await t.a.post('/maintenance', { title: 'Upgrade', scheduledStart: at(3_600_000), scheduledEnd: at(7_200_000), monitorIds: [inside] }));
    await t.a.post(`/maintenance/${window}/start`);
    for (let round = 1; round <= 3; round++) {
      t.clock.advance(round === 1 ? 0 : 30_000);
      await vi.waitFor(async () => expect([await t.checks(inside), await t.checks(outside)]).toEqual([round, round]));
    }
    expect(dataOf(await t.a.get(`/monitors/${inside}`))).toMatchObject({ currentStatus: 'maintenance', lastStatus: 'down' });
    expect(dataOf(await t.a.get(`/monitors/${outside}`))).toMatchObject({ currentStatus: 'down' });
    await vi.waitFor(async () => expect(events()).toContain('onMonitorDown'));
    await settle();
    expect(events()).toEqual(['onMaintenanceScheduled', 'onMaintenanceStarted', 'onMonitorDown']);
    const downHook = hooks.forPath('/all').find((hook) => hook.event === 'onMonitorDown');
    expect(String(downHook?.body.text)).toContain('Outside');
    expect(listOf(await t.a.get('/incidents')).items).toEqual([]);

    // Once the window completes the monitor shows its real health; the outage during the window is not re-announced.
    await t.a.post(`/maintenance/${window}/complete`);
    expect(dataOf(await t.a.get(`/monitors/${inside}`)).currentStatus).toBe('down');
    t.clock.advance(30_000);
    await vi.waitFor(async () => expect(await t.checks(inside)).toBe(4));
    await settle();
    expect(events()).toEqual(['onMaintenanceScheduled', 'onMaintenanceStarted', 'onMonitorDown', 'onMaintenanceCompleted']);
  });

  it('starts windows at their scheduled start and completes them at their scheduled end', async () => {
    const monitor = idOf(await t.a.post('/monitors', { name: 'DB', type: 'tcp', host: '127.0.0.1', port: 9, interval: 60 }));
    const window = idOf(await t.a.post('/maintenance', { title: 'Planned', scheduledStart: at(60_000), scheduledEnd: at(120_000), monitorIds: [monitor] }));
    // A far-away window does not make the clock oversleep the near one.
    await t.a.post('/maintenance', { title: 'Later', scheduledStart: at(86_400_000), scheduledEnd: at(90_000_000), monitorIds: [] });
    t.clock.advance(59_999);
    expect(dataOf(await t.a.get(`/maintenance/${window}`)).status).toBe('scheduled');
    t.clock.advance(1);
    expect(dataOf(await t.a.get(`/maintenance/${window}`))).toMatchObject({ status: 'in_progress', startedAt: at(60_000) });
    t.clock.advance(60_000);
    expect(dataOf(await t.a.get(`/maintenance/${window}`))).toMatchObject({ status: 'completed', completedAt: at(120_000) });
    await vi.waitFor(async () => expect(events()).toEqual(['onMaintenanceScheduled', 'onMaintenanceScheduled', 'onMaintenanceStarted', 'onMaintenanceCompleted']));
    const started = hooks.forPath('/all')[2];
    expect(JSON.stringify(started?.body.blocks)).toContain('moved by its scheduled time');
  });

  it('starts a window created after its start time right away, and sends nothing when a window is cancelled', async () => {
    const late = idOf(await t.a.post('/maintenance', { title: 'Late', scheduledStart: at(-60_000), scheduledEnd: at(600_000), monitorIds: [] }));
    expect(dataOf(await t.a.get(`/maintenance/${late}`)).status).toBe('in_progress');
    const cancelled = idOf(await t.a.post('/maintenance', { title: 'Cancelled', scheduledStart: at(60_000), scheduledEnd: at(120_000), monitorIds: [] }));
    await t.a.post(`/maintenance/${cancelled}/cancel`);
    t.clock.advance(600_000);
    expect(dataOf(await t.a.get(`/maintenance/${cancelled}`)).status).toBe('cancelled');
    expect(dataOf(await t.a.get(`/maintenance/${late}`)).status).toBe('completed');
    await vi.waitFor(async () => expect(events()).toHaveLength(4));
    await settle();
    expect(events()).toEqual(['onMaintenanceScheduled', 'onMaintenanceStarted', 'onMaintenanceScheduled', 'onMaintenanceCompleted']);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTargetServer, type TargetServer } from '../checks/target-server.ts';
import { dataOf, idOf, listOf } from '../helpers.ts';
import { startEngineService, type EngineTest } from './harness.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';

describe('automatic incidents', () => {
  let t: EngineTest;
  let target: TargetServer;
  let hooks: WebhookReceiver;
  let checkCount = 0;
  beforeEach(async () => {
    target = await startTargetServer();
    hooks = await startWebhookReceiver();
    t = await startEngineService();
    checkCount = 0;
    await t.a.post('/notifications', { name: 'incidents', type: 'slack', webhookUrl: hooks.url('/incidents'), onMonitorDown: false, onMonitorRecovered: false });
  });
  afterEach(async () => {
    await t.close();
    await hooks.close();
    await target.close();
  });

  /** Four monitors on one page; only `Checkout` is checked (the others are paused). */
  const setup = async (autoIncidents: boolean) => {
    const id = idOf(await t.a.post('/monitors', { name: 'Checkout', type: 'http', url: `${target.url}/`, interval: 30, timeout: 2, autoIncidents }));
    const others = [];
    for (const name of ['A', 'B', 'C']) {
      const other = idOf(await t.a.post('/monitors', { name, type: 'http', url: `${target.url}/landed` }));
      await t.a.patch(`/monitors/${other}`, { active: false });
      others.push(other);
    }
    await t.a.post('/status-pages', { name: 'Shop', slug: 'shop', monitors: [id, ...others].map((monitorId) => ({ monitorId })) });
    return id;
  };
  const check = async (id: string, mode: TargetServer['mode']) => {
    target.mode = mode;
    t.clock.advance(checkCount === 0 ? 0 : 30_000);
    checkCount++;
    await vi.waitFor(async () => expect(await t.checks(id)).toBe(checkCount));
  };
  const incidents = async () => listOf(await t.a.get('/incidents')).items;

  it('opens an incident when the monitor goes down and resolves it with an update when it recovers', async () => {
    const id = await setup(true);
    await check(id, 'up');
    await check(id, 'error');
    expect(await incidents()).toEqual([]);
    await check(id, 'error');
    const [opened, ...rest] = await incidents();
    expect(rest).toEqual([]);
    // One of the page's four monitors down: a quarter, so major.
    expect(opened).toMatchObject({ title: 'Checkout is down', status: 'investigating', severity: 'major', resolvedAt: null, monitors: [{ monitor: { id, name: 'Checkout' } }] });
    expect((opened?.updates as { message: string }[])[0]?.message).toMatch(/^Checkout failed 2 consecutive checks \(latest from eu: status code 500 is not 2xx or 3xx\)\. This incident was opened automatically\.$/);
    await vi.waitFor(async () => expect(hooks.forPath('/incidents').map((hook) => hook.event)).toEqual(['onIncidentCreated']));

    // Still down: no second incident.
    await check(id, 'error');
    expect(await incidents()).toHaveLength(1);

    await check(id, 'up');
    const resolved = dataOf(await t.a.get(`/incidents/${String(opened?.id)}`));
    expect(resolved).toMatchObject({ status: 'resolved', resolvedAt: '2030-01-01T00:02:00.000Z' });
    const updates = resolved.updates as { status: string; message: string }[];
    expect(updates).toHaveLength(2);
    expect(updates[0]).toMatchObject({ status: 'resolved', message: expect.stringMatching(/^Checkout is up again \(check from eu passed in \d+ ms\)\. Resolved automatically\.$/) });
    await vi.waitFor(async () => expect(hooks.forPath('/incidents').map((hook) => hook.event)).toEqual(['onIncidentCreated', 'onIncidentResolved']));

    // The next outage is a new incident.
    await check(id, 'error');
    await check(id, 'error');
    expect((await incidents()).map((incident) => incident.status)).toEqual(['investigating', 'resolved']);
  });

  it('leaves an incident resolved by hand alone when the monitor recovers', async () => {
    const id = await setup(true);
    await check(id, 'error');
    await check(id, 'error');
    const [opened] = await incidents();
    await t.a.patch(`/incidents/${String(opened?.id)}`, { status: 'resolved', message: 'Fixed by hand.' });
    await check(id, 'up');
    const after = dataOf(await t.a.get(`/incidents/${String(opened?.id)}`));
    expect((after.updates as unknown[]).length).toBe(2);
    expect(await incidents()).toHaveLength(1);
  });

  it('opens nothing for monitors without autoIncidents', async () => {
    const id = await setup(false);
    await check(id, 'error');
    await check(id, 'error');
    expect(dataOf(await t.a.get(`/monitors/${id}`)).currentStatus).toBe('down');
    expect(await incidents()).toEqual([]);
  });

  it('rates severity by the share of monitors down when no page links the monitor', async () => {
    const id = idOf(await t.a.post('/monitors', { name: 'Lonely', type: 'http', url: `${target.url}/`, interval: 30, autoIncidents: true }));
    await check(id, 'error');
    await check(id, 'error');
    expect((await incidents())[0]).toMatchObject({ title: 'Lonely is down', severity: 'critical' });
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENT_FLAGS, type EventFlag } from '../../../src/contract/notification.ts';
import type { DeliveryAttemptRecord } from '../../../src/service/store/deliveries.ts';
import { startTargetServer, type TargetServer } from '../checks/target-server.ts';
import { closedPort } from '../checks/loopback.ts';
import { idOf } from '../helpers.ts';
import { startEngineService, type EngineTest } from './harness.ts';
import { startSmtpSink, type SmtpSink } from './smtp-sink.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';

const settle = (ms = 150) => new Promise((resolve) => setTimeout(resolve, ms));
const only = (flag: EventFlag) => Object.fromEntries(EVENT_FLAGS.map((name) => [name, name === flag]));
const at = (offsetMs: number) => new Date(Date.parse('2030-01-01T00:00:00.000Z') + offsetMs).toISOString();

describe('notification delivery', () => {
  let t: EngineTest;
  let hooks: WebhookReceiver;
  let smtp: SmtpSink;
  let target: TargetServer;
  beforeEach(async () => {
    hooks = await startWebhookReceiver();
    smtp = await startSmtpSink();
    target = await startTargetServer();
    t = await startEngineService({ smtp: { host: '127.0.0.1', port: smtp.port, from: 'Porchlight <alerts@porchlight.test>' } });
  });
  afterEach(async () => {
    await t.close();
    await Promise.all([hooks.close(), smtp.close(), target.close()]);
  });
  const attempts = (channelId: string): Promise<DeliveryAttemptRecord[]> => t.service.store.deliveries.forChannel(channelId);

  /** Raises each of the eight events once (and cancels a window, which raises none). */
  const raiseAllEvents = async () => {
    const monitor = idOf(await t.a.post('/monitors', { name: 'Checkout', type: 'http', url: `${target.url}/`, timeout: 2 }));
    target.mode = 'error';
    await t.a.post(`/monitors/${monitor}/run`);
    await t.a.post(`/monitors/${monitor}/run`);
    target.mode = 'up';
    await t.a.post(`/monitors/${monitor}/run`);
    const incident = idOf(await t.a.post('/incidents', { monitorIds: [monitor], title: 'Checkout errors', message: 'Looking into it.' }));
    await t.a.patch(`/incidents/${incident}`, { status: 'identified', message: 'Found it.' });
    await t.a.patch(`/incidents/${incident}`, { status: 'resolved', message: 'Fixed.' });
    const window = idOf(await t.a.post('/maintenance', { title: 'Upgrade', scheduledStart: at(3_600_000), scheduledEnd: at(7_200_000), monitorIds: [monitor] }));
    await t.a.post(`/maintenance/${window}/start`);
    await t.a.post(`/maintenance/${window}/complete`);
    const cancelled = idOf(await t.a.post('/maintenance', { title: 'Never mind', scheduledStart: at(3_600_000), scheduledEnd: at(7_200_000), monitorIds: [] }));
    await t.a.post(`/maintenance/${cancelled}/cancel`);
  };

  it('delivers each of the eight events only to the enabled channels whose flag is set', async () => {
    const perFlag = new Map<EventFlag, string>();
    for (const flag of EVENT_FLAGS) {
      perFlag.set(flag, idOf(await t.a.post('/notifications', { name: `only ${flag}`, type: 'slack', webhookUrl: hooks.url(`/${flag}`), ...only(flag) })));
    }
    const disabled = idOf(await t.a.post('/notifications', { name: 'muted', type: 'slack', webhookUrl: hooks.url('/muted'), enabled: false }));
    const mail = idOf(
      await t.a.post('/notifications', { name: 'on-call mail', type: 'email', recipientEmail: 'oncall@acme.test, ops@acme.test', onIncidentUpdated: false }),
    );
    // Another organization's channel hears nothing of organization A.
    await t.b.post('/notifications', { name: 'other org', type: 'slack', webhookUrl: hooks.url('/other-org') });

    await raiseAllEvents();

    const expectedMail = EVENT_FLAGS.filter((flag) => flag !== 'onIncidentUpdated');
    await vi.waitFor(async () => {
      for (const flag of EVENT_FLAGS) expect(hooks.forPath(`/${flag}`).length, flag).toBeGreaterThan(0);
      expect(smtp.mails.length).toBeGreaterThanOrEqual(expectedMail.length + 1);
    });
    await settle();
    for (const flag of EVENT_FLAGS) {
      const received = hooks.forPath(`/${flag}`);
      // Two windows are scheduled; every other event happens once.
      expect(received.map((hook) => hook.event), flag).toEqual(flag === 'onMaintenanceScheduled' ? [flag, flag] : [flag]);
      expect(received[0]?.contentType).toBe('application/json; charset=utf-8');
      expect(typeof received[0]?.body.text).toBe('string');
      expect(Array.isArray(received[0]?.body.blocks)).toBe(true);
      expect((await attempts(perFlag.get(flag) ?? '')).map((attempt) => [attempt.event, attempt.attempt, attempt.outcome, attempt.statusCode])).toEqual(
        received.map(() => [flag, 1, 'delivered', 200]),
      );
    }
    expect(hooks.forPath('/muted')).toEqual([]);
    expect(await attempts(disabled)).toEqual([]);
    expect(hooks.forPath('/other-org')).toEqual([]);

    expect(smtp.mails.map((message) => message.event)).toEqual(
      ['onMonitorDown', 'onMonitorRecovered', 'onIncidentCreated', 'onIncidentResolved', 'onMaintenanceScheduled', 'onMaintenanceStarted', 'onMaintenanceCompleted', 'onMaintenanceScheduled'],
    );
    expect(expectedMail.every((flag) => smtp.mails.some((message) => message.event === flag))).toBe(true);
    for (const message of smtp.mails) {
      expect(message.to).toEqual(['oncall@acme.test', 'ops@acme.test']);
      expect(message.from).toBe('alerts@porchlight.test');
    }
    expect(smtp.mails[0]?.subject).toBe('[Org A] Monitor down: Checkout');
    expect(smtp.mails[0]?.text).toContain('Checkout (http) failed 2 consecutive checks.');
    expect((await attempts(mail)).every((attempt) => attempt.outcome === 'delivered' && attempt.statusCode === 250)).toBe(true);

    const down = hooks.forPath('/onMonitorDown')[0];
    expect(down?.body.text).toBe(':red_circle: Monitor down: Checkout: Checkout (http) failed 2 consecutive checks.');
    // Logs name channels but never a webhook URL or a mail body.
    const logs = t.logs.join('\n');
    expect(logs).toContain('slack:"only onMonitorDown"');
    expect(logs).not.toContain(hooks.url(''));
    expect(logs).not.toContain('failed 2 consecutive checks');
  });

  it('retries a failing webhook with backoff without holding up the API or other channels', async () => {
    const dead = idOf(await t.a.post('/notifications', { name: 'dead', type: 'slack', webhookUrl: hooks.url('/dead/T000/secret-token') }));
    const hung = idOf(await t.a.post('/notifications', { name: 'hung', type: 'slack', webhookUrl: hooks.url('/hung') }));
    const gone = idOf(await t.a.post('/notifications', { name: 'gone', type: 'slack', webhookUrl: hooks.url('/gone') }));
    const refused = idOf(await t.a.post('/notifications', { name: 'refused', type: 'slack', webhookUrl: `http://127.0.0.1:${await closedPort()}/hook/secret-token` }));
    const healthy = idOf(await t.a.post('/notifications', { name: 'healthy', type: 'slack', webhookUrl: hooks.url('/healthy') }));
    hooks.setMode('/dead/T000/secret-token', 'error');
    hooks.setMode('/hung', 'hang');
    hooks.setMode('/gone', 'gone');

    const started = performance.now();
    const response = await t.a.post('/incidents', { monitorIds: [], title: 'Outage', message: 'Down.' });
    expect(response.status).toBe(201);
    expect(performance.now() - started).toBeLessThan(500);
    await vi.waitFor(async () => expect(hooks.forPath('/healthy')).toHaveLength(1));
    expect(await attempts(hung)).toEqual([]);
    expect((await t.a.get('/incidents')).status).toBe(200);

    const outcomes = async (id: string) => (await attempts(id)).map((attempt) => [attempt.attempt, attempt.outcome, attempt.willRetry, attempt.statusCode]);
    await vi.waitFor(
      async () => {
        expect(await outcomes(dead)).toEqual([[1, 'failed', true, 500], [2, 'failed', true, 500], [3, 'failed', true, 500], [4, 'failed', false, 500]]);
        expect(await outcomes(refused)).toEqual([[1, 'failed', true, null], [2, 'failed', true, null], [3, 'failed', true, null], [4, 'failed', false, null]]);
        expect(await attempts(hung)).toHaveLength(4);
      },
      { timeout: 8000, interval: 50 },
    );
    // A 404 will not change: no retry.
    expect(await outcomes(gone)).toEqual([[1, 'failed', false, 404]]);
    expect(await outcomes(healthy)).toEqual([[1, 'delivered', false, 200]]);
    expect((await attempts(refused))[0]?.error).toBe('connection refused');
    expect((await attempts(hung))[0]?.error).toBe('timed out after 400 ms');
    expect((await attempts(dead))[0]?.error).toBe('webhook answered HTTP 500');
    // Backoff: the configured 20, 40, 80 ms between attempts (at least).
    const deadTimes = hooks.forPath('/dead/T000/secret-token').map((hook) => hook.at);
    expect(deadTimes).toHaveLength(4);
    [20, 40, 80].forEach((delay, index) => expect((deadTimes[index + 1] ?? 0) - (deadTimes[index] ?? 0)).toBeGreaterThanOrEqual(delay - 5));
    // The same delivery id on every retry, so a receiver can deduplicate.
    expect(new Set(hooks.forPath('/dead/T000/secret-token').map((hook) => hook.delivery)).size).toBe(1);
    const stored = JSON.stringify((await t.service.store.db.all('SELECT * FROM notification_deliveries')));
    expect(stored).not.toContain('secret-token');
    expect(t.logs.join('\n')).not.toContain('secret-token');
  }, 15_000);

  it('stops retrying when the channel is disabled', async () => {
    const flaky = idOf(await t.a.post('/notifications', { name: 'flaky', type: 'slack', webhookUrl: hooks.url('/flaky') }));
    hooks.setMode('/flaky', 'hang');
    await t.a.post('/incidents', { monitorIds: [], title: 'Outage', message: 'Down.' });
    await vi.waitFor(async () => expect(hooks.forPath('/flaky')).toHaveLength(1));
    await t.a.patch(`/notifications/${flaky}`, { enabled: false });
    await vi.waitFor(async () => expect(await attempts(flaky)).toHaveLength(1), { timeout: 3000 });
    await settle(300);
    expect(hooks.forPath('/flaky')).toHaveLength(1);
    expect(await attempts(flaky)).toHaveLength(1);
  });

  it('retries an e-mail the server defers and gives up on one it rejects', async () => {
    const mail = idOf(await t.a.post('/notifications', { name: 'mail', type: 'email', recipientEmail: 'oncall@acme.test', ...only('onIncidentCreated') }));
    smtp.rejectWith = 451;
    await t.a.post('/incidents', { monitorIds: [], title: 'Deferred', message: 'a' });
    await vi.waitFor(async () => expect(await attempts(mail)).toHaveLength(1));
    smtp.rejectWith = null;
    await vi.waitFor(async () => expect((await attempts(mail)).map((attempt) => [attempt.outcome, attempt.statusCode])).toEqual([['failed', 451], ['delivered', 250]]));
    expect(smtp.mails.map((message) => message.subject)).toEqual(['[Org A] Incident opened: Deferred']);

    smtp.rejectWith = 550;
    await t.a.post('/incidents', { monitorIds: [], title: 'Rejected', message: 'b' });
    await vi.waitFor(async () => expect(await attempts(mail)).toHaveLength(3));
    await settle(200);
    expect((await attempts(mail))[2]).toMatchObject({ outcome: 'failed', statusCode: 550, willRetry: false, attempt: 1 });
  });
});

describe('notification delivery without SMTP', () => {
  it('records e-mail deliveries as skipped', async () => {
    const t = await startEngineService();
    const mail = idOf(await t.a.post('/notifications', { name: 'mail', type: 'email', recipientEmail: 'oncall@acme.test' }));
    await t.a.post('/incidents', { monitorIds: [], title: 'Quiet', message: 'a' });
    await vi.waitFor(async () => expect(await t.service.store.deliveries.forChannel(mail)).toHaveLength(1));
    expect((await t.service.store.deliveries.forChannel(mail))[0]).toMatchObject({ outcome: 'skipped', error: 'e-mail is not configured (set SMTP_HOST)', willRetry: false, statusCode: null });
    await t.close();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { singleEnvelope } from '../../src/contract/common.ts';
import { EVENT_FLAGS, notificationChannelSchema } from '../../src/contract/notification.ts';
import { dataOf, expectError, idOf, ISO_UTC_MS, listOf, startTestService, useServiceDialects, type TestService } from './helpers.ts';
import { DIALECTS } from '../support/postgres.ts';

const on = useServiceDialects();

const allFlags = (value: boolean) => Object.fromEntries(EVENT_FLAGS.map((flag) => [flag, value]));

describe.each(DIALECTS)('notification channels on %s', (dialect) => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService(on(dialect));
  });
  afterAll(() => t.close());

  it('creates a slack channel with every flag defaulting to true', async () => {
    const response = await t.a.post('/notifications', { name: 'Ops', type: 'slack', webhookUrl: 'https://hooks.example.com/T/B/x' });
    expect(response.status).toBe(201);
    expect(singleEnvelope(notificationChannelSchema).parse(response.json).data).toEqual({
      id: expect.any(String),
      name: 'Ops',
      type: 'slack',
      webhookUrl: 'https://hooks.example.com/T/B/x',
      recipientEmail: null,
      enabled: true,
      ...allFlags(true),
      createdAt: expect.stringMatching(ISO_UTC_MS),
      updatedAt: expect.stringMatching(ISO_UTC_MS),
    });
  });

  it('creates an email channel with chosen flags', async () => {
    const channel = dataOf(await t.a.post('/notifications', { name: 'Mail', type: 'email', recipientEmail: 'a@example.com, b@example.com', enabled: false, ...allFlags(false), onMonitorDown: true }));
    expect(channel).toMatchObject({ type: 'email', recipientEmail: 'a@example.com, b@example.com', webhookUrl: null, enabled: false, ...allFlags(false), onMonitorDown: true });
    expect(dataOf(await t.a.get(`/notifications/${String(channel.id)}`))).toEqual(channel);
  });

  it('rejects invalid channels with 400', async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{ name: 'x', type: 'chat', webhookUrl: 'https://h.example.com' }, ['type']],
      [{ name: 'x', type: 'slack' }, ['webhookUrl']],
      [{ name: 'x', type: 'email' }, ['recipientEmail']],
      [{ name: 'x', type: 'email', recipientEmail: 'a@example.com, nope' }, ['recipientEmail']],
      [{ name: 'x', type: 'slack', webhookUrl: 'not a url' }, ['webhookUrl']],
      [{ name: '', type: 'slack', webhookUrl: 'https://h.example.com' }, ['name']],
      [{ name: 'x', type: 'slack', webhookUrl: 'https://h.example.com', onMonitorDown: 'yes' }, ['onMonitorDown']],
    ];
    for (const [body, paths] of cases) {
      expect(expectError(await t.a.post('/notifications', body), 400, 'validation_error'), JSON.stringify(body)).toEqual(paths);
    }
    expect(listOf(await t.a.get('/notifications')).pagination.total).toBe(2);
  });

  it('updates fields and flags, keeping the channel usable', async () => {
    const id = idOf(await t.a.post('/notifications', { name: 'Edit', type: 'slack', webhookUrl: 'https://hooks.example.com/1' }));
    const response = await t.a.patch(`/notifications/${id}`, { name: 'Edited', enabled: false, onIncidentUpdated: false, webhookUrl: 'https://hooks.example.com/2' });
    expect(response.status).toBe(200);
    expect(dataOf(response)).toMatchObject({ name: 'Edited', enabled: false, onIncidentUpdated: false, onIncidentCreated: true, webhookUrl: 'https://hooks.example.com/2' });
    const before = dataOf(await t.a.get(`/notifications/${id}`));
    expect(expectError(await t.a.patch(`/notifications/${id}`, { webhookUrl: null }), 400, 'validation_error')).toEqual(['webhookUrl']);
    expect(expectError(await t.a.patch(`/notifications/${id}`, { type: 'email' }), 400, 'validation_error')).toEqual(['type']);
    expect(expectError(await t.a.patch(`/notifications/${id}`, { enabled: 1 }), 400, 'validation_error')).toEqual(['enabled']);
    expect(dataOf(await t.a.get(`/notifications/${id}`))).toEqual(before);
  });

  it('lists channels in creation order, paginated', async () => {
    const page = listOf(await t.a.get('/notifications?limit=2&offset=1'));
    expect(page.pagination).toEqual({ total: 3, limit: 2, offset: 1, hasMore: false });
    expect(page.items.map((item) => item.name)).toEqual(['Mail', 'Edited']);
    page.items.forEach((item) => notificationChannelSchema.parse(item));
    expect(listOf(await t.b.get('/notifications')).pagination.total).toBe(0);
    expectError(await t.a.get('/notifications?limit=-5'), 400, 'validation_error');
  });

  it('deletes a channel with 204', async () => {
    const id = idOf(await t.a.post('/notifications', { name: 'Temp', type: 'email', recipientEmail: 'x@example.com' }));
    const response = await t.a.delete(`/notifications/${id}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expectError(await t.a.get(`/notifications/${id}`), 404, 'not_found');
    expectError(await t.a.delete(`/notifications/${id}`), 404, 'not_found');
  });
});

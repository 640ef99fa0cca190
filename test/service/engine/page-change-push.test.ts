import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENT_FLAGS } from '../../../src/contract/notification.ts';
import { PAGE_CHANGED_EVENT } from '../../../src/contract/porchlight-push.ts';
import { idOf } from '../helpers.ts';
import { startEngineService, type EngineTest } from './harness.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';

const settle = (ms = 200) => new Promise((resolve) => setTimeout(resolve, ms));
const allFlags = Object.fromEntries(EVENT_FLAGS.map((name) => [name, true]));

describe('status page changes on Porchlight push channels', () => {
  let t: EngineTest;
  let hooks: WebhookReceiver;
  beforeEach(async () => {
    hooks = await startWebhookReceiver();
    t = await startEngineService({});
  });
  afterEach(async () => {
    await t.close();
    await hooks.close();
  });

  it('announces a page created, changed and deleted to push channels only, as onStatusPageChanged', async () => {
    const push = '/_porchlight/push/token-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
    await t.a.post('/notifications', { name: 'Porchlight live updates', type: 'slack', webhookUrl: hooks.url(push), ...allFlags });
    await t.a.post('/notifications', { name: 'team chat', type: 'slack', webhookUrl: hooks.url('/team'), ...allFlags });
    await t.a.post('/notifications', { name: 'muted push', type: 'slack', webhookUrl: hooks.url(`${push}-muted`), enabled: false });
    // Another organization's push channel hears nothing of organization A's pages.
    await t.b.post('/notifications', { name: 'other org', type: 'slack', webhookUrl: hooks.url(`${push}-other`) });

    const page = idOf(await t.a.post('/status-pages', { name: 'New page', slug: 'new-page', monitors: [] }));
    await t.a.patch(`/status-pages/${page}`, { customCss: 'body { color: red }' });
    await t.a.patch(`/status-pages/${page}`, { isPublic: false });
    await t.a.delete(`/status-pages/${page}`);

    await vi.waitFor(async () => expect(hooks.forPath(push)).toHaveLength(4));
    await settle();
    expect(hooks.forPath(push).map((hook) => hook.event)).toEqual(Array.from({ length: 4 }, () => PAGE_CHANGED_EVENT));
    expect(String(hooks.forPath(push)[0]?.body.text)).toContain('new-page');
    expect(hooks.forPath('/team')).toEqual([]);
    expect(hooks.forPath(`${push}-muted`)).toEqual([]);
    expect(hooks.forPath(`${push}-other`)).toEqual([]);
  });

  it('a failed change announces nothing', async () => {
    const push = '/_porchlight/push/token-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
    await t.a.post('/notifications', { name: 'Porchlight live updates', type: 'slack', webhookUrl: hooks.url(push) });
    await t.a.post('/status-pages', { name: 'Taken', slug: 'taken', monitors: [] });
    await vi.waitFor(async () => expect(hooks.forPath(push)).toHaveLength(1));
    const refused = await t.a.post('/status-pages', { name: 'Again', slug: 'taken', monitors: [] });
    expect(refused.status).toBe(409);
    const missing = await t.a.delete('/status-pages/pag_doesnotexist');
    expect(missing.status).toBe(404);
    await settle(400);
    expect(hooks.forPath(push)).toHaveLength(1);
  });
});

/**
 * The console's subscribers screen without a browser: the counts as shown, the CSV, and the
 * screen over a real subscribers store (SQLite in memory) with a fake API and audit trail:
 * webhook and chat subscriptions listed by host only and removed by an editor or an admin.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StatusPage } from '../../src/api/index.ts';
import { confirmedCsv, endpointsCsv, subscribersScreen, summarize } from '../../src/console/subscribers-screen.ts';
import type { Role } from '../../src/console/roles.ts';
import type { ScreenAnswer, ScreenTools } from '../../src/console/screen.ts';
import type { Operator } from '../../src/console/store.ts';
import { translator } from '../../src/site/i18n/translator.ts';
import { emptyPageCounts, SubscriberStore, type Subscriber } from '../../src/subscribers/store.ts';

const base = { components: [], createdAt: Date.UTC(2026, 10, 1), locale: null, endpointUrl: null, signingSecret: null, contactEmail: null, viewerId: null };
const subscribers: Subscriber[] = [
  { ...base, id: 's1', pageId: 'pg_a', email: 'ada@example.com', state: 'confirmed', channel: 'email', locale: 'fr' },
  { ...base, id: 's2', pageId: 'pg_a', email: 'bob@example.com', state: 'pending', channel: 'email' },
  { ...base, id: 's3', pageId: 'pg_a', email: '=cmd@example.com', state: 'bouncing', channel: 'email' },
  { ...base, id: 's4', pageId: 'pg_a', email: '', state: 'confirmed', channel: 'webhook', endpointUrl: 'https://hooks.example.com/x' },
  { ...base, id: 's5', pageId: 'pg_b', email: 'cy@example.com', state: 'confirmed', channel: 'email' },
];

describe('the console\'s subscribers screen', () => {
  it('shows confirmed (bouncing included) and waiting e-mail subscribers and subscribed webhooks and chats', () => {
    const counts = emptyPageCounts();
    counts.email = { confirmed: 2, bouncing: 1, pending: 4 };
    counts.webhook = { confirmed: 1, bouncing: 1, pending: 1 };
    counts.slack.confirmed = 2;
    expect(summarize(counts)).toEqual({ confirmed: 3, pending: 4, endpoints: 4 });
    expect(summarize(undefined)).toEqual({ confirmed: 0, pending: 0, endpoints: 0 });
  });

  it('exports one page\'s confirmed e-mail addresses only, a formula-looking cell defused', () => {
    expect(confirmedCsv(subscribers, 'pg_a')).toBe('email,subscribed_at,locale\r\nada@example.com,2026-11-01T00:00:00.000Z,fr\r\n"\'=cmd@example.com",2026-11-01T00:00:00.000Z,\r\n');
    expect(confirmedCsv(subscribers, 'pg_none')).toBe('email,subscribed_at,locale\r\n');
  });

  it("exports one page's webhook and chat subscriptions by the URL's host only", () => {
    const withContact = [...subscribers, { ...base, id: 's6', pageId: 'pg_a', email: '', state: 'pending' as const, channel: 'slack' as const, endpointUrl: 'https://hooks.slack.com/services/T0/B0/SECRET', contactEmail: 'ops@example.com', components: ['m1', 'm2'] }];
    const csv = endpointsCsv(withContact, 'pg_a');
    expect(csv).toBe('channel,endpoint_host,contact_email,state,components,subscribed_at,locale\r\nwebhook,hooks.example.com,,confirmed,,2026-11-01T00:00:00.000Z,\r\nslack,hooks.slack.com,ops@example.com,pending,m1 m2,2026-11-01T00:00:00.000Z,\r\n');
    expect(csv).not.toContain('SECRET');
    expect(endpointsCsv(withContact, 'pg_b')).toBe('channel,endpoint_host,contact_email,state,components,subscribed_at,locale\r\n');
  });
});

describe('webhook and chat subscriptions on the subscribers screen', () => {
  const T0 = Date.UTC(2026, 10, 28, 10);
  const SLACK = 'https://hooks.slack.com/services/T000/B000/SECRETTOKEN';
  let store: SubscriberStore;
  let audits: { action: string; target: string; before: unknown; after: unknown }[];
  let slackId: string;
  let mailId: string;
  const pages = [{ id: 'pg_a', name: 'Acme', slug: 'acme' }] as unknown as StatusPage[];
  const tools: ScreenTools = {
    client: { statusPages: { listAll: async function* () { yield* pages; } } } as unknown as ScreenTools['client'],
    audit: async (action, target, before, after) => void audits.push({ action, target, before, after }),
    publicHostName: null,
  };
  const ask = (role: Role, form: Record<string, string> = {}) => ({ method: 'POST' as const, form: new URLSearchParams(form), ctx: { i18n: translator('en', 'UTC'), operator: { id: 'op_1', email: 'eve@example.com', role } as unknown as Operator, csrf: 'token' }, role });
  const body = (answer: ScreenAnswer) => ('body' in answer ? answer.body : '');

  beforeEach(async () => {
    store = await SubscriberStore.open({ dialect: 'sqlite', path: ':memory:' });
    audits = [];
    slackId = (await store.subscribeEndpoint('pg_a', { channel: 'slack', url: SLACK, host: 'hooks.slack.com', signingSecret: null, contactEmail: null }, [], T0, null))!;
    await store.confirmEndpoint(slackId, T0 + 1);
    const mail = (await store.subscribe('pg_a', { address: 'kim@example.com', key: 'kim@example.com' }, [], T0))!;
    mailId = (await store.confirm(mail.token, T0 + 2))!.id;
  });
  afterEach(async () => {
    await store.close();
  });

  it('counts and lists them by channel and host, never the URL\'s path; a viewer sees no remove button', async () => {
    const shown = body(await subscribersScreen(tools, { ...ask('viewer'), method: 'GET' }, store, 'list', new URLSearchParams()));
    expect(shown).toContain('<tr><td>Acme</td><td>1</td><td>0</td><td>1</td></tr>');
    expect(shown).toContain('<td>Slack</td><td dir="ltr">hooks.slack.com</td><td>Confirmed</td>');
    expect(shown).not.toContain('SECRETTOKEN');
    expect(shown).not.toContain('/services/');
    expect(shown).not.toContain('subscribers/remove-endpoint');
    expect(body(await subscribersScreen(tools, { ...ask('editor'), method: 'GET' }, store, 'list', new URLSearchParams()))).toContain(`<input type="hidden" name="id" value="${slackId}">`);
  });

  it('lists them 500 at a time, oldest first, with links to the next and previous 500', async () => {
    for (let index = 0; index < 501; index += 1) {
      await store.subscribeEndpoint('pg_a', { channel: 'webhook', url: `https://ops${index}.example/in`, host: `ops${index}.example`, signingSecret: null, contactEmail: null }, [], T0 + 10 + index, null);
    }
    const list = async (from: string | null) => body(await subscribersScreen(tools, { ...ask('viewer'), method: 'GET' }, store, 'list', new URLSearchParams(from === null ? {} : { from })));
    const first = await list(null);
    expect(first.match(/<td dir="ltr">/g)).toHaveLength(500);
    expect(first).toContain('hooks.slack.com');
    expect(first).not.toContain('ops499.example');
    expect(first).toContain('Showing 1 to 500, oldest first.');
    expect(first).toContain('href="/_porchlight/console/subscribers?from=500#endpoints-heading">Next 500</a>');
    expect(first).not.toContain('Previous 500');
    const second = await list('500');
    expect(second.match(/<td dir="ltr">/g)).toHaveLength(2);
    expect(second).toContain('ops499.example');
    expect(second).toContain('ops500.example');
    expect(second).toContain('Showing 501 to 502, oldest first.');
    expect(second).toContain('href="/_porchlight/console/subscribers?from=0#endpoints-heading">Previous 500</a>');
    expect(second).not.toContain('Next 500');
    // Anything but a whole number, or past the end, is the start.
    for (const odd of ['-5', 'abc', '1e400', '2.5', '600']) expect(await list(odd)).toContain('Showing 1 to 500');
  });

  it('an admin exports them from the store, host only, linked from the page\'s row; an editor may not', async () => {
    const endpoints = new URLSearchParams({ page: 'pg_a', channels: 'endpoints' });
    const exported = await subscribersScreen(tools, { ...ask('admin'), method: 'GET' }, store, 'export', endpoints);
    expect(exported).toMatchObject({ status: 200, download: 'webhooks-and-chats-acme.csv' });
    expect(body(exported)).toBe(`channel,endpoint_host,contact_email,state,components,subscribed_at,locale\r\nslack,hooks.slack.com,,confirmed,,${new Date(T0).toISOString()},\r\n`);
    expect(await subscribersScreen(tools, { ...ask('editor'), method: 'GET' }, store, 'export', endpoints)).toEqual({ refused: 'forbidden' });
    const shown = body(await subscribersScreen(tools, { ...ask('admin'), method: 'GET' }, store, 'list', new URLSearchParams()));
    expect(shown).toContain('subscribers/export?page=pg_a&amp;channels=endpoints" download="webhooks-and-chats-acme.csv">Export webhooks and chats (CSV)</a>');
  });

  it('an editor removes one with the CLI\'s call, audited with the host before; a responder is refused; an e-mail subscriber is not one', async () => {
    expect(await subscribersScreen(tools, ask('responder', { id: slackId }), store, 'remove-endpoint', new URLSearchParams())).toEqual({ refused: 'forbidden' });
    expect(await store.get(slackId)).not.toBeNull();
    const notOne = await subscribersScreen(tools, ask('admin', { id: mailId }), store, 'remove-endpoint', new URLSearchParams());
    expect(notOne).toMatchObject({ status: 404 });
    expect(await store.get(mailId)).not.toBeNull();
    expect(audits).toEqual([]);

    const removed = await subscribersScreen(tools, ask('editor', { id: slackId }), store, 'remove-endpoint', new URLSearchParams());
    expect(removed).toMatchObject({ status: 200 });
    expect(body(removed)).toContain('The Slack subscription to hooks.slack.com was removed.');
    expect(body(removed)).toContain('No webhook or chat subscriptions.');
    expect(await store.get(slackId)).toBeNull();
    expect(audits).toEqual([{ action: 'subscriber.remove', target: slackId, before: { channel: 'slack', target: 'hooks.slack.com', pageId: 'pg_a', state: 'confirmed' }, after: null }]);
    expect(JSON.stringify(audits)).not.toContain('SECRETTOKEN');
  });
});

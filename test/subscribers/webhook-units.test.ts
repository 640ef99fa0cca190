/**
 * The pure parts of webhook and chat subscriptions: Standard Webhooks signatures (verified with
 * the reference `standardwebhooks` library), Statuspage-shaped payloads, the retry policy, URL
 * checks, the egress check after DNS, and the chat services' formats.
 */
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { chatMessage } from '../../src/subscribers/chat-message.ts';
import { decide, retryAfterMs, type RetryRules } from '../../src/subscribers/delivery-policy.ts';
import { EndpointEgress, EndpointEgressError } from '../../src/subscribers/endpoint-egress.ts';
import { channelOf, parseEndpointUrl } from '../../src/subscribers/endpoint-url.ts';
import { componentChanges, componentPayload, eventPayload, withMeta } from '../../src/subscribers/webhook-payload.ts';
import { newSigningSecret, signedHeaders } from '../../src/subscribers/webhook-signing.ts';
import { diffSnapshots } from '../../src/subscribers/snapshot-events.ts';
import { incident, monitor, page, snapshot } from '../site/view/fixtures.ts';

describe('Standard Webhooks signing', () => {
  it('is verified by the standardwebhooks library, and a changed body or another secret is not', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify({ hello: 'wörld' });
    const headers = signedHeaders(secret, 'msg_1', Date.now(), body);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual({ hello: 'wörld' });
    expect(() => new Webhook(secret).verify(body.replace('w', 'W'), headers)).toThrow();
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow();
    // An old timestamp is refused by receivers (replay): the header carries seconds, not ms.
    expect(() => new Webhook(secret).verify(body, signedHeaders(secret, 'msg_1', Date.now() - 3_600_000, body))).toThrow();
  });
});

describe('Statuspage payloads', () => {
  const address = { origin: 'https://status.example.com', basePath: '/acme' };
  const base = snapshot();
  const context = { page: page(), monitors: base.monitors, incidents: base.incidents, address };

  it('an incident: meta with the unsubscribe URL, page, incident with its updates newest first and the page\'s components', () => {
    const [event] = diffSnapshots({ ...base, incidents: [] }, base);
    const body = withMeta(eventPayload(context, event!)!, 'https://status.example.com/acme/subscribe/manage?t=x');
    expect(Object.keys(body).slice(0, 3)).toEqual(['meta', 'event_type', 'page']);
    expect(body).toMatchObject({
      meta: { unsubscribe: 'https://status.example.com/acme/subscribe/manage?t=x' },
      event_type: 'incident.created',
      page: { id: 'p1', status_indicator: 'major', status_description: 'Partial System Outage' },
      incident: {
        id: 'i1',
        name: 'Incident i1',
        status: 'identified',
        impact: 'major',
        shortlink: 'https://status.example.com/acme/incidents/i1/',
        incident_updates: [
          { id: 'i1-u2', incident_id: 'i1', status: 'identified', body: 'Found it' },
          { id: 'i1-u1', status: 'investigating', body: 'Looking' },
        ],
        // Only what the page shows, named as it names it: never the monitor it does not show.
        components: [{ id: 'm2', name: 'Database', status: 'major_outage' }],
      },
    });
  });

  it('a component change: component_update and component, in Statuspage\'s status words', () => {
    const before = [monitor('m1', 'up'), monitor('m2', 'up')];
    const after = [monitor('m1', 'up'), monitor('m2', 'down', { lastCheckedAt: '2026-11-22T12:00:00.000Z' })];
    const changes = componentChanges(before, after, new Date());
    expect(changes).toHaveLength(1);
    // Paused or pending monitors are not a component status: no change.
    expect(componentChanges([monitor('m1', 'up')], [monitor('m1', 'paused')], new Date())).toEqual([]);
    const body = componentPayload(context, changes[0]!);
    expect(body).toMatchObject({
      component_update: { component_id: 'm2', old_status: 'operational', new_status: 'major_outage', created_at: '2026-11-22T12:00:00.000Z' },
      component: { id: 'm2', name: 'Database', status: 'major_outage' },
    });
  });

  it('a resolved incident reads as Statuspage\'s', () => {
    const resolved = incident('i1', { status: 'resolved', resolvedAt: '2026-11-22T12:30:00.000Z' });
    const [event] = diffSnapshots(base, { ...base, incidents: [resolved] });
    expect(eventPayload({ ...context, incidents: [resolved] }, event!)).toMatchObject({ event_type: 'incident.resolved', page: { status_indicator: 'none' }, incident: { status: 'resolved', resolved_at: '2026-11-22T12:30:00.000Z' } });
  });
});

describe('the retry policy', () => {
  const rules: RetryRules = { baseMs: 1_000, maxMs: 60_000, giveUpAfterMs: 86_400_000 };
  const at = 1_000_000;
  it('2xx delivered, 410 gone, other 4xx given up, 408/429/5xx/3xx/timeouts retried with backoff', () => {
    expect(decide({ status: 204, retryAfter: null }, 1, at, at, rules)).toEqual({ action: 'delivered' });
    expect(decide({ status: 410, retryAfter: null }, 1, at, at, rules)).toEqual({ action: 'gone' });
    for (const status of [400, 401, 403, 404, 422]) expect(decide({ status, retryAfter: null }, 1, at, at, rules)).toEqual({ action: 'give-up' });
    expect(decide({ error: 'refused' }, 1, at, at, rules)).toEqual({ action: 'give-up' });
    for (const status of [408, 429, 500, 503, 302]) expect(decide({ status, retryAfter: null }, 1, at, at, rules)).toEqual({ action: 'retry', at: at + 1_000 });
    expect(decide({ error: 'timeout' }, 3, at, at, rules)).toEqual({ action: 'retry', at: at + 4_000 });
    expect(decide({ error: 'connection' }, 20, at, at, rules)).toEqual({ action: 'retry', at: at + 60_000 });
  });
  it('honours Retry-After (seconds or a date) when it asks for longer', () => {
    expect(decide({ status: 429, retryAfter: '120' }, 1, at, at, rules)).toEqual({ action: 'retry', at: at + 120_000 });
    expect(retryAfterMs(new Date(at + 30_000).toUTCString(), at)).toBe(30_000);
    expect(retryAfterMs('soon', at)).toBeNull();
  });
  it('pauses once a retry would fall more than a day after the delivery was queued', () => {
    expect(decide({ status: 503, retryAfter: null }, 30, at, at + 86_400_000 - 120_000, rules)).toEqual({ action: 'retry', at: at + 86_400_000 - 60_000 });
    expect(decide({ status: 503, retryAfter: null }, 30, at, at + 86_400_000, rules)).toEqual({ action: 'pause' });
  });
});

describe('receiver URLs', () => {
  const strict = { allowHttp: false };
  it('takes https URLs only, without credentials, and knows chat services by host', () => {
    expect(parseEndpointUrl('https://hooks.example.com/in?x=1#frag', strict)).toEqual({ url: 'https://hooks.example.com/in?x=1', host: 'hooks.example.com', channel: 'webhook' });
    expect(parseEndpointUrl('http://hooks.example.com/', strict)).toEqual({ problem: 'notHttps' });
    expect(parseEndpointUrl('http://127.0.0.1:9/', { allowHttp: true })).toMatchObject({ host: '127.0.0.1' });
    expect(parseEndpointUrl('https://user:pw@hooks.example.com/', strict)).toEqual({ problem: 'credentials' });
    expect(parseEndpointUrl('ftp://x/', strict)).toEqual({ problem: 'notHttps' });
    expect(parseEndpointUrl('not a url', strict)).toEqual({ problem: 'invalid' });
    expect(parseEndpointUrl(`https://a.example/${'x'.repeat(2000)}`, strict)).toEqual({ problem: 'invalid' });
    expect(channelOf(new URL('https://hooks.slack.com/services/T0/B0/x'))).toBe('slack');
    expect(channelOf(new URL('https://discord.com/api/webhooks/1/abc'))).toBe('discord');
    expect(channelOf(new URL('https://acme.webhook.office.com/webhookb2/x'))).toBe('teams');
    expect(channelOf(new URL('https://prod-1.westeurope.logic.azure.com/workflows/x'))).toBe('teams');
    expect(channelOf(new URL('https://hooks.slack.com.evil.example/services/x'))).toBe('webhook');
  });
});

describe('the egress check after DNS', () => {
  const resolver = async (host: string) => {
    if (host === 'internal.example') return [{ address: '10.0.0.5', family: 4 as const }];
    if (host === 'mixed.example') return [{ address: '93.184.216.34', family: 4 as const }, { address: '169.254.169.254', family: 4 as const }];
    if (host === 'public.example') return [{ address: '93.184.216.34', family: 4 as const }];
    throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  };
  const egress = new EndpointEgress({ allowPrivate: false, resolver });
  const reason = async (host: string) => egress.resolve(host).then(() => null, (error: unknown) => (error instanceof EndpointEgressError ? error.reason : 'other'));

  it('refuses loopback, private, link-local and metadata addresses, by literal or by what a name resolves to', async () => {
    expect(await reason('127.0.0.1')).toBe('refused');
    expect(await reason('[::1]')).toBe('refused');
    expect(await reason('localhost')).toBe('refused');
    expect(await reason('169.254.169.254')).toBe('refused');
    expect(await reason('::ffff:10.0.0.1')).toBe('refused');
    expect(await reason('internal.example')).toBe('refused');
    expect(await reason('mixed.example')).toBe('refused');
    expect(await reason('nowhere.example')).toBe('unresolvable');
    expect(await reason('public.example')).toBeNull();
    expect(await new EndpointEgress({ allowPrivate: true, resolver }).resolve('internal.example')).toEqual([{ address: '10.0.0.5', family: 4 }]);
  });
});

describe('chat formats', () => {
  const content = { title: 'Acme Status: New incident', text: 'Status: Investigating <@here> *bold*', link: 'https://s.example/i/1', linkLabel: 'Details', unsubscribeUrl: 'https://s.example/u?t=1', unsubscribeLabel: 'Unsubscribe', color: '#1a7f37' };
  it('Slack blocks, Discord embeds and a Teams Adaptive Card, each with the link and the unsubscribe link, owner text escaped', () => {
    const slack = JSON.stringify(chatMessage('slack', content));
    expect(slack).toContain('"type":"header"');
    expect(slack).toContain('&lt;@here&gt;');
    expect(slack).toContain('<https://s.example/u?t=1|Unsubscribe>');
    const discord = chatMessage('discord', content) as { embeds: { title: string; url: string; description: string; color: number }[]; allowed_mentions: unknown };
    expect(discord.embeds[0]).toMatchObject({ title: content.title, url: content.link, color: 0x1a7f37 });
    expect(discord.embeds[0]!.description).toContain('[Unsubscribe](https://s.example/u?t=1)');
    expect(discord.embeds[0]!.description).toContain('\\*bold\\*');
    expect(discord.allowed_mentions).toEqual({ parse: [] });
    const teams = JSON.stringify(chatMessage('teams', content));
    expect(teams).toContain('application/vnd.microsoft.card.adaptive');
    expect(teams).toContain('"type":"Action.OpenUrl","title":"Unsubscribe","url":"https://s.example/u?t=1"');
  });
});

import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { clientAddressResolver } from '../../../src/audiences/client-address.ts';
import { announceGatedRoutes } from '../../../src/audiences/gated-routes.ts';
import { createPrivateRelay, type PrivateRelay } from '../../../src/server/front/private-relay.ts';
import { CUSTOM_DOMAINS_CHANNEL } from '../../../src/site/data/custom-domains.ts';
import { announcer } from '../../../src/site/data/thread-channel.ts';

/** A request as the relay reads it: method, URL, headers, the connection's address. */
function request(url: string, headers: Record<string, string> = {}, remoteAddress = '203.0.113.5', method = 'GET'): IncomingMessage {
  return { method, url, headers, socket: { remoteAddress } } as unknown as IncomingMessage;
}

const relays: PrivateRelay[] = [];
afterEach(async () => {
  await Promise.all(relays.splice(0).map((relay) => relay.close()));
});

async function relayWith(trusted: string[] = []): Promise<PrivateRelay> {
  const relay = createPrivateRelay({ upstream: 'http://127.0.0.1:9', clientAddress: clientAddressResolver(trusted), cookieNames: ['__Host-porchlight-viewer', 'porchlight-viewer'] });
  relays.push(relay);
  announceGatedRoutes([
    { slug: 'internal', mode: 'unlisted', cidrs: ['10.0.0.0/8'] },
    { slug: 'zeta', mode: 'sign-in-shown', cidrs: [] },
  ]);
  announcer<string[]>(CUSTOM_DOMAINS_CHANNEL)(['status.acme.test']);
  // Channel messages are delivered on the next turn.
  await new Promise((resolve) => setImmediate(resolve));
  return relay;
}

describe('the private relay: which requests go to the site for their visitor alone', () => {
  it('the private routes, with their forms', async () => {
    const relay = await relayWith();
    expect(relay.matches(request('/_porchlight/private/internal/sign-in', {}, undefined, 'POST'))).toBe(true);
    expect(relay.matches(request('/_porchlight/private/invite/x'))).toBe(true);
    expect(relay.matches(request('/_porchlight/private/x', {}, undefined, 'PUT'))).toBe(false);
    expect(relay.matches(request('/_porchlight/tls-allowed?domain=x'))).toBe(false);
  });

  it('a stranger\'s request for an unlisted page takes the usual path; a viewer cookie or an address in range does not', async () => {
    const relay = await relayWith();
    expect(relay.claims(request('/internal/'), '/internal/', '127.0.0.1')).toBe(false);
    expect(relay.claims(request('/internal/', { 'x-forwarded-for': '10.1.2.3' }), '/internal/', '127.0.0.1')).toBe(false);
    expect(relay.claims(request('/internal/', { cookie: 'a=b; porchlight-viewer=t' }), '/internal/', '127.0.0.1')).toBe(true);
    expect(relay.claims(request('/internal/api/v2/summary.json', {}, '10.9.8.7'), '/internal/api/v2/summary.json', '127.0.0.1')).toBe(true);
    expect(relay.claims(request('/internal/', {}, '::ffff:10.9.8.7'), '/internal/', '127.0.0.1')).toBe(true);
    // Another page, or a public page's own domain (where /internal/ is that page's path): never.
    expect(relay.claims(request('/acme/', { cookie: 'porchlight-viewer=t' }), '/acme/', '127.0.0.1')).toBe(false);
    expect(relay.claims(request('/internal/', { cookie: 'porchlight-viewer=t' }), '/internal/', 'status.acme.test')).toBe(false);
    // A sign-in-shown page: every request, for its sign-in.
    expect(relay.claims(request('/zeta/'), '/zeta/', '127.0.0.1')).toBe(true);
  });

  it('believes X-Forwarded-For only from a trusted proxy', async () => {
    const relay = await relayWith(['127.0.0.1/32']);
    expect(relay.claims(request('/internal/', { 'x-forwarded-for': '10.1.2.3' }, '127.0.0.1'), '/internal/', 'main.test')).toBe(true);
    expect(relay.claims(request('/internal/', { 'x-forwarded-for': '10.1.2.3' }, '198.51.100.1'), '/internal/', 'main.test')).toBe(false);
  });
});

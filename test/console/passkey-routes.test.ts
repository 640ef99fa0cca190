/**
 * The console's passkey sign-in routes through the real handler on loopback sockets (behind an
 * https SITE_PUBLIC_URL): the options carry the site's RP ID and a fresh challenge; a failed
 * passkey sign-in counts in the same throttle as passwords, for the passkey's operator, so it slows
 * their password sign-in from that address too; an options request without the pre-session's
 * token is refused; one address's asks for options are bounded; and on an IP address there is no
 * passkey at all.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createClient } from '../../src/api/index.ts';
import { hashPassword } from '../../src/auth/password.ts';
import { openAuthDatabase, SessionStore } from '../../src/auth/session-store.ts';
import { SignInThrottle } from '../../src/auth/throttle.ts';
import { createConsole } from '../../src/console/handler.ts';
import { ConsoleStore } from '../../src/console/store.ts';
import { SIGN_IN_OPTIONS_PER_MINUTE } from '../../src/console/passkey-routes.ts';

const cheap = { N: 2 ** 10, r: 8, p: 1 };
const PASSWORD = 'a long enough passphrase';
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function consoleAt(publicUrl: string) {
  const store = await ConsoleStore.open({ dialect: 'sqlite', path: ':memory:' });
  const authDb = await openAuthDatabase({ dialect: 'sqlite', path: ':memory:' });
  const client = createClient({ baseUrl: 'http://127.0.0.1:9/api/v1', apiKey: 'never-used', maxRetries: 0 });
  const { operator, setupToken } = await store.addOperator('ada@example.com', 'viewer', Date.now());
  await store.completeSetup(setupToken, await hashPassword(PASSWORD, cheap), Date.now());
  const handler = createConsole({ publicUrl: new URL(publicUrl), port: 0, allowHttp: false, store, sessions: new SessionStore(authDb), throttle: new SignInThrottle(authDb), client, siteLocale: 'en', siteTimeZone: 'UTC', templatesDir: './templates', passwordCost: cheap, log: () => undefined });
  const server: Server = createServer((req, res) => void handler.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => store.close(), () => authDb.close(), () => client.close(), () => new Promise((resolve) => server.close(resolve)));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/_porchlight/console/`;
  const host = new URL(publicUrl).host;
  const headers = { host, origin: new URL(publicUrl).origin, 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' };
  const form = await request(`${base}sign-in`, { headers: { host } });
  const setCookie = form.headers['set-cookie'];
  const pre = (Array.isArray(setCookie) ? setCookie[0] : setCookie)?.split(';')[0] ?? '';
  const page = await form.body.text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
  const post = (path: string, fields: Record<string, string>, cookie = pre) => request(`${base}${path}`, { method: 'POST', headers: { ...headers, cookie }, body: new URLSearchParams(fields).toString() });
  return { store, operator, page, csrf, post, signInPage: form };
}

/** A sign-in answer naming `credentialId` whose signature proves nothing. */
const forged = (credentialId: string) => JSON.stringify({ id: credentialId, rawId: credentialId, type: 'public-key', response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' } });

describe('passkey sign-in through the console', () => {
  it('hands out options for the site\'s RP ID with a fresh challenge each time, only with the pre-session\'s token', async () => {
    const site = await consoleAt('https://status.example.com');
    expect(site.page).toContain('Sign in with a passkey');
    expect(site.signInPage.headers['content-security-policy']).toContain("script-src https://status.example.com/_porchlight/console/passkeys.js; connect-src 'self'");
    const first = await site.post('sign-in/passkey-options', { csrf: site.csrf });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    const options = (await first.body.json()) as { rpId: string; challenge: string };
    expect(options.rpId).toBe('status.example.com');
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const second = (await (await site.post('sign-in/passkey-options', { csrf: site.csrf })).body.json()) as { challenge: string };
    expect(second.challenge).not.toBe(options.challenge);
    const noToken = await site.post('sign-in/passkey-options', { csrf: 'wrong' });
    expect(noToken.statusCode).toBe(403);
    await noToken.body.dump();
  });

  it('bounds the sign-in options one address may ask for a minute (each stores a challenge)', async () => {
    const site = await consoleAt('https://status.example.com');
    for (let ask = 1; ask <= SIGN_IN_OPTIONS_PER_MINUTE; ask += 1) {
      const answer = await site.post('sign-in/passkey-options', { csrf: site.csrf });
      expect(answer.statusCode).toBe(200);
      await answer.body.dump();
    }
    const over = await site.post('sign-in/passkey-options', { csrf: site.csrf });
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBe('60');
    await over.body.dump();
  });

  it('counts failed passkey sign-ins against the passkey\'s operator in the password throttle, and audits nothing for them', async () => {
    const site = await consoleAt('https://status.example.com');
    await site.store.passkeys().add({ credentialId: 'Y3JlZC0x', operatorId: site.operator.id, label: 'Laptop', publicKey: 'AAAA', counter: 0, transports: [] }, Date.now());
    // Three free failures for the pair (address, account), then a delay.
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      const failed = await site.post('sign-in/passkey', { csrf: site.csrf, response: forged('Y3JlZC0x') });
      expect(failed.statusCode).toBe(401);
      expect(await failed.body.text()).toContain('The passkey was not accepted.');
    }
    const password = await site.post('sign-in', { csrf: site.csrf, email: 'ada@example.com', password: PASSWORD });
    expect(password.statusCode).toBe(429);
    expect(Number(password.headers['retry-after'])).toBeGreaterThan(0);
    await password.body.dump();
    const malformed = await site.post('sign-in/passkey', { csrf: site.csrf, response: 'not json' });
    expect(malformed.statusCode).toBe(401);
    await malformed.body.dump();
    expect((await site.store.audit()).filter((entry) => entry.action.startsWith('operator.passkey'))).toEqual([]);
  });

  it('offers no passkey on an IP address: no option on the sign-in screen, no route, no script policy', async () => {
    const site = await consoleAt('https://192.0.2.10');
    expect(site.page).not.toContain('passkey');
    expect(site.signInPage.headers['content-security-policy']).not.toContain('script-src');
    const options = await site.post('sign-in/passkey-options', { csrf: site.csrf });
    expect(options.statusCode).toBe(404);
    await options.body.dump();
  });
});
